public import ArrangeModel
import ArrangeStore

/// Headings were put back from the Trash, each with the items that went there with it:
/// each where its keys kept its place.
public struct HeadingsPutBack: ChangeKind {
    package static let name: StaticString = "restoreHeadings"

    /// The headings.
    public var ids: [Heading.ID]

    /// The change of these parts.
    public init(ids: [Heading.ID]) { self.ids = ids }

    package var change: SyncChange { .restoreHeadings(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { HeadingsPutBack(ids: $0) }
    }
}

extension HeadingsPutBack: PuttingBackChange {
    package typealias Row = Heading
    package typealias Trashing = HeadingsTrashed
}

extension SyncChange {
    /// A change of the kind ``HeadingsPutBack``, of these parts.
    public static func restoreHeadings(ids: [Heading.ID]) -> SyncChange {
        .restoreHeadings(HeadingsPutBack(ids: ids))
    }
}
