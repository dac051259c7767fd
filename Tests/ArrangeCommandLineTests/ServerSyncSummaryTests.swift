@testable import ArrangeCommandLine
import ArrangeModel
import ArrangeSync
import ArrangeSyncHTTPCore
import Testing

@Suite("What arrange sync URL says")
struct ServerSyncSummaryTests {
    @Test("A corrected clock is told in words: how far off, which way, and when it is right again")
    func clockCorrection() {
        var report = SyncReport()
        report.clockCorrection = -365 * 24 * 3_600 * 1_000
        #expect(ServerSyncSummary(server: "http://h", report: ServerSyncReport(own: report)).summary.hasSuffix(
            " This device's clock is 365 days ahead of the server's: this database tells the time by the server's from now on."))
        report.clockCorrection = 45_000
        #expect(ServerSyncSummary(server: "http://h", report: ServerSyncReport(own: report)).summary.contains("clock is 45 seconds behind the server's"))
        report.clockCorrection = 0
        #expect(ServerSyncSummary(server: "http://h", report: ServerSyncReport(own: report)).summary.contains("agrees with the server's again"))
        report.clockCorrection = nil
        #expect(!ServerSyncSummary(server: "http://h", report: ServerSyncReport(own: report)).summary.contains("clock"))
    }

    @Test("Shared lists count in what was sent and received, and are named; a list left is told kept")
    func sharedLists() {
        var own = SyncReport()
        own.pushed = 2
        var groceries = SyncReport()
        groceries.pushed = 3
        groceries.received.new = 4
        var report = ServerSyncReport(own: own)
        report.shared = [ItemList.ID(): groceries]
        let summary = ServerSyncSummary(server: "http://h", report: report)
        #expect((summary.sent, summary.received, summary.sharedLists) == (5, 4, 1))
        #expect(summary.summary.contains("That includes 1 shared list."))
        #expect(!summary.summary.contains("no longer"))
        report.shares.kept = [ItemList.ID(): ItemList.ID()]
        #expect(ServerSyncSummary(server: "http://h", report: report).summary.contains("You are no longer in 1 shared list: what it held stays here as your own."))
    }

    @Test("Spans read as a person says them, rounded down")
    func spokenDurations() {
        #expect(spokenDuration(1_000) == "1 second")
        #expect(spokenDuration(119_999) == "119 seconds")
        #expect(spokenDuration(120_000) == "2 minutes")
        #expect(spokenDuration(3 * 3_600_000 + 1) == "3 hours")
        #expect(spokenDuration(2 * 86_400_000) == "2 days")
    }
}
