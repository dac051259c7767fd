import ArrangeModel
import ArrangeStore
import ArrangeSync
import Foundation
import Testing

private typealias Tag = ArrangeModel.Tag

/// Snapshots through files: a new store joins a group that has folded operations away, with
/// ``SyncEngine/snapshot()``, ``SnapshotFile`` and ``SyncEngine/adopt(_:)``.
@Suite("Sync: snapshots through files")
struct SnapshotTests {
    typealias Replica = CompactionTests.Replica

    /// Two stores that met and folded their operations away, then went on: the laptop moved
    /// Milk and deleted Eggs (which leave tombstones), the phone added Tea, they met again
    /// without folding, and the laptop added Rice, which it has not replayed yet.
    func foldedGroup(_ kind: StoreKind) async throws -> (laptop: Replica, phone: Replica) {
        let (laptop, phone) = (try Replica(kind: kind), try Replica(kind: kind))
        let milk = Item.ID()
        try laptop.add("Milk", id: milk)
        let eggs = try #require(try laptop.add("Eggs").subjectID)
        try phone.add("Bread")
        _ = try await laptop.engine.exchange(with: phone.engine)
        #expect(try await laptop.engine.compact() > 0)
        #expect(try await phone.engine.compact() > 0)

        try laptop.move(milk, after: eggs)
        laptop.clock.advance(by: 1)
        try laptop.engine.perform(.deleteItems(ids: [eggs]))
        try phone.add("Tea")
        _ = try await laptop.engine.exchange(with: phone.engine)
        try laptop.add("Rice")
        return (laptop, phone)
    }

    func dump(_ replica: Replica) throws -> [String] {
        try Simulation.dump(replica.engine.repository)
    }

    func replicaID(_ replica: Replica) async throws -> UUID? {
        try await replica.engine.repository.readLog { try $0.replicaState()?.id }
    }

    /// The bytes of `data` as a stream of chunks of `size` bytes, the last one shorter.
    static func chunks(of data: Data, size: Int) -> AsyncStream<Data> {
        AsyncStream { continuation in
            var start = data.startIndex
            while start < data.endIndex {
                let end = min(start + size, data.endIndex)
                continuation.yield(Data(data[start..<end]))
                start = end
            }
            continuation.finish()
        }
    }

    /// What `arrange sync import` does with a snapshot file: takes the snapshot, or merges its
    /// operations when the store lacks nothing it folded.
    func importSnapshot(_ data: Data, into replica: Replica) async throws {
        let snapshot = try SnapshotFile.decode(data)
        if try await replica.engine.adopt(snapshot) == nil {
            try await replica.engine.merge(try snapshot.operations(), after: snapshot.folded, endingAt: snapshot.foldedTips)
        }
    }

    @Test("Two stores that hold the same operations have one state digest, whatever they folded; a change gives another", arguments: StoreKind.allCases)
    func stateDigest(kind: StoreKind) async throws {
        let (laptop, phone) = try await foldedGroup(kind)
        #expect(try await laptop.engine.snapshot().stateDigest != phone.engine.snapshot().stateDigest, "the phone lacks Rice")
        _ = try await phone.engine.exchange(with: laptop.engine)
        let digest = try await laptop.engine.snapshot().stateDigest
        #expect(try await phone.engine.snapshot().stateDigest == digest)
        #expect(digest.count == 64 && digest.allSatisfy(\.isHexDigit))
        let fresh = try Replica(kind: kind)
        _ = try await fresh.engine.exchange(with: laptop.engine)
        #expect(try await fresh.engine.snapshot().stateDigest == digest, "a store that took the snapshot")
        try phone.add("Jam")
        #expect(try await phone.engine.snapshot().stateDigest != digest)
    }

