import ArrangeModel
import ArrangeSync
import ArrangeSyncHTTP
import Foundation
import Testing

/// Shared lists on the server: invites, members and roles, each list's log of its own, and what
/// a push to it may touch.
@Suite("arrange-server: lists shared with other people")
struct ServerSharingTests {
    /// Alice's list that she shares, and its first item.
    let list = ItemList.ID(), item = Item.ID()
    let nowhere = SyncPlace(after: nil, before: nil)

    /// An operation of `replica`, numbered `sequence`, stamped `sequence` ms after a moment, or `at` ms.
    static func operation(_ change: SyncChange, of replica: ReplicaID, _ sequence: Int64, at milliseconds: Int64? = nil) -> SyncOperation {
        SyncOperation(
            replica: replica, sequence: sequence, clock: HLCTimestamp(milliseconds: 1_790_000_000_000 + (milliseconds ?? sequence), counter: 0),
            change: change)
    }

    /// `?list=ID` for `list`.
    static func query(_ list: ItemList.ID) -> String { "\(SyncProtocol.listParameter)=\(list.rawValue.uuidString.lowercased())" }

    /// Posts `value` as JSON to `path`.
    static func post(_ client: RawClient, _ path: String, _ value: some Encodable) async throws -> RawClient.Answer {
        try await client.send("POST", path, body: try SyncProtocol.encoder.encode(value), contentType: SyncProtocol.jsonMediaType)
    }

    /// An invite to `list` made by `client`, as the server answers it.
    static func invite(_ client: RawClient, to list: ItemList.ID, as role: ShareRole = .edit) async throws -> ShareInvite {
        let answer = try await post(client, SyncProtocol.invitePath, ShareInvitation(list: list.rawValue, role: role))
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        return try SyncProtocol.decoder.decode(ShareInvite.self, from: answer.body)
    }

    /// Joins with `code`, as `client`.
    static func join(_ client: RawClient, _ code: String) async throws -> RawClient.Answer {
        try await post(client, SyncProtocol.joinPath, ShareJoining(code: code))
    }

    /// The operations of a log that `client` pulls, with `query`.
    static func pulled(_ client: RawClient, query: String? = nil) async throws -> [SyncOperation] {
        let answer = try await client.send("GET", SyncProtocol.operationsPath, query: query)
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        return try OperationFile.decode(answer.body).operations
    }

