import ArgumentParser

/// The options every command takes.
struct SharedOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The database file (default: $ARRANGE_DB, else $XDG_DATA_HOME/arrange/arrange.sqlite, else ~/.local/share/arrange/arrange.sqlite).",
        valueName: "path"))
    var db: String?

    @Flag(name: .long, help: "Print the result as JSON on one line instead of text.")
    var json = false

    @OptionGroup(title: "Settings")
    var settings: SettingsOptions

    init() {}
}

/// The settings a command line may override; see ``Settings``.
struct SettingsOptions: ParsableArguments {
    @Option(name: .customLong("end-gap"), help: ArgumentHelp("How far past the first or last item a new top or bottom key steps.", valueName: "n"))
    var endGap: Int64?

    @Option(name: .customLong("minimum-gap"), help: ArgumentHelp("The smallest distance between neighbouring keys; closer keys are re-spread.", valueName: "n"))
    var minimumGap: Int64?

    @Flag(inversion: .prefixedNo, help: "Place new keys at a random point of their gap, so that two devices rarely pick the same key.")
    var jitter: Bool?

    @Option(name: .customLong("default-list"), help: ArgumentHelp("The list commands use when they name none; created when missing.", valueName: "name"))
    var defaultList: String?

    @Option(name: .customLong("history-size"), help: ArgumentHelp("How many steps undo can go back, and how many lines the REPL history keeps.", valueName: "n"))
    var historySize: Int?

    init() {}

    var overrides: SettingsOverrides {
        SettingsOverrides(endGap: endGap, minimumGap: minimumGap, jitter: jitter, defaultList: defaultList, historySize: historySize)
    }
}

/// Where an item goes: one of `--top`, `--bottom`, `--before`, `--after`, `--offset`.
struct PlacementOptions: ParsableArguments {
    @Flag(name: .long, help: "Put the items before every other item.")
    var top = false

    @Flag(name: .long, help: "Put the items after every other item.")
    var bottom = false

    @Option(name: .long, help: ArgumentHelp("Put the items directly before this item (#N, an id, or an id prefix).", valueName: "item"))
    var before: ItemReference?

    @Option(name: .long, help: ArgumentHelp("Put the items directly after this item (#N, an id, or an id prefix).", valueName: "item"))
    var after: ItemReference?

    @Option(name: .long, help: ArgumentHelp("Put the items at this 0-based offset among the open items.", valueName: "n"))
    var offset: Int?

    /// The placement given, or `nil` when none is.
    var reference: PlacementReference? {
        if top { return .top }
        if bottom { return .bottom }
        if let before { return .before(before) }
        if let after { return .after(after) }
        return offset.map(PlacementReference.offset)
    }

    func validate() throws {
        let given = [top, bottom, before != nil, after != nil, offset != nil].filter { $0 }.count
        guard given <= 1 else { throw ValidationError("Give one placement only: --top, --bottom, --before, --after or --offset.") }
    }
}

extension CommandConfiguration {
    /// The configuration of the command that runs a request form: its name and summary.
    static func request(_ form: any RequestForm.Type, discussion: String = "") -> CommandConfiguration {
        CommandConfiguration(commandName: form.commandName, abstract: form.summary, discussion: discussion)
    }
}
