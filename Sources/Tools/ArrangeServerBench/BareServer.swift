import ArrangeModel
import ArrangeSync
import Foundation
import Hummingbird

/// The ceiling of the server benchmark: Hummingbird doing only what a request needs of HTTP.
/// A push's body is read whole, as the server reads it, and answered with an answer of the
/// same shape; a pull is answered with one page of operations made before the server starts.
struct BareServer {
    let port: Int
    let pageOperations: Int

    func run() async throws {
        let replica = ReplicaID()
        let base = HybridLogicalClock.systemMilliseconds()
        let operations = (1...Int64(pageOperations)).map { SyncOperation.newItem(of: replica, sequence: $0, at: base + $0) }
        let page = ByteBuffer(bytes: try OperationFile.encode(OperationFile.Contents(
            operations: operations, cursor: SyncCursor(rawValue: "bare:\(pageOperations)"), isComplete: true)))
        let router = Router()
        router.post("/v1/push") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let lines = body.readableBytesView.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"accepted":\#(max(0, lines - 2)),"received":"bare"}"#)))
        }
        router.get("/v1/ops") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: ResponseBody(byteBuffer: page))
        }
        let app = Application(router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }
}