    @Test("An invite joins one person, once, in its role; members and shared lists are listed for members only")
    func invitesAndMembers() async throws {
        let fixture = try ServerFixture()
        let server = try fixture.startServer()
        let (alice, bob, carol, dave) = (
            RawClient(server: server, token: try fixture.user("alice")), RawClient(server: server, token: try fixture.user("bob")),
            RawClient(server: server, token: try fixture.user("carol")), RawClient(server: server, token: try fixture.user("dave")))

        let invite = try await Self.invite(alice, to: list)
        #expect(invite.code.wholeMatch(of: /[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}/) != nil, "\(invite.code)")
        #expect(invite.role == .edit)
        #expect(abs(invite.expiresAt.timeIntervalSinceNow - 7 * 86_400) < 600, "valid for 7 days: \(invite.expiresAt)")

        let joined = try await Self.join(bob, invite.code.lowercased().replacingOccurrences(of: "-", with: " "))
        #expect(joined.status == 200, "\(String(decoding: joined.body, as: UTF8.self))")
        let shared = try SyncProtocol.decoder.decode(SharedList.self, from: joined.body)
        #expect(shared.list == list.rawValue && shared.role == .edit && shared.owner == "alice")
        let again = try await Self.join(dave, invite.code)
        #expect(again.status == 410 && again.refusal?.code == .inviteInvalid && again.refusal?.message.contains("used already") == true)

        #expect(try await Self.join(carol, try await Self.invite(alice, to: list, as: .view).code).status == 200)
        let members = try await alice.send("GET", SyncProtocol.membersPath, query: Self.query(list))
        #expect(try SyncProtocol.decoder.decode(ShareMembers.self, from: members.body).members == [
            ShareMember(user: "alice", role: .edit, owner: true), ShareMember(user: "bob", role: .edit, owner: false),
            ShareMember(user: "carol", role: .view, owner: false),
        ])
        let carols = try SyncProtocol.decoder.decode(SharedLists.self, from: try await carol.send("GET", SyncProtocol.sharesPath).body)
        #expect(carols.lists.map(\.list) == [list.rawValue] && carols.lists.first?.role == .view && carols.lists.first?.owner == "alice")
        #expect(try SyncProtocol.decoder.decode(SharedLists.self, from: try await dave.send("GET", SyncProtocol.sharesPath).body).lists.isEmpty)
        let daves = try await dave.send("GET", SyncProtocol.membersPath, query: Self.query(list))
        #expect(daves.status == 403 && daves.refusal?.code == .forbidden, "a non-member learns nothing of the list")
    }

    @Test("Bad invites and bad removals get a clear refusal, and change nothing")
    func refusals() async throws {
        let fixture = try ServerFixture()
        let server = try fixture.startServer()
        let (alice, bob, carol) = (
            RawClient(server: server, token: try fixture.user("alice")), RawClient(server: server, token: try fixture.user("bob")),
            RawClient(server: server, token: try fixture.user("carol")))

        let unknown = try await Self.join(bob, "AAAA-BBBB-CCCC")
        #expect(unknown.status == 410 && unknown.refusal?.code == .inviteInvalid && unknown.refusal?.message.contains("no invite") == true)
        let expiring = try await Self.invite(alice, to: list)
        _ = try fixture.value("UPDATE invites SET expires_at = now() - interval '1 second'")
        let expired = try await Self.join(bob, expiring.code)
        #expect(expired.status == 410 && expired.refusal?.message.contains("expired") == true)

        // The owner's own code stays unspent, for someone else.
        let own = try await Self.invite(alice, to: list)
        let joiningOwn = try await Self.join(alice, own.code)
        #expect(joiningOwn.status == 409 && joiningOwn.refusal?.code == .alreadyMember && joiningOwn.refusal?.message.contains("own") == true)
        #expect(try await Self.join(bob, own.code).status == 200)
        let twice = try await Self.join(bob, try await Self.invite(alice, to: list).code)
        #expect(twice.status == 409 && twice.refusal?.code == .alreadyMember)

        let bobInvites = try await Self.post(bob, SyncProtocol.invitePath, ShareInvitation(list: list.rawValue))
        #expect(bobInvites.status == 403 && bobInvites.refusal?.code == .forbidden, "only the owner invites")
        let removingOwner = try await Self.post(alice, SyncProtocol.removePath, ShareRemoval(list: list.rawValue, user: "alice"))
        #expect(removingOwner.status == 403 && removingOwner.refusal?.message.contains("owner cannot be removed") == true)
        let bobRemoves = try await Self.post(bob, SyncProtocol.removePath, ShareRemoval(list: list.rawValue, user: "alice"))
        #expect(bobRemoves.status == 403 && bobRemoves.refusal?.message.contains("Only the owner") == true)
        let nobody = try await Self.post(alice, SyncProtocol.removePath, ShareRemoval(list: list.rawValue, user: "carol"))
        #expect(nobody.status == 404 && nobody.refusal?.code == .notFound)
        let ownerLeaves = try await Self.post(alice, SyncProtocol.leavePath, ShareLeaving(list: list.rawValue))
        #expect(ownerLeaves.status == 403 && ownerLeaves.refusal?.message.contains("You own this shared list") == true)
        let carolLeaves = try await Self.post(carol, SyncProtocol.leavePath, ShareLeaving(list: list.rawValue))
        #expect(carolLeaves.status == 403, "carol is in no such list")
        let garbled = try await alice.send("POST", SyncProtocol.invitePath, body: Data(#"{"list":"groceries"}"#.utf8), contentType: SyncProtocol.jsonMediaType)
        #expect(garbled.status == 400 && garbled.refusal?.code == .invalidBody)
        let noList = try await alice.send("GET", SyncProtocol.membersPath)
        #expect(noList.status == 400 && noList.refusal?.code == .invalidBody)

        let members = try SyncProtocol.decoder.decode(ShareMembers.self, from: try await alice.send("GET", SyncProtocol.membersPath, query: Self.query(list)).body)
        #expect(members.members.map(\.user) == ["alice", "bob"], "nothing refused changed the members")
    }

    @Test("A shared list's log is its members' alone: edit members push, view members only pull, and the removed get 403")
    func sharedLog() async throws {
        let fixture = try ServerFixture()
        let server = try fixture.startServer()
        let (alice, bob, carol, dave) = (
            RawClient(server: server, token: try fixture.user("alice")), RawClient(server: server, token: try fixture.user("bob")),
            RawClient(server: server, token: try fixture.user("carol")), RawClient(server: server, token: try fixture.user("dave")))
        #expect(try await Self.join(bob, try await Self.invite(alice, to: list).code).status == 200)
        #expect(try await Self.join(carol, try await Self.invite(alice, to: list, as: .view).code).status == 200)
        let query = Self.query(list)

        let (alicePhone, bobPhone, carolPhone) = (ReplicaID(), ReplicaID(), ReplicaID())
        let shared = [
            Self.operation(.createList(id: list, name: "Groceries", place: nowhere, area: nil), of: alicePhone, 1),
            Self.operation(.addItem(id: item, list: list, title: "Milk", notes: "", place: nowhere), of: alicePhone, 2),
        ]
        let own = Self.operation(.addToToday(ids: [item], place: nowhere), of: alicePhone, 3)
        #expect(try await alice.push(shared, from: alicePhone, query: query).status == 200)
        #expect(try await alice.push([own], from: alicePhone).status == 200)
        let edit = Self.operation(.editItem(id: item, title: "Oat milk", notes: nil), of: bobPhone, 1, at: 10)
        #expect(try await bob.push([edit], from: bobPhone, query: query).status == 200)

        for member in [alice, bob, carol] {
            #expect(try await Self.pulled(member, query: query).map(\.id) == (shared + [edit]).map(\.id))
        }
        #expect(try await Self.pulled(bob).isEmpty, "bob's own log holds nothing of the list")
        #expect(try await Self.pulled(alice).map(\.id) == [own.id], "alice's Today stays in her own log")

        let carolEdits = try await carol.push([Self.operation(.editItem(id: item, title: "Milk", notes: nil), of: carolPhone, 1)], from: carolPhone, query: query)
        #expect(carolEdits.status == 403 && carolEdits.refusal?.code == .forbidden && carolEdits.refusal?.message.contains("view") == true)
        let acknowledgement = SyncAcknowledgement(replica: carolPhone, clock: HLCTimestamp(milliseconds: 1_790_000_000_010, counter: 0), merged: [:])
        #expect(try await carol.push([], from: carolPhone, query: query, acknowledgements: [acknowledgement]).status == 200, "a view member still says what it holds")

        let snapshot = try await bob.send("GET", SyncProtocol.snapshotPath, query: query)
        #expect(snapshot.status == 200)
        let store = try SnapshotFile.decode(snapshot.body)
        #expect(store.items.map(\.title) == ["Oat milk"] && store.lists.map(\.id).contains(list))
        #expect(try await bob.send("GET", SyncProtocol.digestPath, query: query).status == 200)

        for (path, method) in [(SyncProtocol.operationsPath, "GET"), (SyncProtocol.snapshotPath, "GET"), (SyncProtocol.digestPath, "GET"), (SyncProtocol.statePath, "GET")] {
            let answer = try await dave.send(method, path, query: query)
            #expect(answer.status == 403 && answer.refusal?.code == .forbidden, "dave, no member, reads nothing at \(path)")
        }
        let davePushes = try await dave.push([Self.operation(.editItem(id: item, title: "Beer", notes: nil), of: ReplicaID(), 1)], from: ReplicaID(), query: query)
        #expect(davePushes.status == 403)

        let removed = try await Self.post(alice, SyncProtocol.removePath, ShareRemoval(list: list.rawValue, user: "bob"))
        #expect(try SyncProtocol.decoder.decode(ShareMembers.self, from: removed.body).members.map(\.user) == ["alice", "carol"])
        #expect(try await bob.send("GET", SyncProtocol.operationsPath, query: query).status == 403, "bob gets nothing after his removal")
        let bobPushes = try await bob.push([Self.operation(.editItem(id: item, title: "Beer", notes: nil), of: bobPhone, 2)], from: bobPhone, query: query)
        #expect(bobPushes.status == 403, "and can push nothing")
        #expect(try SyncProtocol.decoder.decode(SharedLists.self, from: try await bob.send("GET", SyncProtocol.sharesPath).body).lists.isEmpty)

        let left = try await Self.post(carol, SyncProtocol.leavePath, ShareLeaving(list: list.rawValue))
        #expect(left.status == 200)
        #expect(try SyncProtocol.decoder.decode(SharedLists.self, from: left.body).lists.isEmpty)
        #expect(try await carol.send("GET", SyncProtocol.operationsPath, query: query).status == 403)
    }

    @Test("A push to a shared list that touches another list, what is one person's own, or a kind the server does not know is refused whole")
    func isolation() async throws {
        let fixture = try ServerFixture()
        let server = try fixture.startServer()
        let (alice, bob) = (RawClient(server: server, token: try fixture.user("alice")), RawClient(server: server, token: try fixture.user("bob")))
        let (other, otherItem, privateList, privateItem, tag) = (ItemList.ID(), Item.ID(), ItemList.ID(), Item.ID(), Tag.ID())
        #expect(try await Self.join(alice, try await Self.invite(bob, to: other).code).status == 200)
        let (phone, bobPhone) = (ReplicaID(), ReplicaID())
        #expect(try await bob.push([
            Self.operation(.createList(id: other, name: "Garden", place: nowhere, area: nil), of: bobPhone, 1),
            Self.operation(.addItem(id: otherItem, list: other, title: "Seeds", notes: "", place: nowhere), of: bobPhone, 2),
        ], from: bobPhone, query: Self.query(other)).status == 200)
        _ = try await Self.invite(alice, to: list)
        #expect(try await alice.push([
            Self.operation(.createList(id: list, name: "Groceries", place: nowhere, area: nil), of: phone, 1),
            Self.operation(.addItem(id: item, list: list, title: "Milk", notes: "", place: nowhere), of: phone, 2),
        ], from: phone, query: Self.query(list)).status == 200)
        #expect(try await alice.push([
            Self.operation(.createList(id: privateList, name: "Diary", place: nowhere, area: nil), of: phone, 3),
            Self.operation(.addItem(id: privateItem, list: privateList, title: "Secret", notes: "", place: nowhere), of: phone, 4),
        ], from: phone).status == 200)
        let before = try await Self.pulled(alice, query: Self.query(list)).map(\.id)

        let forged: [(String, SyncChange)] = [
            ("an item of her own list", .editItem(id: privateItem, title: "Leaked", notes: nil)),
            ("an item of another shared list", .editItem(id: otherItem, title: "Moved", notes: nil)),
            ("a move to another list", .moveItems(ids: [item], list: privateList, place: nowhere)),
            ("a move of another list's item into this one", .moveItems(ids: [otherItem], list: list, place: nowhere)),
            ("an addition to another list", .addItem(id: Item.ID(), list: other, title: "x", notes: "", place: nowhere)),
            ("an addition that reuses another list's item id", .addItem(id: otherItem, list: list, title: "x", notes: "", place: nowhere)),
            ("a place beside another list's item", .moveItems(ids: [item], list: list, place: SyncPlace(after: otherItem.entryID, before: nil))),
            ("Today", .addToToday(ids: [item], place: nowhere)),
            ("a reminder", .setReminder(ids: [item], reminder: try TimeOfDay(hour: 9, minute: 0))),
            ("tags", .changeTags(tags: [tag], items: [item], lists: [], areas: [], removing: false)),
            ("an evening", .setWhen(ids: [item], when: .on(try Day(year: 2026, month: 12, day: 1), evening: true))),
            ("the sidebar", .moveList(id: list, place: nowhere, area: nil)),
            ("a kind the server does not know", .unknown(kind: "shareCursor", json: Data(#"{"id":"x"}"#.utf8))),
        ]
        var sequence: Int64 = 5
        for (what, change) in forged {
            // A valid change first: the push is refused whole.
            let valid = Self.operation(.editItem(id: item, title: "Butter", notes: nil), of: phone, sequence)
            let answer = try await alice.push([valid, Self.operation(change, of: phone, sequence + 1)], from: phone, query: Self.query(list))
            #expect(answer.status == 422 && answer.refusal?.code == .invalidOperation && answer.refusal?.index == 1, "\(what): \(String(decoding: answer.body, as: UTF8.self))")
            sequence += 2
        }
        #expect(try await Self.pulled(alice, query: Self.query(list)).map(\.id) == before, "nothing refused was stored")
        #expect(try await Self.pulled(bob, query: Self.query(other)).count == 2, "nor reached the other list")

        let fine = [
            Self.operation(.addChecklistItem(id: ChecklistItem.ID(), item: item, title: "Lactose-free", place: nowhere), of: phone, sequence),
            Self.operation(.setWhen(ids: [item], when: .on(try Day(year: 2026, month: 12, day: 1))), of: phone, sequence + 1),
            Self.operation(.retireReplica(id: ReplicaID()), of: phone, sequence + 2),
        ]
        #expect(try await alice.push(fine, from: phone, query: Self.query(list)).status == 200, "a checklist entry, a start date and a replica's retirement are the list's")
    }

    @Test("Members pushing to a shared list at once all get through, none waiting on another's check")
    func concurrentPushes() async throws {
        let fixture = try ServerFixture()
        let server = try fixture.startServer()
        let alice = RawClient(server: server, token: try fixture.user("alice"))
        var members = [alice]
        for name in ["bob", "carol", "dave", "erin", "frank", "grace", "heidi"] {
            let member = RawClient(server: server, token: try fixture.user(name))
            #expect(try await Self.join(member, try await Self.invite(alice, to: list).code).status == 200)
            members.append(member)
        }
        let list = list
        let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
            for member in members {
                group.addTask {
                    let phone = ReplicaID()
                    var statuses: [Int] = []
                    for round in 0..<4 {
                        let operations = (1...20).map { index in
                            Self.operation(
                                .addItem(id: Item.ID(), list: list, title: "\(round).\(index)", notes: "", place: SyncPlace(after: nil, before: nil)),
                                of: phone, Int64(round * 20 + index))
                        }
                        statuses.append(try await member.push(operations, from: phone, query: Self.query(list)).status)
                    }
                    return statuses
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(statuses == Array(repeating: 200, count: 32), "\(statuses)")
        #expect(try fixture.value("SELECT count(*) FROM log_entities") == "641", "the list and every item, each once")
    }

    @Test("HTTPSyncRemote shares a list: invite, join, members, removal and leaving, and a shared list's log as a remote of its own")
    func library() async throws {
        let fixture = try ServerFixture()
        let server = try fixture.startServer()
        let (alice, bob, carol) = (
            HTTPSyncRemote(server: server, token: try fixture.user("alice")), HTTPSyncRemote(server: server, token: try fixture.user("bob")),
            HTTPSyncRemote(server: server, token: try fixture.user("carol")))
        let invite = try await alice.invite(to: list.rawValue)
        let joined = try await bob.join(code: invite.code)
        #expect(joined.list == list.rawValue && joined.owner == "alice" && joined.role == .edit)
        _ = try await carol.join(code: try await alice.invite(to: list.rawValue, as: .view).code)
        #expect(try await bob.sharedLists().map(\.list) == [list.rawValue])
        #expect(try await bob.members(of: list.rawValue).map(\.user) == ["alice", "bob", "carol"])
        await #expect(throws: SyncServerError.self) { try await bob.join(code: invite.code) }
        do {
            _ = try await carol.remove("bob", from: list.rawValue)
            Issue.record("carol, no owner, removed bob")
        } catch let refusal as SyncServerError {
            #expect(refusal.code == .forbidden && refusal.errorDescription?.contains("shared list") == true)
        }

        // The list's log, as a remote: its own identity, cursor and snapshot.
        let shared = alice.sharedList(list.rawValue)
        #expect(shared.identity == "\(alice.identity)/lists/\(list.rawValue.uuidString.lowercased())")
        let phone = ReplicaID()
        let operations = [
            Self.operation(.createList(id: list, name: "Groceries", place: nowhere, area: nil), of: phone, 1),
            Self.operation(.addItem(id: item, list: list, title: "Milk", notes: "", place: nowhere), of: phone, 2),
        ]
        _ = try await shared.push(operations, from: phone, through: SyncCursor(rawValue: "1"), acknowledgements: [])
        #expect(try await bob.sharedList(list.rawValue).pull(after: nil, limit: 100).operations.map(\.id) == operations.map(\.id))
        #expect(try await bob.pull(after: nil, limit: 100).operations.isEmpty, "bob's own log holds none of it")
        #expect(try await carol.sharedList(list.rawValue).snapshot().snapshot.items.map(\.title) == ["Milk"])
        #expect(try await carol.sharedList(list.rawValue).state(for: ReplicaID()).held[phone] == 2)
        await #expect(throws: SyncServerError.self, "a view member pushes nothing") {
            _ = try await carol.sharedList(list.rawValue).push(
                [Self.operation(.editItem(id: item, title: "Beer", notes: nil), of: ReplicaID(), 1)], from: ReplicaID(), through: SyncCursor(rawValue: "1"),
                acknowledgements: [])
        }

        #expect(try await alice.remove("carol", from: list.rawValue).map(\.user) == ["alice", "bob"])
        #expect(try await bob.leave(list.rawValue).isEmpty)
        await #expect(throws: SyncServerError.self, "bob, gone, reads nothing of the list") {
            _ = try await bob.sharedList(list.rawValue).pull(after: nil, limit: 100)
        }
    }

    @Test("A push to a shared list wakes its members' long polls, through another server process")
    func longPoll() async throws {
        let fixture = try ServerFixture()
        let (first, second) = (try fixture.startServer(), try fixture.startServer())
        let (aliceToken, bobToken) = (try fixture.user("alice"), try fixture.user("bob"))
        let (alice, bob) = (RawClient(server: first, token: aliceToken), RawClient(server: second, token: bobToken))
        #expect(try await Self.join(bob, try await Self.invite(alice, to: list).code).status == 200)
        let state = try await bob.send("GET", SyncProtocol.statePath, query: Self.query(list))
        let head = try SyncProtocol.decoder.decode(SyncServerState.self, from: state.body).head
        let clock = ContinuousClock()
        let start = clock.now
        async let poll = bob.send("GET", SyncProtocol.operationsPath, query: "\(Self.query(list))&after=\(head.rawValue)&wait=20")
        try await Task.sleep(for: .milliseconds(500))
        let phone = ReplicaID()
        let operations = [Self.operation(.createList(id: list, name: "Groceries", place: nowhere, area: nil), of: phone, 1)]
        #expect(try await alice.push([Self.operation(.addToToday(ids: [], place: nowhere), of: phone, 1)], from: phone).status == 200)
        #expect(try await alice.push(operations, from: ReplicaID(), query: Self.query(list)).status == 200)
        let woken = try await poll
        #expect(start.duration(to: clock.now) < .seconds(10), "woken by the push to the list, not by the time running out")
        #expect(try OperationFile.decode(woken.body).operations.map(\.id) == operations.map(\.id))
    }
}
