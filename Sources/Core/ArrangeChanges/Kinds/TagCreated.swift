public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// A tag was created at a place among the children of a tag, or at the top level (`parent` `nil`).
///
/// Tag names are unique, ignoring case. Two devices can each create a tag of the same name
/// apart; replayed in sync's total order, the later creation finds the earlier tag and merges
/// into it (`RowChange.mergeTag(_:into:)`): its id names the earlier tag from then on, so
/// every change naming it, on any replica, applies to the tag that survives, which keeps its
/// name, parent, place and shortcut.
public struct TagCreated: ChangeKind {
    package static let name: StaticString = "createTag"

    /// The new tag.
    public var id: Tag.ID
    /// Its name; where another tag has it, the tag merges into that one.
    public var name: String
    /// The tag it goes under; `nil` for the top level, and where that tag is gone.
    public var parent: Tag.ID?
    /// Where it went among its siblings.
    public var place: SyncPlace

    /// The change of these parts.
    public init(id: Tag.ID, name: String, parent: Tag.ID?, place: SyncPlace) { (self.id, self.name, self.parent, self.place) = (id, name, parent, place) }

    package var change: SyncChange { .createTag(self) }

    package static let members: ChangeMembers<Self> = [
        .member("id") { $0.id }, .member("name") { $0.name }, .member("parent") { $0.parent }, .member("place") { $0.place },
    ]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), name: try members.value("name"), parent: try members.value("parent"), place: try members.value("place"))
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: name, as: .tagName)
    }

    package func apply(in context: ChangeContext) throws {
        guard try context.transaction.tag(id: id) == nil else { return }
        let name = ChangeContext.storable(title: name)
        if let namesake = try context.transaction.tags().first(where: { Tag.nameKey($0.name) == Tag.nameKey(name) }) {
            try context.transaction.mergeTag(id, into: namesake.id)
            return
        }
        let parent = try parent.flatMap { try context.transaction.tag(id: $0)?.id }
        let tag = Tag(id: id, name: name, parent: parent, createdAt: context.stamp)
        try context.ordering.add(tag, at: try context.placement(place, in: tag.scope).map { Tag.ID(entry: $0) }, in: context.transaction)
    }
}

extension TagCreated: RowCreation {
    /// Deleting it, with the children given it since.
    package var deletion: any ReversibleChange { SyncChange.deletion(ofTag: id) }
    package func deletionConflict(in store: any ItemReading) throws -> ChangeConflict? { try store.tag(id: id) == nil ? .tagGone(id) : nil }
}

extension SyncChange {
    /// A change of the kind ``TagCreated``, of these parts.
    public static func createTag(id: Tag.ID, name: String, parent: Tag.ID?, place: SyncPlace) -> SyncChange {
        .createTag(TagCreated(id: id, name: name, parent: parent, place: place))
    }
}
