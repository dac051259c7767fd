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
}

extension AreaRenamed: RowTextChange {
    package typealias Row = Area
    package var text: String { name }
    package init(_ id: Area.ID, text: String) { self.init(id: id, name: text) }
    package static var field: WritableKeyPath<Row, String> { \.name }
    package static func row(_ id: Area.ID, in store: any ItemReading) throws -> Area? { try store.area(id: id) }
    package static func stored(_ row: Area) -> StoreRow { .area(row) }
    package func storable(in context: ChangeContext) throws -> String {
        context.freeName(ChangeContext.storable(title: name), among: try context.transaction.areas().filter { $0.id != id })
    }
    package func conflict(in store: any ItemReading) throws -> ChangeConflict? { try store.area(id: id) == nil ? .areaGone(id) : nil }
}

extension SyncChange {
    /// A change of the kind ``AreaRenamed``, of these parts.
    public static func renameArea(id: Area.ID, name: String) -> SyncChange {
        .renameArea(AreaRenamed(id: id, name: name))
    }
}
