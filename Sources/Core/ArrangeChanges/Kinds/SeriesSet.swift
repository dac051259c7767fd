public import ArrangeModel
package import ArrangeStore

/// Items became to-dos of a repeating series, or stopped being any (`series` `nil`, absent
/// from the JSON).
public struct SeriesSet: ChangeKind {
    package static let name: StaticString = "setSeries"

    /// The items.
    public var ids: [Item.ID]
    /// The series; `nil` for none.
    public var series: Series.ID?

    /// The change of these parts.
    public init(ids: [Item.ID], series: Series.ID?) { (self.ids, self.series) = (ids, series) }

    package var change: SyncChange { .setSeries(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }, .member("series") { $0.series }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"), series: try members.value("series"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { SeriesSet(ids: $0, series: series) }
    }

    package func apply(in context: ChangeContext) throws {
        try context.setItems(ids, \.series, to: series)
    }
}

extension SeriesSet: ReversibleChange, FieldChange {
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        Self.grouped(try existingItems(ids, in: store).filter { $0.series != series }, by: { .some($0.series) }) { SeriesSet(ids: $0, series: $1) }
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        for id in ids.sorted() where try store.item(id: id) == nil { return .itemGone(id) }
        return nil
    }

    package static func changes(from old: Item?, to item: Item) -> [Self] {
        (old?.series ?? nil) == item.series ? [] : [SeriesSet(ids: [item.id], series: item.series)]
    }
}

extension SyncChange {
    /// A change of the kind ``SeriesSet``, of these parts.
    public static func setSeries(ids: [Item.ID], series: Series.ID?) -> SyncChange {
        .setSeries(SeriesSet(ids: ids, series: series))
    }
}