    @Test("A snapshot file holds every part of the store, one typed line each, and reads back as it was written")
    func format() async throws {
        let (laptop, _) = try await foldedGroup(.inMemory)
        let data = try SnapshotFile.encode(try await laptop.engine.snapshot())
        let all = lines(of: data)
        let headerLine = try #require(all.first)
        #expect(headerLine.hasPrefix(#"{"folded":{"#) && headerLine.hasSuffix(#""format":"arrange-sync","snapshot":true,"version":4}"#), "\(headerLine)")
        let kinds = all.dropFirst().dropLast().map { String($0.dropFirst(2).prefix { $0 != "\"" }) }
        #expect(kinds.first == "fold" && kinds.dropFirst().first == "defaultList", "\(kinds)")
        for kind in ["list", "item", "tombstone", "logged", "foldedOperation"] { #expect(kinds.contains(kind), "a \(kind) line") }
        #expect(all.first { $0.hasPrefix(#"{"fold":"#) }?.contains(#""tips":{"#) == true, "the fold names the operation it ends at for each replica")
        #expect(all.contains { $0.hasPrefix(#"{"logged":{"operation":"#) && $0.contains(#""replayed":false"#) }, "Rice is not replayed yet")
        let count = all.count - 2
        #expect(data == sealed(all.dropLast().map { $0 + "\n" }.joined()), "the trailer counts the \(count) lines and seals them")

        let read = try SnapshotFile.decode(data)
        #expect(try SnapshotFile.encode(read) == data)
        // A version 3 snapshot, whose rewinds keep every item whole, still reads.
        let versionThree = all.dropLast().map { $0 + "\n" }.joined()
            .replacingOccurrences(of: #""snapshot":true,"version":4}"#, with: #""snapshot":true,"version":3}"#)
        #expect(try SnapshotFile.encode(SnapshotFile.decode(sealed(versionThree))) == data)
        // Written a line at a time, and read back from chunks cut anywhere, it is the same file.
        var written: [Data] = []
        try SnapshotFile.write(try await laptop.engine.snapshot()) { written.append($0) }
        #expect(written.count == all.count && written.allSatisfy { $0.last == UInt8(ascii: "\n") } && Data(written.joined()) == data)
        for size in [1, 5, 64, data.count] {
            #expect(try SnapshotFile.encode(try await SnapshotFile.decode(chunks: Self.chunks(of: data, size: size))) == data, "chunks of \(size)")
        }
        #expect(try read.operationCount == laptop.log().count)
        #expect(read.foldedCount > 0 && !read.folded.isEmpty)
        let operations = try OperationFile.encode(OperationFile.Contents(operations: []))
        #expect(SnapshotFile.isSnapshot(data) && !SnapshotFile.isSnapshot(operations))
    }

    @Test("A snapshot with checklists is a version 5 file of checklistItem lines; a new store takes it whole, and a line whose item is missing is refused", arguments: StoreKind.allCases)
    func checklists(kind: StoreKind) async throws {
        let (laptop, phone) = try await foldedGroup(kind)
        let trip = Item.ID()
        try laptop.add("Trip", id: trip)
        let (passport, charger, tickets) = (ChecklistItem.ID(), ChecklistItem.ID(), ChecklistItem.ID())
        for (id, title) in [(passport, "Passport"), (charger, "Charger"), (tickets, "Tickets")] {
            _ = try laptop.engine.perform(.addChecklistItem(id: id, item: trip, title: title, place: SyncPlace(after: nil, before: nil)))
        }
        _ = try laptop.engine.perform(.completeChecklistItems(ids: [charger], at: Date(timeIntervalSince1970: 1_800_000_000)))
        _ = try laptop.engine.perform(.deleteChecklistItems(ids: [tickets]))
        #expect(try await laptop.engine.compact() > 0)
        let snapshot = try await laptop.engine.snapshot()
        #expect(snapshot.checklistItems.map(\.id) == [charger, passport], "each added at the top, Tickets deleted")
        let data = try SnapshotFile.encode(snapshot)
        let all = lines(of: data)
        #expect(all.first?.hasSuffix(#""snapshot":true,"version":5}"#) == true, "\(all.first ?? "")")
        #expect(all.filter { $0.hasPrefix(#"{"checklistItem":"#) }.count == 2)
        #expect(try SnapshotFile.encode(SnapshotFile.decode(data)) == data)

        let fresh = try Replica(kind: kind)
        try await importSnapshot(data, into: fresh)
        #expect(try dump(fresh) == dump(laptop))
        #expect(try await fresh.engine.snapshot().stateDigest == snapshot.stateDigest)

        let orphan = all.dropLast().filter { !$0.hasPrefix(#"{"item":{"#) || !$0.contains(trip.text) }.map { $0 + "\n" }.joined()
        #expect(throws: OperationFileError.self) { try SnapshotFile.decode(sealed(orphan)) }
        // Every entry deleted and folded away: the tombstones of the entries still need version 5.
        _ = try laptop.engine.perform(.deleteChecklistItems(ids: [passport, charger]))
        _ = try await laptop.engine.exchange(with: phone.engine)
        _ = try await phone.engine.exchange(with: laptop.engine)
        #expect(try await laptop.engine.compact() > 0)
        let emptied = try await laptop.engine.snapshot()
        #expect(emptied.checklistItems.isEmpty && !emptied.log.contains { String(decoding: $0.rewind, as: UTF8.self).contains("checklistItems") })
        #expect(lines(of: try SnapshotFile.encode(emptied)).first?.hasSuffix(#""version":5}"#) == true, "tombstones in a checklist")
        // Without checklists, the file stays at version 4, which a version before checklists reads.
        let (plain, _) = try await foldedGroup(kind)
        #expect(lines(of: try SnapshotFile.encode(try await plain.engine.snapshot())).first?.hasSuffix(#""version":4}"#) == true)
    }

    @Test("A snapshot with dates, cancelations or finished lists is a file of the version that carries them; a new store takes them, with the same digest", arguments: StoreKind.allCases)
    func dates(kind: StoreKind) async throws {
        let (laptop, _) = try await foldedGroup(kind)
        let (taxes, novel) = (Item.ID(), Item.ID())
        try laptop.add("Taxes", id: taxes)
        try laptop.add("Novel", id: novel)
        let day = try Day(parsing: "2026-12-01")
        _ = try laptop.engine.perform(.setWhen(ids: [taxes], when: .on(day, evening: true)))
        _ = try laptop.engine.perform(.setDeadline(ids: [taxes], deadline: day.adding(days: 2)))
        _ = try laptop.engine.perform(.setWhen(ids: [novel], when: .someday))
        let snapshot = try await laptop.engine.snapshot()
        let data = try SnapshotFile.encode(snapshot)
        let all = lines(of: data)
        #expect(all.first?.hasSuffix(#""snapshot":true,"version":8}"#) == true, "\(all.first ?? "")")
        #expect(all.contains { $0.contains(#""when":{"evening":true,"startDate":"2026-12-01"}"#) && $0.contains(#""deadline":"2026-12-03""#) })
        #expect(try SnapshotFile.encode(SnapshotFile.decode(data)) == data)
        let fresh = try Replica(kind: kind)
        try await importSnapshot(data, into: fresh)
        let items = try await fresh.engine.repository.read { transaction in try [taxes, novel].map { try transaction.item(id: $0) } }
        #expect(items.map { $0?.when } == [.on(day, evening: true), .someday] && items[0]?.deadline == day.adding(days: 2))
        #expect(try await fresh.engine.snapshot().stateDigest == snapshot.stateDigest)
        _ = try laptop.engine.perform(.setWhen(ids: [novel], when: .anytime))
        #expect(try await laptop.engine.snapshot().stateDigest != snapshot.stateDigest, "a date is part of the digest")

        // A dismissed deadline takes version 9, travels, and is part of the digest.
        let undismissed = try await laptop.engine.snapshot().stateDigest
        _ = try laptop.engine.perform(.dismissDeadlines(ids: [taxes, novel], dismissed: true))
        let dismissed = try await laptop.engine.snapshot()
        let dismissedData = try SnapshotFile.encode(dismissed)
        #expect(lines(of: dismissedData).first?.hasSuffix(#""snapshot":true,"version":9}"#) == true)
        #expect(dismissed.stateDigest != undismissed)
        let another = try Replica(kind: kind)
        try await importSnapshot(dismissedData, into: another)
        let kept = try await another.engine.repository.read { transaction in try [taxes, novel].map { try transaction.item(id: $0)?.deadlineDismissed } }
        #expect(kept == [true, false], "only a deadline can be dismissed: the novel has none")
        #expect(try await another.engine.snapshot().stateDigest == dismissed.stateDigest)

        // A canceled item takes version 10, travels, and is part of the digest.
        _ = try laptop.engine.perform(.cancelItems(ids: [novel], at: Date(timeIntervalSince1970: 1_796_000_000)))
        let canceled = try await laptop.engine.snapshot()
        let canceledData = try SnapshotFile.encode(canceled)
        #expect(lines(of: canceledData).first?.hasSuffix(#""snapshot":true,"version":10}"#) == true)
        #expect(canceled.stateDigest != dismissed.stateDigest)
        let third = try Replica(kind: kind)
        try await importSnapshot(canceledData, into: third)
        let statuses = try await third.engine.repository.read { transaction in try [taxes, novel].map { try transaction.item(id: $0)?.status } }
        #expect(statuses == [.open, .canceled])
        #expect(try await third.engine.snapshot().stateDigest == canceled.stateDigest)

        // A finished list takes version 11, travels, and is part of the digest; reopened, the
        // digest is the one before.
        let list = try #require(try await laptop.engine.repository.read { try $0.item(id: taxes)?.listID })
        _ = try laptop.engine.perform(.finishList(id: list, at: Date(timeIntervalSince1970: 1_797_000_000), canceled: true))
        let finished = try await laptop.engine.snapshot()
        let finishedData = try SnapshotFile.encode(finished)
        #expect(lines(of: finishedData).first?.hasSuffix(#""snapshot":true,"version":11}"#) == true)
        #expect(finished.stateDigest != canceled.stateDigest)
        let fourth = try Replica(kind: kind)
        try await importSnapshot(finishedData, into: fourth)
        let arrived = try await fourth.engine.repository.read { try $0.list(id: list) }
        #expect(arrived?.status == .canceled && arrived?.completedAt == Date(timeIntervalSince1970: 1_797_000_000))
        #expect(try await fourth.engine.snapshot().stateDigest == finished.stateDigest)
        _ = try laptop.engine.perform(.reopenList(id: list))
        #expect(try await laptop.engine.snapshot().stateDigest == canceled.stateDigest)

        // Tags, one under another, and a tag created apart under a taken name, which merges:
        // version 12, and the merge travels, so that its id still names the survivor.
        let (errand, shops, namesake) = (Tag.ID(), Tag.ID(), Tag.ID())
        let nowhere = SyncPlace(after: nil, before: nil)
        _ = try laptop.engine.perform(.createTag(id: errand, name: "Errand", parent: nil, place: nowhere))
        _ = try laptop.engine.perform(.createTag(id: shops, name: "Shops", parent: errand, place: nowhere))
        _ = try laptop.engine.perform(.createTag(id: namesake, name: "errand", parent: nil, place: nowhere))
        let tagged = try await laptop.engine.snapshot()
        let taggedData = try SnapshotFile.encode(tagged)
        #expect(lines(of: taggedData).first?.hasSuffix(#""snapshot":true,"version":12}"#) == true)
        #expect(tagged.stateDigest != canceled.stateDigest)
        let fifth = try Replica(kind: kind)
        try await importSnapshot(taggedData, into: fifth)
        let tags = try await fifth.engine.repository.read { transaction in (try transaction.tags().map(\.name), try transaction.tag(id: namesake)?.id) }
        #expect(tags.0 == ["Errand", "Shops"] && tags.1 == errand)
        #expect(try await fifth.engine.snapshot().stateDigest == tagged.stateDigest)

        // A reminder takes version 14, travels, and is part of the digest.
        _ = try laptop.engine.perform(.setReminder(ids: [taxes], reminder: try TimeOfDay(parsing: "09:30")))
        let reminded = try await laptop.engine.snapshot()
        let remindedData = try SnapshotFile.encode(reminded)
        #expect(lines(of: remindedData).first?.hasSuffix(#""snapshot":true,"version":14}"#) == true)
        #expect(reminded.stateDigest != tagged.stateDigest)
        let sixth = try Replica(kind: kind)
        try await importSnapshot(remindedData, into: sixth)
        #expect(try await sixth.engine.repository.read { try $0.item(id: taxes)?.reminder } == (try TimeOfDay(parsing: "09:30")))
        #expect(try await sixth.engine.snapshot().stateDigest == reminded.stateDigest)

        // A list's when and deadline take version 16, travel, and are part of the digest; taken
        // away, the digest is the one before.
        let start = try Day(parsing: "2027-03-01")
        _ = try laptop.engine.perform(.setListWhen(id: list, when: .on(start, evening: true)))
        _ = try laptop.engine.perform(.setListDeadline(id: list, deadline: start))
        let scheduled = try await laptop.engine.snapshot()
        let scheduledData = try SnapshotFile.encode(scheduled)
        #expect(lines(of: scheduledData).first?.hasSuffix(#""snapshot":true,"version":16}"#) == true)
        #expect(scheduled.stateDigest != reminded.stateDigest)
        let seventh = try Replica(kind: kind)
        try await importSnapshot(scheduledData, into: seventh)
        let dates = try await seventh.engine.repository.read { try $0.list(id: list).map { ($0.when, $0.deadline) } }
        #expect(dates?.0 == .on(start, evening: true) && dates?.1 == start)
        #expect(try await seventh.engine.snapshot().stateDigest == scheduled.stateDigest)
        _ = try laptop.engine.perform(.setListWhen(id: list, when: .anytime))
        _ = try laptop.engine.perform(.setListDeadline(id: list, deadline: nil))
        #expect(try await laptop.engine.snapshot().stateDigest == reminded.stateDigest)

        // A list's notes take version 17, travel, and are part of the digest; taken away, the
        // digest is the one before.
        _ = try laptop.engine.perform(.setListNotes(id: list, notes: "Passports first.\nThen tickets."))
        let noted = try await laptop.engine.snapshot()
        let notedData = try SnapshotFile.encode(noted)
        #expect(lines(of: notedData).first?.hasSuffix(#""snapshot":true,"version":17}"#) == true)
        #expect(noted.stateDigest != reminded.stateDigest)
        let eighth = try Replica(kind: kind)
        try await importSnapshot(notedData, into: eighth)
        #expect(try await eighth.engine.repository.read { try $0.list(id: list)?.notes } == "Passports first.\nThen tickets.")
        #expect(try await eighth.engine.snapshot().stateDigest == noted.stateDigest)
        _ = try laptop.engine.perform(.setListNotes(id: list, notes: ""))
        #expect(try await laptop.engine.snapshot().stateDigest == reminded.stateDigest)
    }

    @Test("A new store takes a folded group's snapshot from a file, keeps its own items and replica id, then exchanges with the group and all converge", arguments: StoreKind.allCases)
    func join(kind: StoreKind) async throws {
        let (laptop, phone) = try await foldedGroup(kind)
        let data = try SnapshotFile.encode(try await laptop.engine.snapshot())

        // An empty store cannot merge the group's operations, which start after the fold; it takes the snapshot.
        let fresh = try Replica(kind: kind)
        let batch = try await laptop.engine.operations(after: 0)
        await #expect(throws: SyncError.missingFoldedOperations) { try await fresh.engine.merge(batch.operations, after: batch.folded) }
        #expect(try await fresh.engine.adopt(SnapshotFile.decode(data)) != nil)
        #expect(try dump(fresh) == dump(laptop), "the same lists, items, keys and Today")
        #expect(try fresh.log().map(\.id) == laptop.log().map(\.id))

        // A store with a change of its own, made before it heard of the group: its clock is
        // behind (within the drift a store takes in), so the change sorts before the fold and
        // is made again after it.
        let newcomer = try Replica(kind: kind, at: 800_000)
        try newcomer.add("Stamps")
        let id = try await replicaID(newcomer)
        let report = try #require(try await newcomer.engine.adopt(SnapshotFile.decode(data)))
        #expect(report.replaced > 0, "\(report)")
        #expect(try Set(newcomer.titles()) == Set(laptop.titles()).union(["Stamps"]))
        #expect(try await replicaID(newcomer) == id, "the newcomer keeps its replica id")

        // Then everyone meets the usual way.
        let everyone = [laptop, phone, fresh, newcomer]
        var folded = [0, 0]
        for round in 0..<2 {
            for (first, second) in [(2, 0), (3, 1), (0, 1), (3, 0), (2, 1), (3, 2)] {
                _ = try await everyone[first].engine.exchange(with: everyone[second].engine)
                folded[round] += try await everyone[first].engine.compact() + everyone[second].engine.compact()
            }
        }
        let dumps = try everyone.map(dump)
        #expect(dumps.allSatisfy { $0 == dumps[0] }, "all four converge")
        #expect(try await replicaID(newcomer) == id)
        // Had the newcomer taken a new id, its old one would never again say what it holds, and
        // would hold compaction back for good: the second round would fold nothing.
        #expect(folded[1] > 0, "the group goes on folding once the two new stores have met it: \(folded)")
        #expect(try Set(laptop.titles()) == ["Milk", "Bread", "Tea", "Rice", "Stamps"])
    }

    @Test("A snapshot file cut at any line boundary, damaged, or with a line that fits nothing is refused whole, and nothing changes")
    func refusedFiles() async throws {
        let (laptop, _) = try await foldedGroup(.inMemory)
        let data = try SnapshotFile.encode(try await laptop.engine.snapshot())
        let target = try Replica(kind: .inMemory)
        try target.add("Stamps")
        let before = try (dump(target), target.log())
        func expectRefused(_ file: Data, as expected: OperationFileError, _ comment: Comment) async throws {
            await #expect(throws: expected, comment) { try await importSnapshot(file, into: target) }
            #expect(try (dump(target), target.log()) == before, "nothing changed: \(comment)")
            // Streamed in chunks of any size, it is refused the same way.
            for size in [1, 7, 4_096] {
                await #expect(throws: expected, "\(comment), in chunks of \(size)") { _ = try await SnapshotFile.decode(chunks: Self.chunks(of: file, size: size)) }
            }
        }

        let ends = data.indices.filter { data[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
        #expect(ends.count > 10)
        for end in ends.dropLast() { try await expectRefused(data.prefix(end), as: .missingTrailer, "cut after \(end) bytes") }
        try await expectRefused(data.dropLast(), as: .truncated(line: ends.count), "the last line feed missing")
        let damaged = Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "Milk", with: "Silk").utf8)
        try await expectRefused(damaged, as: .digestMismatch, "Milk changed to Silk")
        let garbled = Data((lines(of: data).enumerated().map { $0.offset == 3 ? "garbled" : $0.element }.map { $0 + "\n" }.joined()).utf8)
        try await expectRefused(garbled, as: .digestMismatch, "a line that is no longer JSON, before the trailer is checked")
        let trailer = try #require(lines(of: data).last)
        try await expectRefused(data + Data((trailer + "\n").utf8), as: .lineAfterTrailer(line: lines(of: data).count + 1), "a second trailer")
        try await expectRefused(Data("hello\n".utf8), as: .missingHeader, "no header")
        try await expectRefused(Data((#"{"format":"arrange-sync","snapshot":true,"version":99}"# + "\n").utf8), as: .newerVersion(99), "a newer version")
        try await expectRefused(Data((#"{"format":"arrange-sync","snapshot":true,"version":3}"# + "\n").utf8), as: .missingTrailer, "the header alone")

        let all = lines(of: data).dropLast()
        let none = sealed((all + [#"{"note":"hello"}"#]).map { $0 + "\n" }.joined())
        try await expectRefused(none, as: .badSnapshotLine(all.count + 1, reason: "it holds none of list, item, checklistItem, tombstone, logged, fold, defaultList, retired, foldedOperation, area, heading, tag, tagMerge, series, or more than one."), "an unknown line")
        let orphans = all.filter { !$0.hasPrefix(#"{"list":"#) && !$0.hasPrefix(#"{"defaultList":"#) }
        let firstItem = try #require(orphans.firstIndex { $0.hasPrefix(#"{"item":"#) })
        let noLists = sealed(orphans.map { $0 + "\n" }.joined())
        try await expectRefused(
            noLists, as: .badSnapshotLine(firstItem + 1, reason: "the item's list \(ItemList.firstDefaultListID) has no list line."), "items without their list")
        let noFold = sealed(all.filter { !$0.hasPrefix(#"{"fold":"#) }.map { $0 + "\n" }.joined())
        try await expectRefused(noFold, as: .badSnapshotLine(1, reason: "the header names operations folded away, and no fold line follows."), "no fold line")

        // Each kind of file read as the other.
        #expect(throws: OperationFileError.unexpectedSnapshot) { try OperationFile.decode(data) }
        let operations = try OperationFile.encode(OperationFile.Contents(operations: laptop.log()))
        try await expectRefused(operations, as: .notASnapshot, "a file of operations")
        #expect(OperationFileError.notASnapshot.debugDescription.hasPrefix("The file is a file of operations, not a snapshot"))
    }

    @Test("A store that lacks nothing the snapshot's store folded changes nothing when it takes it, and merges its operations as a file's", arguments: StoreKind.allCases)
    func lacksNothing(kind: StoreKind) async throws {
        let (laptop, phone) = try await foldedGroup(kind)
        try laptop.add("Soap")
        let snapshot = try SnapshotFile.decode(try SnapshotFile.encode(try await laptop.engine.snapshot()))
        let before = try (dump(phone), phone.log())
        #expect(try await phone.engine.adopt(snapshot) == nil)
        #expect(try (dump(phone), phone.log()) == before, "nothing changed")

        let report = try await phone.engine.merge(try snapshot.operations(), after: snapshot.folded)
        #expect(report.new == 2, "Rice and Soap: \(report)")
        #expect(try await phone.engine.merge(try snapshot.operations(), after: snapshot.folded).new == 0, "merged again, nothing is new")
        #expect(try Set(phone.titles()) == ["Milk", "Bread", "Tea", "Rice", "Soap"])
        _ = try await phone.engine.exchange(with: laptop.engine)
        #expect(try dump(phone) == dump(laptop))
    }

    @Test("A store that folded away operations the snapshot's store lacks refuses its snapshot, and nothing changes", arguments: StoreKind.allCases)
    func foldedApart(kind: StoreKind) async throws {
        let replicas = try await Replica.pairsFoldedApart(kind: kind)
        let data = try SnapshotFile.encode(try await replicas[0].engine.snapshot())
        let before = try (dump(replicas[2]), replicas[2].log())
        await #expect(throws: SyncError.foldedApart) { try await importSnapshot(data, into: replicas[2]) }
        #expect(try (dump(replicas[2]), replicas[2].log()) == before)
    }
}
