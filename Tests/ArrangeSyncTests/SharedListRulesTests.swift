import ArrangeArchive
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
@testable import ArrangeSync
import Foundation
import Testing

/// Arrange's tag, not Swift Testing's.
private typealias Tag = ArrangeModel.Tag

/// What a device refuses to do to lists shared with other people, before it is done: moves
/// across the share line (`crossesShare`), and changes to a list the user only views
/// (`viewOnlyList`), but for what stays each person's own.
@Suite("Intents: the rules of shared lists on a device")
struct SharedListRulesTests {
    /// A syncing environment with a list of the user's own, a list shared to edit and a list
    /// shared to view, each with one item.
    private struct Fixture {
        let environment: IntentEnvironment
        let repository: any ItemRepository
        let own: ItemList.ID, edited: ItemList.ID, viewed: ItemList.ID
        let ownItem: Item.ID, editedItem: Item.ID, viewedItem: Item.ID
        /// A second item of the viewed list, and a second list shared to edit.
        let viewedSecond: Item.ID, party: ItemList.ID

        init(_ kind: StoreKind) async throws {
            let repository = try kind.makeRepository()
            let environment = try IntentEnvironment(repository: repository, historyLimit: 20, sync: SyncEngine(repository: repository))
            func list(_ name: String) async throws -> (ItemList.ID, Item.ID) {
                let list = try await CreateList(name: name).perform(in: environment).list.id
                return (list, try #require(try await AddItem(title: "\(name) item", list: list).perform(in: environment).items.first?.id))
            }
            (self.repository, self.environment) = (repository, environment)
            let (own, ownItem) = try await list("Own")
            let (edited, editedItem) = try await list("Groceries")
            let (viewed, viewedItem) = try await list("Garden")
            let viewedSecond = try #require(try await AddItem(title: "Hose", list: viewed).perform(in: environment).items.first?.id)
            // The garden's first item starts on a day, on which a reminder can fire.
            _ = try await SetWhen([viewedItem], to: .on(try Day(parsing: "2026-12-20"))).perform(in: environment)
            let party = try await CreateList(name: "Party").perform(in: environment).list.id
            (self.viewedSecond, self.party) = (viewedSecond, party)
            (self.own, self.ownItem, self.edited, self.editedItem, self.viewed, self.viewedItem) = (own, ownItem, edited, editedItem, viewed, viewedItem)
            try await repository.write { transaction in
                try transaction.apply(.setListShare(ListShare(list: edited, role: .edit, owner: "alice", isOwned: false), of: edited))
                try transaction.apply(.setListShare(ListShare(list: viewed, role: .view, owner: "bob", isOwned: false), of: viewed))
                try transaction.apply(.setListShare(ListShare(list: party, role: .edit, owner: "carol", isOwned: false), of: party))
            }
        }

        /// What the store holds, to check that a refusal changed nothing.
        func state() async throws -> [String] {
            try await repository.read { transaction in
                try transaction.lists().map { list in
                    let items = try transaction.items(in: list.id, visibility: .all, offset: 0, limit: .max)
                    return "\(list.name) \(list.sortIndex) \(list.when): " + items.map { "\($0.title) \($0.sortIndex) \($0.when) \($0.todayIndex.map(String.init) ?? "-")" }.joined(separator: ", ")
                }
            }
        }

        /// Runs `intent`, and expects `error`, with the store unchanged.
        func expectRefusal(_ intent: some ArrangeIntent, _ error: IntentError, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let before = try await state()
            await #expect(throws: error, sourceLocation: sourceLocation) { _ = try await intent.perform(in: environment) }
            #expect(try await state() == before, "a refusal changes nothing", sourceLocation: sourceLocation)
        }
    }

    @Test("Only a shared list's owner deletes it; a member is told to leave it", arguments: StoreKind.allCases)
    func deletion(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        try await fixture.expectRefusal(DeleteList(list: fixture.edited), .sharedListOfAnother("Groceries", owner: "alice"))
        try await fixture.repository.write { transaction in
            try transaction.apply(.setListShare(ListShare(list: fixture.party, role: .edit, owner: "me", isOwned: true), of: fixture.party))
        }
        _ = try await DeleteList(list: fixture.party).perform(in: fixture.environment)
        #expect(try await fixture.repository.read { try $0.list(id: fixture.party)?.trashedAt } != nil, "the owner deletes it")
    }

