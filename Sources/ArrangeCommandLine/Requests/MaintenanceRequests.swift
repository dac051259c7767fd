public import ArgumentParser
public import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import Foundation

// Keeping keys in order (`validate`, `normalize`) and going back and forth (`undo`, `redo`).

/// The kinds of ordering `validate` and `normalize` name with `scope`: `items` (a list's, the
/// default), `lists`, `today` or `checklist` (an item's).
extension OrderingKind: ExpressibleByArgument, RequestValue {
    public static var jsonForm: String { #""items", "lists", "today" or "checklist""# }
    public static var placeholder: OrderingKind { .items }

    /// The ordering a request names with `scope`, `list` and `item`: a list's items unless
    /// `scope` says otherwise; an item's checklist names the item.
    ///
    /// - Throws: `invalidField` when a list is named with another scope than a list's items,
    ///   or an item with another scope than a checklist, or a checklist without its item.
    static func scope(_ kind: Self?, list: ListReference?, item: ItemReference?, _ resolve: ReferenceResolver) throws -> OrderScope {
        switch (kind ?? .items, list, item) {
        case (.items, let list, nil): .items(try resolve.list(list).id)
        case (.lists, nil, nil): .lists
        case (.today, nil, nil): .today
        case (.checklist, nil, let item?): .checklist(try resolve.item(item, numberedIn: resolve.numbering(nil)).id)
        case (.checklist, _, nil): throw IntentFailure(code: "missingField", message: "Name the item whose checklist it is, with item.")
        case (_, _?, _): throw IntentFailure(code: "invalidField", message: "Name a list only with the scope of a list's items.")
        case (_, _, _?): throw IntentFailure(code: "invalidField", message: "Name an item only with the scope of a checklist.")
        }
    }
}

struct ValidateRequest: Request {
    static let name = "validate"
    static let summary =
        "Check an order (a list's items, the lists, Today, a checklist) for tied or cramped sort keys, and repair them when asked; the order never changes."
    var list: ListReference?
    var scope: OrderingKind?
    var item: ItemReference?
    var repair: Bool?

    enum CodingKeys: String, CodingKey { case list, scope, item, repair }

    static func help(_ field: CodingKeys) -> String {
        switch field {
        case .list: "The list whose items to check; the current list when neither it nor scope is given."
        case .scope: "Check the order of a list's items (items, the default), of the lists, of Today, or of an item's checklist."
        case .item: "The item whose checklist to check, with the scope checklist."
        case .repair: "Repair what the check finds."
        }
    }

    var readsOnly: Bool { !(repair ?? false) }

    func intent(_ resolve: ReferenceResolver) throws -> ValidateList {
        ValidateList(try OrderingKind.scope(scope, list: list, item: item, resolve), repair: repair ?? false)
    }
}

struct ValidateCommand: RequestCommand {
    typealias Form = ValidateRequest
    static let configuration = CommandConfiguration.request(Form.self)
    @OptionGroup var shared: SharedOptions
    @Option(help: ArgumentHelp(Form.help(.list), valueName: "list")) var list: ListReference?
    @Option(help: ArgumentHelp(Form.help(.scope), valueName: "items|lists|today|checklist")) var scope: OrderingKind?
    @Option(help: ArgumentHelp(Form.help(.item), valueName: "item")) var item: ItemReference?
    @Flag(help: ArgumentHelp(Form.help(.repair))) var repair = false

    var request: ValidateRequest { ValidateRequest(list: list, scope: scope, item: item, repair: repair) }

    func text(for result: ValidationResult, in session: CommandSession) -> String {
        let report = result.report
        let name = TextFormat.name(of: result.scope, list: result.list)
        let entries = switch result.scope {
        case .lists: "lists"
        case .checklist: "entries"
        case .items, .today: "items"
        }
        guard !result.healthy else { return "\(name): \(report.itemCount) \(entries), keys in good order." }
        let found = "\(name): \(report.tiedGroups) group(s) of tied keys (\(report.tiedItems) \(entries)), \(report.crampedGaps) cramped gap(s)"
        let quoted = { (text: String) in "'\(text.replacingOccurrences(of: "'", with: #"'\''"#))'" }
        let options = [scope.map { "--scope \($0.rawValue)" }, list.map { "--list \(quoted($0.text))" }, item.map { "--item \(quoted($0.text))" }].compactMap { $0 }
        let repair = (["validate"] + options + ["--repair"]).joined(separator: " ")
        return report.repaired ? "\(found); repaired, \(report.rowsWritten) rows written." : "\(found). Run `\(repair)` to fix them."
    }
}

struct NormalizeRequest: Request {
    static let name = "normalize"
    static let summary = "Renumber the sort keys of an order (a list's items, the lists, Today, a checklist) evenly; the order never changes."
    var list: ListReference?
    var scope: OrderingKind?
    var item: ItemReference?

    enum CodingKeys: String, CodingKey { case list, scope, item }

    static func help(_ field: CodingKeys) -> String {
        switch field {
        case .list: "The list whose items to renumber; the current list when neither it nor scope is given."
        case .scope: "Renumber the order of a list's items (items, the default), of the lists, of Today, or of an item's checklist."
        case .item: "The item whose checklist to renumber, with the scope checklist."
        }
    }

    func intent(_ resolve: ReferenceResolver) throws -> NormalizeList {
        NormalizeList(try OrderingKind.scope(scope, list: list, item: item, resolve))
    }
}

struct NormalizeCommand: RequestCommand {
    typealias Form = NormalizeRequest
    static let configuration = CommandConfiguration.request(Form.self)
    @OptionGroup var shared: SharedOptions
    @Option(help: ArgumentHelp(Form.help(.list), valueName: "list")) var list: ListReference?
    @Option(help: ArgumentHelp(Form.help(.scope), valueName: "items|lists|today|checklist")) var scope: OrderingKind?
    @Option(help: ArgumentHelp(Form.help(.item), valueName: "item")) var item: ItemReference?

    var request: NormalizeRequest { NormalizeRequest(list: list, scope: scope, item: item) }

    func text(for result: NormalizeResult, in session: CommandSession) -> String {
        "Renumbered \(TextFormat.name(of: result.scope, list: result.list, startingSentence: false)): \(result.rowsWritten) rows written."
    }
}

struct UndoRequest: Request {
    static let name = "undo"
    static let summary = "Undo the newest change made in this session."

    enum CodingKeys: CodingKey {}

    static func help(_ field: CodingKeys) -> String {}

    func intent(_ resolve: ReferenceResolver) -> Undo { Undo() }
}

struct RedoRequest: Request {
    static let name = "redo"
    static let summary = "Redo the change undone last in this session."

    enum CodingKeys: CodingKey {}

    static func help(_ field: CodingKeys) -> String {}

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
