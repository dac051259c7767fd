// What an app shows a person when something fails, through the public API only.
import ArrangeArchive
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import ArrangeSync
import ArrangeSyncHTTP
import ArrangeThings
import Foundation
import Testing

@Suite("An app shows the core's messages")
struct MessageAdoptionTests {
    static let item = Item.ID()
    static let list = ItemList.ID()
    static let area = Area.ID()
    static let entry = ChecklistItem.ID()
    static let operation = UUID()
    static let path = "/Users/ann/Library/Arrange/arrange.sqlite"

    /// One error of every case of every public error type, with ids and paths in them.
    static let errors: [any Error] = {
        var errors: [any Error] = [
            TitleError.empty(field: .title), TitleError.empty(field: .listName),
            TitleError.tooLong(field: .title, length: 1001, limit: 1000), TitleError.tooLong(field: .listName, length: 1001, limit: 1000),
            TitleError.controlCharacter(field: .title, position: 3), TitleError.controlCharacter(field: .listName, position: 3),
            TitleError.duplicateListName("Work"), TitleError.notesTooLarge(size: 20_000, limit: 10_240),
            TitleError.empty(field: .areaName), TitleError.tooLong(field: .areaName, length: 1001, limit: 1000),
            TitleError.controlCharacter(field: .areaName, position: 3), TitleError.duplicateAreaName("Home"),
            StoreError.areaNotFound(area), StoreError.duplicateArea(area), StoreError.checklistItemNotFound(entry), StoreError.duplicateChecklistItem(entry),
            OrderingError.notInChecklist(entry, item: item), OrderingError.anchorInAnotherArea(anchor: list, area: area),
            OrderingError.anchorInAnotherArea(anchor: list, area: nil),
            IntentError.unknownArea(area), IntentError.unknownChecklistItem(entry), IntentError.noChecklistItemsNamed,
            StoreError.listNotFound(list), StoreError.itemNotFound(item), StoreError.duplicateList(list), StoreError.duplicateItem(item),
            StoreError.duplicateOperation(operation), StoreError.operationNotFound(operation),
            StoreError.unusableDatabase(path: path, reason: "file is not a database"), StoreError.database(reason: "disk I/O error"),
            StoreError.readOnly(path: path), StoreError.unloggedChange,
            OrderingError.offsetOutOfRange(offset: 9, count: 3), OrderingError.offsetOutOfRange(offset: 9, count: -1), OrderingError.nothingToMove,
            OrderingError.duplicateItems([item.entryID]), OrderingError.placedRelativeToItself(item.entryID),
            OrderingError.anchorInAnotherList(anchor: item, list: list), OrderingError.anchorNotInToday(item), OrderingError.targetListAmbiguous,
            OrderingConfiguration.Problem.endGapTooSmall(1), OrderingConfiguration.Problem.minimumGapTooSmall(0),
            IntentError.unknownItem(item), IntentError.unknownList(list), IntentError.noDefaultList, IntentError.defaultListProtected("Inbox"),
            IntentError.defaultListStaysOpen("Inbox"),
            IntentError.noItemsNamed, IntentError.negativeOffset(-1), IntentError.notInToday(item), IntentError.nothingToUndo,
            IntentError.nothingToRedo, IntentError.readOnlyIntent("Add Item"),
            ArchiveError.malformed("line 3, column 4"), ArchiveError.notAnArchive, ArchiveError.newerVersion(9),
            ArchiveError.invalid(path: "lists[2].items[0].title", reason: "empty"),
            SyncError.foldedApart, SyncError.missingFoldedOperations, SyncError.noOperationLog, SyncError.unrecordedChange,
            SyncError.unknownCursor, SyncError.replicaInUse, SyncError.clockAhead(remoteClock: 1_700_000_000_000),
            SyncError.cannotForgetThisDatabase, SyncError.unknownReplica,
            OperationCheckError.refused(position: 2, .sequenceBelowOne(0)),
            OperationFileError.missingHeader, OperationFileError.newerVersion(9), OperationFileError.truncated(line: 4),
            OperationFileError.badLine(4, reason: "no id"), OperationFileError.missingTrailer, OperationFileError.badTrailer(line: 9),
            OperationFileError.lineAfterTrailer(line: 10), OperationFileError.countMismatch(expected: 6, found: 5), OperationFileError.digestMismatch,
            OperationFileError.refusedOperation(line: 3, .sequenceBelowOne(0)), OperationFileError.unexpectedSnapshot, OperationFileError.notASnapshot,
            OperationFileError.badSnapshotLine(2, reason: "no list"),
            HTTPSyncError.unreachable(server: URL(string: "https://sync.example.org")!, reason: "connection refused"),
            HTTPSyncError.badAnswer(server: URL(string: "https://sync.example.org")!, reason: "status 500"),
            ThingsError.unreadable(path: path, reason: "no such file"), ThingsError.notThings(path: path, reason: "no such table: TMArea"),
        ]
        let conflicts: [HistoryConflict] = [
            .notInHistory, .newerChangeFirst, .undoneChangeFirst, .listGone(list), .itemGone(item), .itemLeftToday(item),
            .listExistsAgain(name: "Work"), .itemExistsAgain(item), .becameDefault(name: "Work"),
            .neighbourGone(item.entryID, in: .today, listName: nil), .neighbourGone(item.entryID, in: .lists, listName: nil),
            .neighbourGone(item.entryID, in: .items(list), listName: "Work"),
            .neighbourGone(item.entryID, in: .checklist(item), listName: nil), .neighbourGone(area.entryID, in: .areas, listName: nil),
            .neighbourGone(list.entryID, in: .area(area), listName: nil), .areaGone(area), .areaExistsAgain(name: "Home"),
            .checklistItemGone(entry), .checklistItemExistsAgain(entry), .checklistItemEditedSince(entry: entry, title: "Passport"),
            .listEditedSince(list: list, name: "Work"),
            .editedSince(.title, item: item, title: "Milk"), .editedSince(.notes, item: item, title: "Milk"), .editedSince(.completion, item: item, title: "Milk"),
        ]
        errors += conflicts.map { IntentError.historyConflict(action: "Move Items", reason: $0) }
        errors += SyncServerError.Code.allCases.map { SyncServerError($0, "operation 3 of replica \(operation) is refused") }
        return errors
    }()

