import ArgumentParser
import ArrangeOrdering

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

/// The settings a command line may override; names and help come from ``Setting``.
struct SettingsOptions: ParsableArguments {
    @Option(name: .customLong(Setting.endGap.flag), help: ArgumentHelp(Setting.endGap.help, valueName: "n"))
    var endGap: Int64?

    @Option(name: .customLong(Setting.minimumGap.flag), help: ArgumentHelp(Setting.minimumGap.help, valueName: "n"))
    var minimumGap: Int64?

    @Flag(name: .customLong(Setting.jitter.flag), inversion: .prefixedNo, help: ArgumentHelp(Setting.jitter.help))
    var jitter: Bool?

    @Option(name: .customLong(Setting.defaultList.flag), help: ArgumentHelp(Setting.defaultList.help, valueName: "name"))
    var defaultList: String?

    @Option(name: .customLong(Setting.historySize.flag), help: ArgumentHelp(Setting.historySize.help, valueName: "n"))
    var historySize: Int?

    init() {}

    var overrides: SettingsOverrides {
        SettingsOverrides().with(Setting.endGap, endGap).with(Setting.minimumGap, minimumGap).with(Setting.jitter, jitter)
            .with(Setting.defaultList, defaultList).with(Setting.historySize, historySize)
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
