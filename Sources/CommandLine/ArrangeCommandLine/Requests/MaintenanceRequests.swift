public import ArgumentParser
public import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import Foundation

// Keeping keys in order (`validate`, `normalize`) and going back and forth (`undo`, `redo`).

/// The kinds of ordering `validate` and `normalize` name with `scope`: `items` (a list's under
/// no heading, the default), `lists` (those in no area), `today`, `checklist` (an item's),
/// `areas`, `area` (an area's lists), `headings` (a list's) or `heading` (a heading's items).
extension OrderingKind: ExpressibleByArgument, RequestValue {
    public static var jsonForm: String { #""items", "lists", "today", "checklist", "areas", "area", "headings", "heading" or "tags""# }

    /// The ordering a request names with `scope`, `list`, `item`, `area`, `heading` and `tag`: a
    /// list's items unless `scope` says otherwise; an item's checklist names the item, an area's
    /// lists the area, a heading's items the heading (by title in `list`, or by id), and a tag's
    /// children the tag (the tags at the top level without it).
    ///
    /// - Throws: `missingField` for a checklist without its item, an area's lists without the
    ///   area or a heading's items without the heading; `invalidField` when a list, an item, an
    ///   area or a heading is named with another scope.
    static func scope(
        _ kind: Self?, list: ListReference?, item: ItemReference?, area: AreaReference?, heading: HeadingReference?, tag: TagReference?,
        _ resolve: ReferenceResolver
    ) throws -> OrderScope {
        let kind = kind ?? .items
        if list != nil, ![.items, .headings, .heading].contains(kind) {
            throw IntentFailure(code: "invalidField", message: "Name a list only with the scope of a list's items or headings, or of a heading's items.")
        }
        if heading != nil, kind != .heading { throw IntentFailure(code: "invalidField", message: "Name a heading only with the scope of a heading's items.") }
        if item != nil, kind != .checklist { throw IntentFailure(code: "invalidField", message: "Name an item only with the scope of a checklist.") }
        if area != nil, kind != .area { throw IntentFailure(code: "invalidField", message: "Name an area only with the scope of an area's lists.") }
        if tag != nil, kind != .tags { throw IntentFailure(code: "invalidField", message: "Name a tag only with the scope of the tags, for its children.") }
        switch kind {
        case .items: return .items(try resolve.list(list).id)
        case .headings: return .headings(try resolve.list(list).id)
        case .heading:
            guard let heading else { throw IntentFailure(code: "missingField", message: "Name the heading whose items they are, with heading.") }
            return .heading(try resolve.heading(heading, in: list).id)
        case .lists: return .lists
        case .today: return .today
        case .areas: return .areas
        case .tags: return .tags(try tag.map { try resolve.tag($0).id })
        case .checklist:
            guard let item else { throw IntentFailure(code: "missingField", message: "Name the item whose checklist it is, with item.") }
            return .checklist(try resolve.item(item, numberedIn: resolve.numbering(nil)).id)
        case .area:
            guard let area else { throw IntentFailure(code: "missingField", message: "Name the area whose lists they are, with area.") }
            return .area(try resolve.area(area).id)
        }
    }
}

struct ValidateRequest: Request {
    static let name = "validate"
    static let summary =
        "Check an order (a list's items, the lists, Today, a checklist, the areas, an area's lists, a list's headings, a heading's items, the tags) for tied or cramped sort keys, and repair them when asked; the order never changes."
    var list: ListReference?
    var scope: OrderingKind?
    var item: ItemReference?
    var area: AreaReference?
    var heading: HeadingReference?
    var tag: TagReference?
    var repair: Bool?

    static let fields: [RequestField<Self>] = [
        .init("list", \.list, help: "The list whose items to check; the current list when neither it nor scope is given."),
        .init("scope", \.scope, help: "Check the order of a list's items under no heading (items, the default), of the lists in no area, of Today, of an item's checklist, of the areas, of an area's lists, of a list's headings, of a heading's items, or of the tags (a tag's children)."),
        .init("item", \.item, help: "The item whose checklist to check, with the scope checklist."),
        .init("area", \.area, help: "The area whose lists to check, with the scope area."),
        .init("heading", \.heading, help: "The heading whose items to check, by title (in list) or id, with the scope heading."),
        .init("tag", \.tag, help: "The tag whose children to check, with the scope tags; the tags at the top level without it."),
        .init("repair", \.repair, help: "Repair what the check finds."),
    ]

    var readsOnly: Bool { !(repair ?? false) }