    @Test("Every error has a message from its table: filled in, with no id, path or developer's detail; its debug description keeps them")
    func everyMessage() throws {
        var messages: Set<String> = []
        for error in Self.errors {
            let message = try #require((error as? any LocalizedError)?.errorDescription, "\(error) is a LocalizedError")
            let type = String(describing: type(of: error))
            #expect(!message.hasPrefix("\(type).") && !message.hasPrefix("HistoryConflict."), "\(message): its table has no such entry")
            #expect(!message.contains("{") && !message.contains("}"), "\(message): a placeholder left unfilled")
            for detail in [Self.item.description, Self.list.description, Self.area.description, Self.entry.description, Self.operation.lowercasedString, Self.operation.uuidString, Self.path, "sync.example.org", "TMArea", "SnapshotFile"] {
                #expect(!message.contains(detail), "\(message) shows \(detail)")
            }
            #expect(message.last.map { ".!?".contains($0) } == true, "\(message) is a sentence")
            #expect(error.localizedDescription == message)
            messages.insert(message)
        }
        #expect(messages.count > 60)
        #expect(String(describing: StoreError.listNotFound(Self.list)).contains(Self.list.description), "the debug description keeps the id")
        #expect(String(describing: ThingsError.notThings(path: Self.path, reason: "no such table: TMArea")).contains(Self.path))
    }

    @Test("An undo step is named from the table, and a history conflict reads as a sentence")
    func undoNames() async throws {
        let environment = try IntentEnvironment(repository: InMemoryItemRepository())
        let groceries = try await CreateList(name: "Groceries").perform(in: environment).list.id
        let added = try await environment.perform(AddItem(title: "Milk", list: groceries))
        #expect(added.undoStep?.actionName == "Add Item")
        let moved = try await environment.perform(MoveItemsAtOffsets(fromOffsets: [0], toOffset: 1, in: groceries))
        #expect(moved.undoStep == nil || moved.undoStep?.actionName == "Move Items")
        #expect(AddToToday.localizedTitle == "Add to Today" && ImportThings.localizedTitle == "Import from Things")

        let step = try #require(added.undoStep)
        _ = try await AddItem(title: "Eggs", list: groceries).perform(in: environment)
        do {
            try await Undo(expecting: step.id).perform(in: environment)
            Issue.record("expected a history conflict")
        } catch {
            #expect(error.localizedDescription == "Cannot go back over “Add Item”: a newer change came after it; undo that first.")
        }
    }
}
