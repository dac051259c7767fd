import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation
import Testing

/// The edits that intents make by applying a kind of change, and undo takes back by applying
/// its inverse: every field comes back as it was, and a field changed elsewhere since stops it.
@Suite("Undo by inverses")
struct InverseTests {
    /// One edit: what it does, what another client does to the same thing meanwhile, and the
    /// conflict that undo then reports.
    struct Edit: CustomTestStringConvertible, Sendable {
        let name: String
        let make: @Sendable (Session, Item.ID) async throws -> Void
        let elsewhere: @Sendable (inout Item) -> Void
        let conflict: @Sendable (Item) -> HistoryConflict

        var testDescription: String { name }
    }

    static let day = Day(Date(timeIntervalSince1970: 1_796_083_200), in: .gmt)

    static let edits: [Edit] = [
        Edit(
            name: "Rename Item", make: { try await $0.run(RenameItem(item: $1, title: "Bee")) }, elsewhere: { $0.title = "Bea" },
            conflict: { .editedSince(.title, item: $0.id, title: $0.title) }),
        Edit(
            name: "Edit Item", make: { try await $0.run(EditItem($1, notes: "Buy two")) }, elsewhere: { $0.notes = "Buy three" },
            conflict: { .editedSince(.notes, item: $0.id, title: $0.title) }),
        Edit(
            name: "Complete Items", make: { try await $0.run(CompleteItems([$1])) }, elsewhere: { $0.completedAt = nil },
            conflict: { .editedSince(.completion, item: $0.id, title: $0.title) }),
        Edit(
            name: "Cancel Items", make: { try await $0.run(CancelItems([$1])) }, elsewhere: { ($0.completedAt, $0.isCanceled) = (nil, false) },
            conflict: { .editedSince(.completion, item: $0.id, title: $0.title) }),
        Edit(
            name: "Set When", make: { try await $0.run(SetWhen([$1], to: .someday)) }, elsewhere: { $0.when = .anytime },
            conflict: { .editedSince(.when, item: $0.id, title: $0.title) }),
        Edit(
            name: "Set Deadline", make: { try await $0.run(SetDeadline([$1], to: day.adding(days: 7))) }, elsewhere: { $0.deadline = day },
            conflict: { .editedSince(.deadline, item: $0.id, title: $0.title) }),
    ]

    @Test("Undo gives back every field the edit changed, a dismissed deadline too, and redo makes it again", arguments: edits)
    func takenBack(_ edit: Edit) async throws {
        let session = try await Session()
        let item = try await session.add("B")[0].id
        // As it might be before the edit: a deadline that the person dismissed from Today.
        try await session.repository.write { transaction in
            guard var row = try transaction.item(id: item) else { return }
            (row.deadline, row.deadlineDismissed, row.when) = (Self.day, true, .on(Self.day, evening: true))
            try transaction.update(row)
        }
        let before = try #require(try await session.repository.read { try $0.item(id: item) })
        try await edit.make(session, item)
        let after = try #require(try await session.repository.read { try $0.item(id: item) })
        #expect(after != before, "the edit changed nothing")

        try await session.run(Undo())
        let undone = try #require(try await session.repository.read { try $0.item(id: item) })
        #expect(undone.fields == before.fields)

        try await session.run(Redo())
        let redone = try #require(try await session.repository.read { try $0.item(id: item) })
        #expect(redone.fields == after.fields)
    }

    @Test("An undo over a field another client changed since is refused, and writes nothing", arguments: edits)
    func conflict(_ edit: Edit) async throws {
        let session = try await Session()
        let item = try await session.add("B")[0].id
        try await edit.make(session, item)
        let changed = try await session.repository.write { transaction in
            var row = try #require(try transaction.item(id: item))
            edit.elsewhere(&row)
            try transaction.update(row)
            return row
        }
        await #expect(throws: IntentError.historyConflict(action: edit.name, reason: edit.conflict(changed))) { try await session.run(Undo()) }
        #expect(try await session.repository.read { try $0.item(id: item) } == changed)
    }

    @Test("An undo of a rename whose list, area or heading is gone is refused")
    func renamedThingGone() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        let work = try await session.run(GetLists()).lists[1].id
        let heading = try await session.run(CreateHeading(title: "Soon", in: work)).heading.id
        try await session.run(RenameHeading(heading: heading, title: "Later"))
        try await session.repository.write { try $0.deleteHeading(id: heading) }
        await #expect(throws: IntentError.historyConflict(action: "Rename Heading", reason: .headingGone(heading))) { try await session.run(Undo()) }

        let other = try await Session(lists: ["Inbox", "Work"])
        let list = try await other.run(GetLists()).lists[1].id
        try await other.run(RenameList(list: list, name: "Job"))
        try await other.repository.write { try $0.deleteList(id: list) }
        await #expect(throws: IntentError.historyConflict(action: "Rename List", reason: .listGone(list))) { try await other.run(Undo()) }
    }
}

extension Item {
    /// What an edit changes and its undo gives back, without `updatedAt`, which both stamp.
    fileprivate var fields: [String] {
        [title, notes, "\(String(describing: completedAt))", "\(isCanceled)", "\(when)", "\(String(describing: deadline))", "\(deadlineDismissed)"]
    }
}
