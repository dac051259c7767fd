public import ArrangeModel
import ArrangeStore
public import Foundation

/// Headings were moved to the Trash at a moment, each with the items under it: they keep their keys there,
/// and show only in the Trash. One already in the Trash keeps the moment it went there.
public struct HeadingsTrashed: ChangeKind {
    package static let name: StaticString = "trashHeadings"

    /// The headings.
    public var ids: [Heading.ID]
    /// The moment.
    public var at: Date

    /// The change of these parts.
    public init(ids: [Heading.ID], at: Date) { (self.ids, self.at) = (ids, at) }

    package var change: SyncChange { .trashHeadings(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }, .member("at") { $0.at }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"), at: try members.value("at"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { HeadingsTrashed(ids: $0, at: at) }
    }
}

extension HeadingsTrashed: TrashingChange {
    package typealias Row = Heading
    package typealias PutBack = HeadingsPutBack
}

extension SyncChange {
    /// A change of the kind ``HeadingsTrashed``, of these parts.
    public static func trashHeadings(ids: [Heading.ID], at: Date) -> SyncChange {
        .trashHeadings(HeadingsTrashed(ids: ids, at: at))
    }
}
