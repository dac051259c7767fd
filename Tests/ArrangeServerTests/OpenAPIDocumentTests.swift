import ArrangeModel
import ArrangeSync
import ArrangeSyncHTTP
import Foundation
import Testing
import Yams

/// `openapi.yaml` says what the code does: its paths, parameters, codes and bodies.
@Suite("openapi.yaml describes protocol version 1 as the code speaks it")
struct OpenAPIDocumentTests {
    /// The document, as YAML reads it.
    let document: [String: Any]

    init() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Sync/ArrangeSyncHTTPCore/openapi.yaml")
        document = try #require(try Yams.load(yaml: String(contentsOf: path, encoding: .utf8)) as? [String: Any])
    }

    @Test("Its paths and methods are the endpoints of SyncProtocol")
    func paths() throws {
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        #expect(paths.mapValues { Set($0.keys) } == SyncProtocol.methods.mapValues { [$0.lowercased()] })
        #expect(try parameters(of: SyncProtocol.operationsPath) == ["after", "limit", "wait", SyncProtocol.listParameter])
        #expect(try parameters(of: SyncProtocol.statePath) == ["replica", SyncProtocol.listParameter])
        for path in [SyncProtocol.snapshotPath, SyncProtocol.digestPath, SyncProtocol.membersPath] {
            #expect(try parameters(of: path) == [SyncProtocol.listParameter], "\(path)")
        }
        #expect(try parameters(of: SyncProtocol.pushPath, method: "post") == [SyncProtocol.listParameter])
        let snapshot = try #require((paths[SyncProtocol.snapshotPath]?["get"] as? [String: Any])?["responses"] as? [String: Any])
        let headers = try #require((snapshot["200"] as? [String: Any])?["headers"] as? [String: Any])
        #expect(headers.keys.contains(SyncProtocol.cursorHeader))
    }

    @Test("Its refusal codes are SyncServerError's, and each status it answers is one of theirs")
    func refusals() throws {
        let error = try schema("SyncServerError")
        let codes = try #require((error["properties"] as? [String: [String: Any]])?["code"]?["enum"] as? [String])
        #expect(codes == SyncServerError.Code.allCases.map(\.rawValue))

        let statuses = Set(SyncServerError.Code.allCases.map { String($0.status) } + ["200"])
        let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
        var answered: Set<String> = []
        for (path, methods) in paths {
            for (method, operation) in methods {
                let responses = try #require(operation["responses"] as? [String: Any])
                #expect(Set(responses.keys).isSubset(of: statuses), "\(method) \(path): \(responses.keys.sorted())")
                answered.formUnion(responses.keys)
            }
        }
        // Not answered by any endpoint: notFound and methodNotAllowed (no endpoint there, or not
        // for that method).
        let unanswered: Set<SyncServerError.Code> = [.notFound, .methodNotAllowed]
        for code in SyncServerError.Code.allCases where !unanswered.contains(code) {
            #expect(answered.contains(String(code.status)), "\(code) (\(code.status)) is answered somewhere")
        }
    }

    @Test("Each JSON body's schema has the fields the code encodes, and requires those it always writes")
    func bodies() throws {
        let cursor = SyncCursor(rawValue: "c")
        let full = SyncServerState(
            head: cursor, held: [:], folded: [:], foldedTips: [:], coordinatesFolding: false, received: cursor, serverTime: 1)
        var bare = full
        bare.received = nil
        try check("SyncServerState", full: full, bare: bare)
        try check("SyncPushAnswer", full: SyncPushAnswer(accepted: 1, received: cursor), bare: SyncPushAnswer(accepted: 1, received: nil))
        try check("SyncStateDigest", full: SyncStateDigest(cursor: cursor, digest: "d"), bare: SyncStateDigest(cursor: cursor, digest: "d"))
        try check("DevicePairing", full: DevicePairing(code: "K7QM-2XPA", label: "phone"), bare: DevicePairing(code: "K7QM-2XPA"))
        try check("DeviceToken", full: DeviceToken(token: "t", tokenID: "i"), bare: DeviceToken(token: "t", tokenID: "i"))
        try check(
            "SyncServerError", full: SyncServerError(.clockSkew, "m", index: 0, serverTime: 1, retryAfter: 1),
            bare: SyncServerError(.clockSkew, "m"))
        let list = UUID()
        try check("ShareInvitation", full: ShareInvitation(list: list, role: .view), bare: ShareInvitation(list: list))
        let invite = ShareInvite(code: "K7QM-2XPA-9RTV", expiresAt: Date(timeIntervalSince1970: 1_790_000_000), role: .edit)
        try check("ShareInvite", full: invite, bare: invite)
        #expect(try SyncProtocol.decoder.decode(ShareInvite.self, from: SyncProtocol.encoder.encode(invite)) == invite)
        #expect(String(decoding: try SyncProtocol.encoder.encode(invite), as: UTF8.self).contains(#""expiresAt":"2026-09-21T"#))
        try check("ShareJoining", full: ShareJoining(code: "K7QM-2XPA-9RTV"), bare: ShareJoining(code: "K7QM-2XPA-9RTV"))
        let shared = SharedList(list: list, role: .edit, owner: "alice", owned: true, head: cursor)
        try check("SharedList", full: shared, bare: shared)
        try check("SharedLists", full: SharedLists(lists: [shared]), bare: SharedLists(lists: []))
        let member = ShareMember(user: "bob", role: .view, owner: false)
        try check("ShareMember", full: member, bare: member)
        try check("ShareMembers", full: ShareMembers(members: [member]), bare: ShareMembers(members: []))
        try check("ShareRemoval", full: ShareRemoval(list: list, user: "bob"), bare: ShareRemoval(list: list, user: "bob"))
        try check("ShareLeaving", full: ShareLeaving(list: list), bare: ShareLeaving(list: list))
        let roles = try #require(try schema("ShareRole")["enum"] as? [String])
        #expect(roles == ShareRole.allCases.map(\.rawValue))
        try check("Refusal", full: SyncServerError.Body(error: SyncServerError(.clockSkew, "m")), bare: SyncServerError.Body(error: SyncServerError(.clockSkew, "m")))
    }

    // MARK: Reading the document

    private func schema(_ name: String) throws -> [String: Any] {
        try #require(((document["components"] as? [String: Any])?["schemas"] as? [String: Any])?[name] as? [String: Any], "schema \(name)")
    }

    /// The names of the parameters of `method` at `path`, those given by reference included.
    private func parameters(of path: String, method: String = "get") throws -> Set<String> {
        let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
        let parameters = try #require(paths[path]?[method]?["parameters"] as? [[String: Any]], "\(method) \(path) has parameters")
        let shared = (document["components"] as? [String: Any])?["parameters"] as? [String: [String: Any]] ?? [:]
        return Set(try parameters.map { parameter in
            if let reference = parameter["$ref"] as? String {
                return try #require(shared[String(reference.split(separator: "/").last ?? "")]?["name"] as? String, "\(reference)")
            }
            return try #require(parameter["name"] as? String)
        })
    }

    /// Checks the schema `name` against the keys `full` (every optional field set) and `bare`
    /// (none set) encode to.
    private func check(_ name: String, full: some Encodable, bare: some Encodable) throws {
        let schema = try schema(name)
        let properties = Set(try #require(schema["properties"] as? [String: Any], "\(name) has properties").keys)
        let required = Set(schema["required"] as? [String] ?? [])
        #expect(properties == Set(try keys(of: full)), "\(name): the properties are the fields")
        #expect(required == Set(try keys(of: bare)), "\(name): it requires the fields that are always there")
    }

    private func keys(of value: some Encodable) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: try SyncProtocol.encoder.encode(value))
        return Array(try #require(object as? [String: Any]).keys)
    }
}
