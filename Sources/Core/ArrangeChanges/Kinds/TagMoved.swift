public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// A tag moved to a place among the children of a tag, its own parent or another, or among
/// the tags at the top level (`parent` `nil`), with its children.
///
/// Two devices can each make a valid move that forms a cycle once merged: one puts A under B,
/// the other B under A. Replayed in sync's total order, a move that would put a tag under
/// itself or one of its own descendants does nothing.
public struct TagMoved: ChangeKind {
    package static let name: StaticString = "moveTag"

    /// The tag.
    public var id: Tag.ID
    /// The tag it goes under; `nil` for the top level.
    public var parent: Tag.ID?
    /// Where it went among its new siblings.
    public var place: SyncPlace

    /// The change of these parts.
    public init(id: Tag.ID, parent: Tag.ID?, place: SyncPlace) { (self.id, self.parent, self.place) = (id, parent, place) }

    package var change: SyncChange { .moveTag(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }, .member("parent") { $0.parent }, .member("place") { $0.place }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), parent: try members.value("parent"), place: try members.value("place"))
    }

    package func apply(in context: ChangeContext) throws {
        // Ids merged into another tag name that tag.
        guard let tag = try context.transaction.tag(id: id) else { return }
        var newParent: Tag.ID?
        // A parent gone meanwhile leaves the tag where it is; one under the tag would make a cycle.
        if let parent {
            guard let parent = try context.transaction.tag(id: parent)?.id, try !Self.isTag(parent, under: tag.id, in: context.transaction) else { return }
            newParent = parent
        }
        try context.place([tag.id.entryID], at: place, in: .tags(newParent))
    }

    /// Whether `tag` is `ancestor` itself or one of its descendants.
    package static func isTag(_ tag: Tag.ID, under ancestor: Tag.ID, in store: any ItemReading) throws -> Bool {
        var current: Tag.ID? = tag
        var seen = Set<Tag.ID>()
        while let id = current, seen.insert(id).inserted {
            if id == ancestor { return true }
            current = try store.tag(id: id)?.parent
        }
        return false
    }
}

extension SyncChange {
    /// A change of the kind ``TagMoved``, of these parts.
    public static func moveTag(id: Tag.ID, parent: Tag.ID?, place: SyncPlace) -> SyncChange {
        .moveTag(TagMoved(id: id, parent: parent, place: place))
    }
}
