public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// A finished list was reopened: it is back in the sidebar, in the place its key keeps.
public struct ListReopened: ChangeKind {
    package static let name: StaticString = "reopenList"

    /// The list.
    public var id: ItemList.ID

    /// The change of these parts.
    public init(id: ItemList.ID) { self.id = id }

    package var change: SyncChange { .reopenList(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"))
    }

    package func apply(in context: ChangeContext) throws {
        guard var list = try context.transaction.list(id: id), list.isFinished else { return }
        (list.completedAt, list.isCanceled) = (nil, false)
        try context.transaction.apply(.update(.list(list)))
    }
}

extension ListReopened: ReversibleChange, FieldChange {
    /// Finishing the list again as it was, when it is finished.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        guard let list = try store.list(id: id), let done = list.completedAt else { return [] }
        return [ListFinished(id: id, at: done, canceled: list.isCanceled)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        guard let list = try store.list(id: id) else { return .listGone(id) }
        return list.isFinished ? .listEditedSince(list) : nil
    }

    /// A reopening, also of a list finished again at another moment or as the other status.
    package static func changes(from old: ItemList?, to list: ItemList) -> [Self] {
        guard let old, let done = old.completedAt, !isSameMoment(done, list.completedAt) || old.isCanceled != list.isCanceled else { return [] }
        return [ListReopened(id: list.id)]
    }
}

extension SyncChange {
    /// A change of the kind ``ListReopened``, of these parts.
    public static func reopenList(id: ItemList.ID) -> SyncChange {
        .reopenList(ListReopened(id: id))
    }
}
