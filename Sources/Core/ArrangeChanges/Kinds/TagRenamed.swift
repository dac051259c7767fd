public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// A tag was renamed.
public struct TagRenamed: ChangeKind {
    package static let name: StaticString = "renameTag"

    /// The tag.
    public var id: Tag.ID
    /// Its new name; a number is added where another tag has it.
    public var name: String

    /// The change of these parts.
    public init(id: Tag.ID, name: String) { (self.id, self.name) = (id, name) }

    package var change: SyncChange { .renameTag(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }, .member("name") { $0.name }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), name: try members.value("name"))
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: name, as: .tagName)
    }
}

extension TagRenamed: RowTextChange {
    package typealias Row = Tag
    package var text: String { name }
    package init(_ id: Tag.ID, text: String) { self.init(id: id, name: text) }
    package static var field: WritableKeyPath<Row, String> { \.name }
    package static func row(_ id: Tag.ID, in store: any ItemReading) throws -> Tag? { try store.tag(id: id) }
    package static func stored(_ row: Tag) -> StoreRow { .tag(row) }
    package func storable(in context: ChangeContext) throws -> String {
        context.freeName(ChangeContext.storable(title: name), among: try context.transaction.tags().filter { $0.id != id })
    }
    package func conflict(in store: any ItemReading) throws -> ChangeConflict? { try store.tag(id: id) == nil ? .tagGone(id) : nil }
}

extension SyncChange {
    /// A change of the kind ``TagRenamed``, of these parts.
    public static func renameTag(id: Tag.ID, name: String) -> SyncChange {
        .renameTag(TagRenamed(id: id, name: name))
    }
}
