public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore
public import Foundation

/// An open list was finished at a moment, completed or canceled (`canceled`), as Things
/// finishes a project: it leaves the sidebar for the Logbook, and keeps its key among the lists.
/// Its items are left as they are: the intent closes those it closes with changes of their own.
public struct ListFinished: ChangeKind {
    package static let name: StaticString = "finishList"

    /// The list.
    public var id: ItemList.ID
    /// The moment.
    public var at: Date
    /// Whether the list was canceled rather than completed.
    public var canceled: Bool

    /// The change of these parts.
    public init(id: ItemList.ID, at: Date, canceled: Bool) { (self.id, self.at, self.canceled) = (id, at, canceled) }

    package var change: SyncChange { .finishList(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }, .member("at") { $0.at }, .member("canceled") { $0.canceled }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), at: try members.value("at"), canceled: try members.value("canceled"))
    }

    package func apply(in context: ChangeContext) throws {
        // A list finished meanwhile on another device keeps the finish it has.
        guard var list = try context.transaction.list(id: id), !list.isFinished else { return }
        (list.completedAt, list.isCanceled) = (at, canceled)
        try context.transaction.apply(.update(.list(list)))
    }
}

extension ListFinished: ReversibleChange, FieldChange {
    /// Reopening the list, when it is open.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        guard let list = try store.list(id: id), !list.isFinished else { return [] }
        return [ListReopened(id: id)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        guard let list = try store.list(id: id) else { return .listGone(id) }
        return list.isCanceled == canceled && Self.isSameMoment(list.completedAt, at) ? nil : .listEditedSince(list)
    }

    /// A finish at a new moment, or as the other status; a reopening, before it in the
    /// registry, reopens first.
    package static func changes(from old: ItemList?, to list: ItemList) -> [Self] {
        guard let done = list.completedAt, old?.isCanceled != list.isCanceled || !isSameMoment(old?.completedAt, done) else { return [] }
        return [ListFinished(id: list.id, at: done, canceled: list.isCanceled)]
    }
}

extension SyncChange {
    /// A change of the kind ``ListFinished``, of these parts.
    public static func finishList(id: ItemList.ID, at: Date, canceled: Bool) -> SyncChange {
        .finishList(ListFinished(id: id, at: at, canceled: canceled))
    }
}
