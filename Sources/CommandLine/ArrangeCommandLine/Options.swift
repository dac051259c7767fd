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

/// What a placement on the command line is relative to: an item or a list.
protocol PlacementAnchor: TextReference, RequestValue {
    /// What is placed, for help: "the items".
    static var placed: String { get }
    /// One of them, for help: "item".
    static var noun: String { get }
    /// How to name one, for help: "#N, an id, or an id prefix".
    static var namedBy: String { get }
    /// What an offset counts, for help: "the open items".
    static var counted: String { get }
}

extension ItemReference: PlacementAnchor {
    static let placed = "the items"
    static let noun = "item"
    static let namedBy = "#N, an id, or an id prefix"
    static let counted = "the open items"
}

extension ChecklistItemReference: PlacementAnchor {
    static let placed = "the entries"
    static let noun = "entry"
    static let namedBy = "#N or an id"
    static let counted = "every entry of the checklist"
}

extension ListReference: PlacementAnchor {
    static let placed = "the list"
    static let noun = "list"
    static let namedBy = "a name or an id"
    static let counted = "the lists of its area, or of none"
}

extension AreaReference: PlacementAnchor {
    static let placed = "the area"
    static let noun = "area"
    static let namedBy = "a name or an id"
    static let counted = "the areas"
}

extension TagReference: PlacementAnchor {
    static let placed = "the tag"
    static let noun = "tag"
    static let namedBy = "a name or an id"
    static let counted = "the children of its parent, or the tags at the top level"
}

extension HeadingReference: PlacementAnchor {
    static let placed = "the heading"
    static let noun = "heading"
    static let namedBy = "a title or an id"
    static let counted = "the headings of the list"
}

/// Where something goes: one of `--top`, `--bottom`, `--before`, `--after`, `--offset`.
struct PlacementOptions<Anchor: PlacementAnchor>: ParsableArguments {
    @Flag(name: .long, help: ArgumentHelp("Put \(Anchor.placed) before every other \(Anchor.noun)."))
    var top = false

    @Flag(name: .long, help: ArgumentHelp("Put \(Anchor.placed) after every other \(Anchor.noun)."))
    var bottom = false

    @Option(name: .long, help: ArgumentHelp("Put \(Anchor.placed) directly before this \(Anchor.noun) (\(Anchor.namedBy)).", valueName: Anchor.noun))
    var before: Anchor?

    @Option(name: .long, help: ArgumentHelp("Put \(Anchor.placed) directly after this \(Anchor.noun) (\(Anchor.namedBy)).", valueName: Anchor.noun))
    var after: Anchor?

    @Option(name: .long, help: ArgumentHelp("Put \(Anchor.placed) at this 0-based offset among \(Anchor.counted).", valueName: "n"))
    var offset: Int?

    /// The placement given, or `nil` when none is.
    var reference: Placement<Anchor>? {
        if top { return .top }
        if bottom { return .bottom }
        if let before { return .before(before) }
        if let after { return .after(after) }
        return offset.map(Placement.offset)
    }

    func validate() throws {
        let given = [top, bottom, before != nil, after != nil, offset != nil].filter { $0 }.count
        guard given <= 1 else { throw ValidationError("Give one placement only: --top, --bottom, --before, --after or --offset.") }
    }
}

extension CommandConfiguration {
    /// The configuration of the command that runs a kind of request: its name and summary.
    static func request(_ request: any Request.Type, discussion: String = "") -> CommandConfiguration {
        CommandConfiguration(commandName: request.commandName, abstract: request.summary, discussion: discussion)
    }
}
