@testable import ArrangeCommandLine
import ArrangeSync
import Testing

@Suite("What arrange sync URL says")
struct ServerSyncSummaryTests {
    @Test("A corrected clock is told in words: how far off, which way, and when it is right again")
    func clockCorrection() {
        var report = SyncReport()
        report.clockCorrection = -365 * 24 * 3_600 * 1_000
        #expect(ServerSyncSummary(server: "http://h", report: report).summary.hasSuffix(
            " This device's clock is 365 days ahead of the server's: this database tells the time by the server's from now on."))
        report.clockCorrection = 45_000
        #expect(ServerSyncSummary(server: "http://h", report: report).summary.contains("clock is 45 seconds behind the server's"))
        report.clockCorrection = 0
        #expect(ServerSyncSummary(server: "http://h", report: report).summary.contains("agrees with the server's again"))
        report.clockCorrection = nil
        #expect(!ServerSyncSummary(server: "http://h", report: report).summary.contains("clock"))
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
