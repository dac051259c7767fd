public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// An area was renamed.
public struct AreaRenamed: ChangeKind {
    package static let name: StaticString = "renameArea"

    /// The area.
    public var id: Area.ID
    /// Its new name; a number is added where another area has it.
    public var name: String

    /// The change of these parts.
    public init(id: Area.ID, name: String) { (self.id, self.name) = (id, name) }

    package var change: SyncChange { .renameArea(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }, .member("name") { $0.name }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), name: try members.value("name"))
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: name, as: .areaName)
    }

    package func apply(in context: ChangeContext) throws {
        guard var area = try context.transaction.area(id: id) else { return }
        area.name = context.freeName(ChangeContext.storable(title: name), among: try context.transaction.areas().filter { $0.id != id })
        try context.transaction.update(area)
    }
}

extension AreaRenamed: ReversibleChange, FieldChange {
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        guard let area = try store.area(id: id), area.name != name else { return [] }
        return [AreaRenamed(id: id, name: area.name)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try store.area(id: id) == nil ? .areaGone(id) : nil
    }

    package static func changes(from old: Area?, to area: Area) -> [Self] {
        guard let old, old.name != area.name else { return [] }
        return [AreaRenamed(id: area.id, name: area.name)]
    }
}

extension SyncChange {
    /// A change of the kind ``AreaRenamed``, of these parts.
    public static func renameArea(id: Area.ID, name: String) -> SyncChange {
        .renameArea(AreaRenamed(id: id, name: name))
    }
}
