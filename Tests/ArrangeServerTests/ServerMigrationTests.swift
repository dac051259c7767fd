@testable import ArrangeServer
import ArrangeModel
import ArrangeSync
import ArrangeSyncHTTPCore
import Foundation
import Testing

/// A database of an older arrange-server, migrated by this one, keeps every user's log.
@Suite("arrange-server migrates an older database")
struct ServerMigrationTests {
    @Test("Version 3's users, tokens, logs and folds become version 4's logs, and sync on as before")
    func fromVersion3() async throws {
        let fixture = try ServerFixture()
        // The database as version 3 left it: alice with two operations, and a fold.
        var sql = ["DROP SCHEMA public CASCADE", "CREATE SCHEMA public",
                   "CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"]
        for (index, migration) in ServerDatabase.migrations.prefix(3).enumerated() {
            sql += migration.statements
            sql.append("INSERT INTO schema_migrations (version, name) VALUES (\(index + 1), '\(migration.name)')")
        }
        let token = "an-old-token-of-alices"
        let replica = ReplicaID()
        let operations = ServerTests.operations(2, of: replica)
        sql.append("INSERT INTO users (id, name, head) VALUES (7, 'alice', 2)")
        sql.append("SELECT setval('users_id_seq', 7)")
        sql.append("INSERT INTO tokens (id, user_id, hash) VALUES ('\(UUID().uuidString)', 7, sha256(convert_to('\(token)', 'UTF8')))")
        for (position, operation) in operations.enumerated() {
            let body = String(decoding: try operation.json(), as: UTF8.self).replacingOccurrences(of: "'", with: "''")
            sql.append("""
                INSERT INTO operations (user_id, position, id, replica, sequence, body, digest)
                VALUES (7, \(position + 1), '\(operation.id.rawValue.uuidString)', '\(replica.rawValue.uuidString)', \(operation.sequence), '\(body)', sha256(convert_to('\(body)', 'UTF8')))
                """)
        }
        sql.append("INSERT INTO folds (user_id, replica, folded_position) VALUES (7, '\(UUID().uuidString)', 0)")
        _ = try fixture.value(sql.joined(separator: ";\n"))

        #expect(try fixture.run(["migrate"]).contains("v4"))
        #expect(try fixture.value("SELECT id || ' ' || owner_id || ' ' || head || ' ' || (list IS NULL) FROM logs") == "7 7 2 true")
        #expect(try fixture.value("SELECT count(*) FROM operations WHERE log_id = 7") == "2")
        #expect(try fixture.value("SELECT count(*) FROM folds WHERE log_id = 7") == "1")

        // Alice's token reads her log as before; a user added now gets a log of their own.
        let server = try fixture.startServer()
        let alice = RawClient(server: server, token: token)
        let page = try OperationFile.decode(try await alice.send("GET", SyncProtocol.operationsPath).body)
        #expect(page.operations.map(\.id) == operations.map(\.id))
        let bob = RawClient(server: server, token: try fixture.user("bob"))
        #expect(try OperationFile.decode(try await bob.send("GET", SyncProtocol.operationsPath).body).operations.isEmpty)
        #expect(try await bob.push(ServerTests.operations(1, of: ReplicaID()), from: ReplicaID()).status == 200)
        #expect(try fixture.value("SELECT count(DISTINCT id) FROM logs") == "2")
        #expect(try OperationFile.decode(try await alice.send("GET", SyncProtocol.operationsPath).body).operations.count == 2, "bob's push went to his log")
    }
}
