public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// The keys of a tag's children, or of the tags at the top level (`parent` `nil`), were
/// repaired or spread evenly: a kind of its own, as ``AreasRepaired`` is, so that a version
/// without tags keeps it as a change of a newer version.
public struct TagsRepaired: ChangeKind {
    package static let name: StaticString = "repairTags"
    /// Tags are personal.
    package static let isPersonal = true

    /// The tag whose children were repaired; `nil` for the tags at the top level.
    public var parent: Tag.ID?
    /// Whether the keys were spread evenly, not only repaired.
    public var normalize: Bool

    /// The change of these parts.
    public init(parent: Tag.ID?, normalize: Bool) { (self.parent, self.normalize) = (parent, normalize) }

    package var change: SyncChange { .repairTags(self) }

    package static let members: ChangeMembers<Self> = [.member("parent") { $0.parent }, .member("normalize") { $0.normalize }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(parent: try members.value("parent"), normalize: try members.value("normalize"))
    }

    package func apply(in context: ChangeContext) throws {
        try context.repair(.tags(parent), normalize: normalize)
    }
}

extension SyncChange {
    /// A change of the kind ``TagsRepaired``, of these parts.
    public static func repairTags(parent: Tag.ID?, normalize: Bool) -> SyncChange {
        .repairTags(TagsRepaired(parent: parent, normalize: normalize))
    }
}