    @Test("Today is each person's: an item of a shared list goes in and out by the person's mark, its dates untouched; one of the user's own by its dates, giving up a mark", arguments: StoreKind.allCases)
    func todayOfOnesOwn(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let today = Day(Date(), in: .current)
        func item(_ id: Item.ID) async throws -> Item { try #require(try await fixture.repository.read { try $0.item(id: id) }) }
        func shown() async throws -> [Item.ID] { try await ShowToday().perform(in: fixture.environment).items.map(\.id) }
        let shared = fixture.editedItem

        _ = try await AddToToday([shared]).perform(in: fixture.environment)
        #expect(try await item(shared).when == .anytime)
        #expect(try await item(shared).todayMark == .added(today))
        #expect(try await shown() == [shared])
        _ = try await Undo().perform(in: fixture.environment)
        #expect(try await item(shared).todayMark == nil, "undo takes the mark back")
        #expect(try await shown().isEmpty)

        // Started yesterday, for every member: taken out of this person's Today, it keeps its date.
        let yesterday = today.adding(days: -1)
        _ = try await SetWhen([shared], to: .on(yesterday)).perform(in: fixture.environment)
        #expect(try await shown() == [shared])
        _ = try await RemoveFromToday([shared]).perform(in: fixture.environment)
        #expect(try await item(shared).when == .on(yesterday))
        #expect(try await item(shared).todayMark == .removed(today))
        #expect(try await shown().isEmpty)
        _ = try await AddToToday([shared]).perform(in: fixture.environment)
        #expect(try await item(shared).when == .on(yesterday))
        #expect(try await shown() == [shared])

        // An item of the user's own with a mark, as a list kept from a share, or an archive,
        // holds: its dates take over.
        var archive = try await ExportArchive(list: fixture.own).perform(in: fixture.environment)
        archive.lists[0].items[0].todayMark = .added(yesterday)
        _ = try await ImportArchive(archive).perform(in: fixture.environment)
        #expect(try await shown().contains(fixture.ownItem))
        _ = try await AddToToday([fixture.ownItem]).perform(in: fixture.environment)
        let started = try await item(fixture.ownItem)
        #expect(started.when == .on(yesterday) && started.todayMark == nil)
        _ = try await RemoveFromToday([fixture.ownItem]).perform(in: fixture.environment)
        let removed = try await item(fixture.ownItem)
        #expect(removed.when == .anytime && removed.todayMark == nil)
        #expect(try await !shown().contains(fixture.ownItem))
    }

    @Test("Items and headings never move between a shared list and another", arguments: StoreKind.allCases)
    func crossesShare(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        try await fixture.expectRefusal(
            MoveItems([fixture.ownItem], to: .bottom, into: fixture.edited), .crossesShare("Own item", from: "Own", to: "Groceries"))
        try await fixture.expectRefusal(
            MoveItems([fixture.editedItem], to: .top, into: fixture.own), .crossesShare("Groceries item", from: "Groceries", to: "Own"))
        try await fixture.expectRefusal(
            MoveItems([fixture.editedItem], to: .bottom, into: fixture.party), .crossesShare("Groceries item", from: "Groceries", to: "Party"))
        let heading = try await CreateHeading(title: "Dairy", in: fixture.edited).perform(in: fixture.environment).heading.id
        try await fixture.expectRefusal(MoveHeading(heading, to: .bottom, in: fixture.own), .crossesShare("Dairy", from: "Groceries", to: "Own"))

        // Within a shared list, and within the user's own lists, moves go on.
        let second = try #require(try await AddItem(title: "Eggs", list: fixture.edited).perform(in: fixture.environment).items.first?.id)
        _ = try await MoveItems([second], to: .top, into: fixture.edited).perform(in: fixture.environment)
        let other = try await CreateList(name: "Other").perform(in: fixture.environment).list.id
        _ = try await MoveItems([fixture.ownItem], to: .top, into: other).perform(in: fixture.environment)
        #expect(try await fixture.repository.read { try $0.item(id: fixture.ownItem)?.listID } == other)
    }

    @Test("A list shared to view changes in nothing every member sees; reminders, tags and the sidebar stay the user's", arguments: StoreKind.allCases)
    func viewOnly(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let refused = IntentError.viewOnlyList("Garden", owner: "bob")
        let day = try Day(parsing: "2026-12-24")
        try await fixture.expectRefusal(AddItem(title: "Seeds", list: fixture.viewed), refused)
        try await fixture.expectRefusal(EditItem(fixture.viewedItem, title: "Weeds"), refused)
        try await fixture.expectRefusal(CompleteItems([fixture.viewedItem]), refused)
        try await fixture.expectRefusal(DeleteItems([fixture.viewedItem]), refused)
        try await fixture.expectRefusal(SetWhen([fixture.viewedItem], to: .on(day)), refused)
        try await fixture.expectRefusal(RenameList(list: fixture.viewed, name: "Yard"), refused)
        try await fixture.expectRefusal(SetListNotes(list: fixture.viewed, notes: "Water daily"), refused)
        try await fixture.expectRefusal(AddChecklistItem(title: "Rake", to: fixture.viewedItem), refused)
        try await fixture.expectRefusal(CreateHeading(title: "Beds", in: fixture.viewed), refused)
        try await fixture.expectRefusal(DeleteList(list: fixture.viewed), .sharedListOfAnother("Garden", owner: "bob"))
        try await fixture.expectRefusal(MoveItems([fixture.viewedSecond], to: .top, into: fixture.viewed), refused)

        // What stays the user's own: Today, by a mark of the user's that changes no date.
        _ = try await AddToToday([fixture.viewedItem]).perform(in: fixture.environment)
        #expect(try await fixture.repository.read { try $0.item(id: fixture.viewedItem) }?.when == .on(try Day(parsing: "2026-12-20")), "its date stays every member's")
        #expect(try await ShowToday().perform(in: fixture.environment).items.map(\.id) == [fixture.viewedItem])
        _ = try await RemoveFromToday([fixture.viewedItem]).perform(in: fixture.environment)
        #expect(try await ShowToday().perform(in: fixture.environment).items.isEmpty)
        _ = try await SetReminder([fixture.viewedItem], at: try TimeOfDay(hour: 8, minute: 0)).perform(in: fixture.environment)
        let tag = try await CreateTag(name: "Weekend").perform(in: fixture.environment).tag.id
        _ = try await AddTags([tag], to: .items([fixture.viewedItem])).perform(in: fixture.environment)
        _ = try await MoveList(fixture.viewed, to: .top).perform(in: fixture.environment)
        let item = try #require(try await fixture.repository.read { try $0.item(id: fixture.viewedItem) })
        #expect(item.tags == [tag] && item.reminder != nil)

        // A list shared to edit takes every change.
        _ = try await EditItem(fixture.editedItem, title: "Oat milk").perform(in: fixture.environment)
        _ = try await RenameList(list: fixture.edited, name: "Shopping").perform(in: fixture.environment)
    }
}