    func intent(_ resolve: ReferenceResolver) throws -> ValidateList {
        ValidateList(try OrderingKind.scope(scope, list: list, item: item, area: area, heading: heading, tag: tag, resolve), repair: repair ?? false)
    }
}

struct ValidateCommand: RequestCommand {
    typealias Form = ValidateRequest
    static let configuration = CommandConfiguration.request(Form.self)
    @OptionGroup var shared: SharedOptions
    @Option(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference?
    @Option(help: ArgumentHelp(Form.help(\.scope), valueName: "items|lists|today|checklist|areas|area|headings|heading|tags")) var scope: OrderingKind?
    @Option(help: ArgumentHelp(Form.help(\.item), valueName: "item")) var item: ItemReference?
    @Option(help: ArgumentHelp(Form.help(\.area), valueName: "area")) var area: AreaReference?
    @Option(help: ArgumentHelp(Form.help(\.heading), valueName: "heading")) var heading: HeadingReference?
    @Option(help: ArgumentHelp(Form.help(\.tag), valueName: "tag")) var tag: TagReference?
    @Flag(help: ArgumentHelp(Form.help(\.repair))) var repair = false

    var request: ValidateRequest { ValidateRequest(list: list, scope: scope, item: item, area: area, heading: heading, tag: tag, repair: repair) }

    func text(for result: ValidationResult, in session: CommandSession) -> String {
        let report = result.report
        let name = TextFormat.name(of: result.scope, list: result.list)
        let entries = switch result.scope {
        case .lists, .area: "lists"
        case .checklist: "entries"
        case .areas: "areas"
        case .tags: "tags"
        case .items, .today, .heading: "items"
        case .headings: "headings"
        }
        guard !result.healthy else { return "\(name): \(report.itemCount) \(entries), keys in good order." }
        let found = "\(name): \(report.tiedGroups) group(s) of tied keys (\(report.tiedItems) \(entries)), \(report.crampedGaps) cramped gap(s)"
        let quoted = { (text: String) in "'\(text.replacingOccurrences(of: "'", with: #"'\''"#))'" }
        let options = [
            scope.map { "--scope \($0.rawValue)" }, list.map { "--list \(quoted($0.text))" }, item.map { "--item \(quoted($0.text))" },
            area.map { "--area \(quoted($0.text))" }, heading.map { "--heading \(quoted($0.text))" }, tag.map { "--tag \(quoted($0.text))" },
        ].compactMap { $0 }
        let repair = (["validate"] + options + ["--repair"]).joined(separator: " ")
        return report.repaired ? "\(found); repaired, \(report.rowsWritten) rows written." : "\(found). Run `\(repair)` to fix them."
    }
}

struct NormalizeRequest: Request {
    static let name = "normalize"
    static let summary = "Renumber the sort keys of an order (a list's items, the lists, Today, a checklist, the areas, an area's lists, a list's headings, a heading's items, the tags) evenly; the order never changes."
    var list: ListReference?
    var scope: OrderingKind?
    var item: ItemReference?
    var area: AreaReference?
    var heading: HeadingReference?
    var tag: TagReference?

    static let fields: [RequestField<Self>] = [
        .init("list", \.list, help: "The list whose items to renumber; the current list when neither it nor scope is given."),
        .init("scope", \.scope, help: "Renumber the order of a list's items under no heading (items, the default), of the lists in no area, of Today, of an item's checklist, of the areas, of an area's lists, of a list's headings, of a heading's items, or of the tags (a tag's children)."),
        .init("item", \.item, help: "The item whose checklist to renumber, with the scope checklist."),
        .init("area", \.area, help: "The area whose lists to renumber, with the scope area."),
        .init("heading", \.heading, help: "The heading whose items to renumber, by title (in list) or id, with the scope heading."),
        .init("tag", \.tag, help: "The tag whose children to renumber, with the scope tags; the tags at the top level without it."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> NormalizeList {
        NormalizeList(try OrderingKind.scope(scope, list: list, item: item, area: area, heading: heading, tag: tag, resolve))
    }
}

struct NormalizeCommand: RequestCommand {
    typealias Form = NormalizeRequest
    static let configuration = CommandConfiguration.request(Form.self)
    @OptionGroup var shared: SharedOptions
    @Option(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference?
    @Option(help: ArgumentHelp(Form.help(\.scope), valueName: "items|lists|today|checklist|areas|area|headings|heading|tags")) var scope: OrderingKind?
    @Option(help: ArgumentHelp(Form.help(\.item), valueName: "item")) var item: ItemReference?
    @Option(help: ArgumentHelp(Form.help(\.area), valueName: "area")) var area: AreaReference?
    @Option(help: ArgumentHelp(Form.help(\.heading), valueName: "heading")) var heading: HeadingReference?
    @Option(help: ArgumentHelp(Form.help(\.tag), valueName: "tag")) var tag: TagReference?

    var request: NormalizeRequest { NormalizeRequest(list: list, scope: scope, item: item, area: area, heading: heading, tag: tag) }

    func text(for result: NormalizeResult, in session: CommandSession) -> String {
        "Renumbered \(TextFormat.name(of: result.scope, list: result.list, startingSentence: false)): \(result.rowsWritten) rows written."
    }
}

struct UndoRequest: Request {
    static let name = "undo"
    static let summary = "Undo the newest change made in this session."

    static let fields: [RequestField<Self>] = []

    func intent(_ resolve: ReferenceResolver) -> Undo { Undo() }
}

struct RedoRequest: Request {
    static let name = "redo"
    static let summary = "Redo the change undone last in this session."

    static let fields: [RequestField<Self>] = []

    func intent(_ resolve: ReferenceResolver) -> Redo { Redo() }
}

/// What undo and redo say about where their history lives.
private let historyDiscussion = "The history lives as long as the session: use it in the REPL or in `arrange run`."

struct UndoCommand: RequestCommand {
    typealias Form = UndoRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: historyDiscussion)
    @OptionGroup var shared: SharedOptions

    var request: UndoRequest { UndoRequest() }

    func text(for result: HistoryResult, in session: CommandSession) -> String {
        "Undid \(TextFormat.quoted(result.action))."
    }
}

struct RedoCommand: RequestCommand {
    typealias Form = RedoRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: historyDiscussion)
    @OptionGroup var shared: SharedOptions

    var request: RedoRequest { RedoRequest() }

    func text(for result: HistoryResult, in session: CommandSession) -> String {
        "Redid \(TextFormat.quoted(result.action))."
    }
}

extension RequestCatalogue {
    /// The requests of the keys and the history, in the order help lists them.
    static let maintenanceRequests: [any Request.Type] = [ValidateRequest.self, NormalizeRequest.self, UndoRequest.self, RedoRequest.self]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let maintenanceCommands: [any ParsableCommand.Type] = [ValidateCommand.self, NormalizeCommand.self, UndoCommand.self, RedoCommand.self]
}
