import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering

// Keeping keys in order (`validate`, `normalize`) and going back and forth (`undo`, `redo`).

enum ValidateRequest: RequestForm {
    static let name = "validate"
    static let summary = "Check a list for tied or cramped sort keys, and repair them when asked; the order never changes."
    static let list = Parameter<ListReference>("list", help: "The list to check; the current list when not given.")
    static let repair = Parameter<Bool>("repair", help: "Repair what the check finds.")
    static let parameters: [any AnyParameter] = [list, repair]

    static func readsOnly(_ fields: RequestFields) -> Bool { !(fields[repair] ?? false) }

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> ValidateList {
        ValidateList(list: try resolve.list(fields[list]).id, repair: fields[repair] ?? false)
    }
}

struct ValidateCommand: RequestCommand {
    typealias Form = ValidateRequest
    static let configuration = CommandConfiguration.request(Form.self)
    @OptionGroup var shared: SharedOptions
    @Option(help: ArgumentHelp(Form.list, valueName: "list")) var list: ListReference?
    @Flag(help: ArgumentHelp(Form.repair)) var repair = false

    var fields: RequestFields { RequestFields().with(Form.list, list).with(Form.repair, repair) }

    func text(for result: ValidationResult, in session: CommandSession) -> String {
        let report = result.report
        let name = TextFormat.name(of: result.scope, list: result.list)
        let entries = result.scope == .lists ? "lists" : "items"
        guard !result.healthy else { return "\(name): \(report.itemCount) \(entries), keys in good order." }
        let found = "\(name): \(report.tiedGroups) group(s) of tied keys (\(report.tiedItems) \(entries)), \(report.crampedGaps) cramped gap(s)"
        return report.repaired ? "\(found); repaired, \(report.rowsWritten) rows written." : "\(found). Run `validate --repair` to fix them."
    }
}

enum NormalizeRequest: RequestForm {
    static let name = "normalize"
    static let summary = "Renumber a list's sort keys evenly; the order never changes."
    static let list = Parameter<ListReference>("list", help: "The list to renumber; the current list when not given.")
    static let parameters: [any AnyParameter] = [list]

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> NormalizeList {
        NormalizeList(list: try resolve.list(fields[list]).id)
    }
}

struct NormalizeCommand: RequestCommand {
    typealias Form = NormalizeRequest
    static let configuration = CommandConfiguration.request(Form.self)
    @OptionGroup var shared: SharedOptions
    @Option(help: ArgumentHelp(Form.list, valueName: "list")) var list: ListReference?

    var fields: RequestFields { RequestFields().with(Form.list, list) }

    func text(for result: NormalizeResult, in session: CommandSession) -> String {
        "Renumbered \(TextFormat.name(of: result.scope, list: result.list)): \(result.rowsWritten) rows written."
    }
}

enum UndoRequest: RequestForm {
    static let name = "undo"
    static let summary = "Undo the newest change made in this session."
    static let parameters: [any AnyParameter] = []

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) -> Undo { Undo() }
}

enum RedoRequest: RequestForm {
    static let name = "redo"
    static let summary = "Redo the change undone last in this session."
    static let parameters: [any AnyParameter] = []

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) -> Redo { Redo() }
}

/// What undo and redo say about where their history lives.
private let historyDiscussion = "The history lives as long as the session: use it in the REPL or in `arrange run`."

struct UndoCommand: RequestCommand {
    typealias Form = UndoRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: historyDiscussion)
    @OptionGroup var shared: SharedOptions

    var fields: RequestFields { RequestFields() }

    func text(for result: HistoryResult, in session: CommandSession) -> String {
        "Undid \(TextFormat.quoted(result.action))."
    }
}

struct RedoCommand: RequestCommand {
    typealias Form = RedoRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: historyDiscussion)
    @OptionGroup var shared: SharedOptions

    var fields: RequestFields { RequestFields() }

    func text(for result: HistoryResult, in session: CommandSession) -> String {
        "Redid \(TextFormat.quoted(result.action))."
    }
}
