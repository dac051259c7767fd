public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// Items got the person's own mark in Today (`mark`), added or taken out on a day, or lost it
/// (`nil`): how a member puts an item of a shared list in their Today, or takes it out, with no
/// change to its dates, which are every member's.
public struct TodayMarksSet: ChangeKind {
    package static let name: StaticString = "markToday"
    /// Today is personal: each person's own.
    package static let isPersonal = true

    /// The items.
    public var ids: [Item.ID]
    /// Their mark; `nil` for none.
    public var mark: TodayMark?

    /// The change of these parts.
    public init(ids: [Item.ID], mark: TodayMark?) { (self.ids, self.mark) = (ids, mark) }

    package var change: SyncChange { .markToday(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }, .member("mark") { $0.mark }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"), mark: try members.value("mark"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { TodayMarksSet(ids: $0, mark: mark) }
    }

    package func apply(in context: ChangeContext) throws {
        try context.setItems(ids, \.todayMark, to: mark)
    }
}

extension TodayMarksSet: ReversibleChange, FieldChange {
    /// The old marks back, none included.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        Self.grouped(try existingItems(ids, in: store).filter { $0.todayMark != mark }, by: { .some($0.todayMark) }) {
            TodayMarksSet(ids: $0, mark: $1)
        }
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try itemConflict(ids, in: store, field: .when) { $0.todayMark == mark }
    }

    package static func changes(from old: Item?, to item: Item) -> [Self] {
        old?.todayMark == item.todayMark ? [] : [TodayMarksSet(ids: [item.id], mark: item.todayMark)]
    }
}

extension TodayMark: LogValue {
    /// Writes the mark as its `Codable` form does, keys sorted.
    package func write(to json: LogJSON) {
        json.object { members in
            switch self {
            case .added(let day, let evening):
                members.member("added") { $0.day(day) }
                if evening { members.member("evening") { $0.bool(true) } }
            case .removed(let day):
                members.member("removed") { $0.day(day) }
            }
        }
    }

    package static func read(from json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> Self {
        var added: Day?, evening = false, removed: Day?
        try json.members(["added", "evening", "removed"]) { json, member throws(OperationJSONReader.GiveUp) in
            switch member {
            case 0: added = try json.day()
            case 1: evening = try json.boolean()
            default: removed = try json.day()
            }
        }
        if let added { return .added(added, evening: evening) }
        return .removed(try json.required(removed))
    }

    package var sizeBound: Int { 64 }
}

extension SyncChange {
    /// A change of the kind ``TodayMarksSet``, of these parts.
    public static func markToday(ids: [Item.ID], mark: TodayMark?) -> SyncChange {
        .markToday(TodayMarksSet(ids: ids, mark: mark))
    }
}
