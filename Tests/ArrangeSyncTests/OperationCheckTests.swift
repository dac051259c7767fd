import ArrangeModel
import ArrangeSync
import Foundation
import Testing

@Suite("Sync: every incoming operation is checked, and a bad one refuses its batch whole")
struct OperationCheckTests {
    static let replica = ReplicaID(rawValue: UUID(uuid: (1, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1)))
    static let list = ItemList.ID(rawValue: UUID(uuid: (2, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 2)))
    static let nowish: Int64 = 1_795_392_000_000

    /// An operation of `change`, the `sequence`th of the test's replica.
    func operation(_ sequence: Int64, _ change: SyncChange, milliseconds: Int64 = nowish) -> SyncOperation {
        SyncOperation(replica: Self.replica, sequence: sequence, clock: HLCTimestamp(milliseconds: milliseconds, counter: 0), change: change)
    }

    func addItem(_ sequence: Int64, title: String = "Milk", notes: String = "") -> SyncOperation {
        operation(sequence, .addItem(id: Item.ID(), list: Self.list, title: title, notes: notes, place: SyncPlace(after: nil, before: nil)))
    }

    /// Expects the batch `[good, bad]` refused at position 2 for `problem`, and the same as a
    /// version 3 file refused at line 3, with messages that name them.
    func expectRefused(_ bad: SyncOperation, for problem: OperationProblem, reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let batch = [addItem(1), bad]
        #expect(throws: OperationCheckError.refused(position: 2, problem), sourceLocation: sourceLocation) {
            try OperationCheck.validate(batch, rules: .current)
        }
        #expect(OperationCheckError.refused(position: 2, problem).debugDescription
            == "Operation 2 of the batch is refused: \(reason) Nothing was merged.", sourceLocation: sourceLocation)
        #expect(throws: OperationFileError.refusedOperation(line: 3, problem), sourceLocation: sourceLocation) {
            try OperationFile.decode(file(batch))
        }
        #expect(OperationFileError.refusedOperation(line: 3, problem).debugDescription
            == "Line 3 is refused: \(reason) Nothing was applied.", sourceLocation: sourceLocation)
    }

    @Test("A batch that meets every rule passes, as a batch and as a file")
    func good() throws {
        let batch = SyncFormatTests.sample + [operation(7, .createList(id: Self.list, name: "Work", place: SyncPlace(after: nil, before: nil)))]
        try OperationCheck.validate(batch, rules: .current)
        #expect(try OperationFile.decode(file(batch)).operations == batch)
    }

    @Test("A sequence below 1 is refused")
    func sequence() throws {
        try expectRefused(addItem(0), for: .sequenceBelowOne(0), reason: "its sequence is 0; sequences start at 1.")
        try expectRefused(addItem(-3), for: .sequenceBelowOne(-3), reason: "its sequence is -3; sequences start at 1.")
    }

    @Test("A clock before 1970 or after the year 9999 is refused; the last millisecond of 9999 passes")
    func clockMilliseconds() throws {
        try expectRefused(operation(2, .deleteList(id: Self.list), milliseconds: -1), for: .clockOutOfRange(milliseconds: -1),
                          reason: "its clock is -1 milliseconds, before 1970; clocks count milliseconds since 1970.")
        let late = SyncOperation.latestMilliseconds + 1
        try expectRefused(operation(2, .deleteList(id: Self.list), milliseconds: late), for: .clockOutOfRange(milliseconds: late),
                          reason: "its clock is 253402300800000 milliseconds since 1970, after the year 9999; the device that made it has a wrong clock.")
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = try #require(TimeZone(identifier: "UTC"))
        let year10000 = try #require(gregorian.date(from: DateComponents(year: 10_000, month: 1, day: 1)))
        #expect(Int64(year10000.timeIntervalSince1970) * 1_000 == late, "one past the bound is the start of the year 10000")
        try OperationCheck.validate([operation(1, .deleteList(id: Self.list), milliseconds: SyncOperation.latestMilliseconds)], rules: .current)
        try OperationCheck.validate([operation(1, .deleteList(id: Self.list), milliseconds: 0)], rules: .current)
    }

    @Test("A replacement of an operation with a sequence or clock out of range is refused")
    func replacedOperation() throws {
        var original = OperationReference(addItem(1))
        original.sequence = 0
        try expectRefused(operation(2, .replacement(of: original, change: .deleteList(id: Self.list))),
                          for: .replacedOperationOutOfRange(sequence: 0, milliseconds: Self.nowish),
                          reason: "the operation it replaces has sequence 0 and clock \(Self.nowish); sequences start at 1 and clocks lie between 1970 and the year 9999.")
    }

    /// The lines of a version 3 file of `[addItem(1), addItem(2)]`, the second line's JSON changed by `edit`.
    func fileWithSecondOperation(_ edit: (String) -> String) throws -> Data {
        let body = lines(of: try file([addItem(1), addItem(2)])).dropFirst().dropLast().map(\.self)
        return file(lines: [body[0], edit(body[1])])
    }

    @Test("A clock counter or milliseconds that their types cannot hold are refused with the field named")
    func numbersOutOfRange() throws {
        let cases: [(String, String)] = [
            (#""counter":-1"#, "the field 'clock.counter' is -1; a clock's counter is a whole number from 0 to 4294967295."),
            (#""counter":4294967296"#, "the field 'clock.counter' is 4294967296; a clock's counter is a whole number from 0 to 4294967295."),
            (#""counter":1.5"#, "the field 'clock.counter' is 1.5; a clock's counter is a whole number from 0 to 4294967295."),
        ]
        for (counter, reason) in cases {
            let data = try fileWithSecondOperation { $0.replacingOccurrences(of: #""counter":0"#, with: counter) }
            #expect(throws: OperationFileError.badLine(3, reason: reason)) { try OperationFile.decode(data) }
        }
        let millis = try fileWithSecondOperation { $0.replacingOccurrences(of: #""milliseconds":\#(Self.nowish)"#, with: #""milliseconds":1e30"#) }
        #expect(throws: OperationFileError.badLine(3, reason: "the field 'clock.milliseconds' is 1e+30; it must be a whole number from -9223372036854775808 to 9223372036854775807.")) {
            try OperationFile.decode(millis)
        }
        let sequence = try fileWithSecondOperation { $0.replacingOccurrences(of: #""sequence":2"#, with: #""sequence":9223372036854775808"#) }
        #expect(throws: OperationFileError.badLine(3, reason: "the field 'sequence' is 9.223372036854776e+18; it must be a whole number from -9223372036854775808 to 9223372036854775807.")) {
            try OperationFile.decode(sequence)
        }
        let broken = try fileWithSecondOperation { $0.replacingOccurrences(of: #""counter":0"#, with: #""counter":"#) }
        #expect(throws: OperationFileError.badLine(3, reason: "it is not valid JSON.")) { try OperationFile.decode(broken) }
    }

    @Test("An id, a replica or an item or list id that is not a UUID is refused with the field named")
    func identifiers() throws {
        let added = addItem(2)
        guard case .addItem(let item) = added.change else { Issue.record("not an addItem"); return }
        let addLine = try lines(of: file([added]))[1]
        let move = operation(2, .moveItems(ids: [Item.ID(), Item.ID()], list: Self.list, place: SyncPlace(after: nil, before: nil)))
        let moveLine = try lines(of: file([move]))[1]
        let cases: [(String, String)] = [
            (addLine.replacingOccurrences(of: added.id.text, with: "op-2"), "id"),
            (addLine.replacingOccurrences(of: #""replica":"\#(Self.replica.text)""#, with: #""replica":"phone""#), "replica"),
            (addLine.replacingOccurrences(of: #""list":"\#(Self.list.text)""#, with: #""list":"groceries""#), "change.addItem.list"),
            (addLine.replacingOccurrences(of: item.id.text, with: "12"), "change.addItem.id"),
            (moveLine.replacingOccurrences(of: move.change.movedIDs[1].text, with: "zz"), "change.moveItems.ids[1]"),
        ]
        for (line, field) in cases {
            let data = file(lines: [try lines(of: file([addItem(1)]))[1], line])
            do {
                _ = try OperationFile.decode(data)
                Issue.record("a line whose \(field) is not a UUID was accepted")
            } catch {
                guard case .badLine(3, let reason) = error else { Issue.record("\(error)"); continue }
                #expect(reason.hasPrefix("the field '\(field)' is not valid: ") && reason.hasSuffix("is not a UUID."), "\(reason)")
            }
        }
    }

    @Test("One id with two different operations is refused; the same operation twice passes")
    func duplicateIDs() throws {
        let first = addItem(1)
        var other = addItem(2)
        other.id = first.id
        #expect(throws: OperationCheckError.refused(position: 3, .idReused(first.id, firstPosition: 1))) {
            try OperationCheck.validate([first, addItem(3), other], rules: .carriedForward)
        }
        #expect(OperationCheckError.refused(position: 3, .idReused(first.id, firstPosition: 1)).debugDescription
            == "Operation 3 of the batch is refused: its id \(first.id) is also the id of operation 1, which is different; one id names one operation. Nothing was merged.")
        let data = try file([first, addItem(3), other], version: 2)
        #expect(throws: OperationFileError.refusedOperation(line: 4, .idReused(first.id, firstPosition: 2))) { try OperationFile.decode(data) }
        #expect(OperationFileError.refusedOperation(line: 4, .idReused(first.id, firstPosition: 2)).debugDescription
            == "Line 4 is refused: its id \(first.id) is also the id of the operation on line 2, which is different; one id names one operation. Nothing was applied.")

        let twice = [first, addItem(3), first]
        try OperationCheck.validate(twice, rules: .current)
        #expect(try OperationFile.decode(file(twice)).operations == twice)
    }

    @Test("A title or a list name over 1,000 characters is refused; 1,000 characters pass, however many bytes")
    func titles() throws {
        let long = String(repeating: "a", count: Title.maximumLength + 1)
        try expectRefused(addItem(2, title: long), for: .textTooLong(field: .title, length: 1_001), reason: "its title has 1001 characters; the limit is 1000.")
        try expectRefused(operation(2, .editItem(id: Item.ID(), title: long, notes: nil)), for: .textTooLong(field: .title, length: 1_001),
                          reason: "its title has 1001 characters; the limit is 1000.")
        try expectRefused(operation(2, .createList(id: Self.list, name: long, place: SyncPlace(after: nil, before: nil))),
                          for: .textTooLong(field: .listName, length: 1_001), reason: "its list name has 1001 characters; the limit is 1000.")
        try expectRefused(operation(2, .renameList(id: Self.list, name: long)), for: .textTooLong(field: .listName, length: 1_001),
                          reason: "its list name has 1001 characters; the limit is 1000.")
        let replaced = operation(2, .replacement(of: OperationReference(addItem(1)), change: .renameList(id: Self.list, name: long)))
        try expectRefused(replaced, for: .textTooLong(field: .listName, length: 1_001), reason: "its list name has 1001 characters; the limit is 1000.")

        let accented = String(repeating: "é", count: Title.maximumLength)
        #expect(accented.utf8.count == 2_000)
        let fits = [addItem(1, title: accented), operation(2, .renameList(id: Self.list, name: String(repeating: "b", count: 1_000)))]
        try OperationCheck.validate(fits, rules: .current)
        #expect(try OperationFile.decode(file(fits)).operations == fits)
        #expect(throws: OperationCheckError.refused(position: 1, .textTooLong(field: .title, length: 1_001))) {
            try OperationCheck.validate([addItem(1, title: long)], rules: .carriedForward)
        }
    }

    @Test("Notes over Item.maximumNotesSize bytes of JSON are refused by the current rules, whatever they hold")
    func notes() throws {
        #expect(Item.maximumNotesSize == 10_240)
        for (kind, unit, width) in [("plain", "n", 1), ("control characters", "\u{1}", 6), ("quotes", "\"", 2), ("emoji", "😀", 4)] {
            let fits = String(repeating: unit, count: Item.maximumNotesSize / width)
            #expect(Item.notesSize(fits) <= Item.maximumNotesSize, "\(kind)")
            try OperationCheck.validate([addItem(1, notes: fits)], rules: .current)
            let over = fits + unit
            let size = Item.notesSize(over)
            #expect(size > Item.maximumNotesSize, "\(kind)")
            try expectRefused(addItem(2, notes: over), for: .notesTooLarge(bytes: size), reason: "its notes take \(size) bytes; the limit is 10240.")
            try expectRefused(operation(2, .editItem(id: Item.ID(), title: nil, notes: over)), for: .notesTooLarge(bytes: size),
                              reason: "its notes take \(size) bytes; the limit is 10240.")
        }
    }

    @Test("An operation over 16 KiB of JSON is refused; one of exactly 16 KiB passes")
    func encodedSize() throws {
        #expect(SyncOperation.maximumEncodedSize == 16_384)
        // A file's line gives its size; the check takes it as it is.
        let small = addItem(1)
        var exact = OperationCheck(rules: .current)
        try exact.check(small, at: 1, encodedSize: 16_384)
        var over = OperationCheck(rules: .current)
        #expect(throws: OperationProblem.tooLarge(bytes: 16_385)) { try over.check(small, at: 1, encodedSize: 16_385) }

        let ids = (0..<2_000).map { _ in Item.ID() }
        let move = operation(2, .moveItems(ids: ids, list: Self.list, place: SyncPlace(after: nil, before: nil)))
        let moveSize = try lines(of: file([move]))[1].utf8.count
        #expect(moveSize > 70_000)
        try expectRefused(move, for: .tooLarge(bytes: moveSize), reason: "it takes \(moveSize) bytes of JSON; the limit is 16384 (16 KiB).")
    }

    @Test("An operation just over 16 KiB is refused, and one just under passes, whatever fills it")
    func encodedSizeFillers() throws {
        let fillers: [(String, (Int) -> SyncOperation)] = [
            ("a move's ids", { operation(2, .moveItems(ids: (0..<$0).map { _ in Item.ID() }, list: Self.list, place: SyncPlace(after: OrderEntry.ID(), before: nil))) }),
            ("completed ids", { operation(2, .completeItems(ids: (0..<$0).map { _ in Item.ID() }, at: Date(timeIntervalSince1970: 1_800_000_000.25))) }),
            ("reopened ids", { operation(2, .reopenItems(ids: (0..<$0).map { _ in Item.ID() })) }),
            ("Today's ids", { operation(2, .addToToday(ids: (0..<$0).map { _ in Item.ID() }, place: SyncPlace(after: OrderEntry.ID(), before: OrderEntry.ID()))) }),
            ("a replacement's deleted ids", {
                operation(2, .replacement(of: OperationReference(addItem(1)), change: .replacement(of: OperationReference(addItem(1)), change: .deleteItems(ids: (0..<$0).map { _ in Item.ID() }))))
            }),
        ]
        for (filler, make) in fillers {
            let size = { (count: Int) throws -> Int in try lines(of: file([make(count)]))[1].utf8.count }
            // The smallest count whose operation is over the limit.
            var (low, high) = (0, 20_000)
            while low < high {
                let middle = (low + high) / 2
                if try size(middle) > SyncOperation.maximumEncodedSize { high = middle } else { low = middle + 1 }
            }
            let over = make(low)
            let overSize = try lines(of: file([over]))[1].utf8.count
            #expect(throws: OperationCheckError.refused(position: 1, .tooLarge(bytes: overSize)), "\(filler)") {
                try OperationCheck.validate([over], rules: .current)
            }
            let under = make(low - 1)
            #expect(try lines(of: file([under]))[1].utf8.count <= SyncOperation.maximumEncodedSize)
            #expect(throws: Never.self, "\(filler)") { try OperationCheck.validate([under], rules: .current) }
        }
    }

    @Test("Version 1 and 2 files may hold operations made before the size and notes limits; the other rules still hold")
    func carriedForward() throws {
        let ids = (0..<2_000).map { _ in Item.ID() }
        let move = operation(2, .moveItems(ids: ids, list: Self.list, place: SyncPlace(after: nil, before: nil)))
        let notes = addItem(3, notes: String(repeating: "n", count: 150_000))
        let old = [addItem(1), move, notes]
        for version in [1, 2] {
            #expect(try OperationFile.decode(file(old, version: version)).operations == old, "version \(version)")
            #expect(throws: OperationFileError.refusedOperation(line: 2, .sequenceBelowOne(0)), "version \(version)") {
                try OperationFile.decode(file([addItem(0)], version: version))
            }
        }
        try OperationCheck.validate(old, rules: .carriedForward)
        #expect(throws: OperationFileError.refusedOperation(line: 3, .tooLarge(bytes: try lines(of: file([move]))[1].utf8.count))) {
            try OperationFile.decode(file(old, version: 3))
        }
        #expect(OperationCheck.Rules(fileVersion: 1) == .carriedForward && OperationCheck.Rules(fileVersion: 2) == .carriedForward)
        #expect(OperationCheck.Rules(fileVersion: 3) == .current)
    }

    @Test("The position counts from 1 and names the first operation at fault")
    func firstFault() throws {
        let batch = [addItem(1), addItem(2), addItem(0), addItem(-1)]
        #expect(throws: OperationCheckError.refused(position: 3, .sequenceBelowOne(0))) { try OperationCheck.validate(batch, rules: .current) }
        try OperationCheck.validate([SyncOperation](), rules: .current)
    }
}

extension SyncChange {
    /// The ids of a move of items.
    var movedIDs: [Item.ID] {
        if case .moveItems(let moved) = self { moved.ids } else { [] }
    }
}
