import ArgumentParser
import ArrangeCommandLine
import Foundation
import Testing

@Suite("Settings and locations")
struct SettingsTests {
    /// `Configs/arrange.json`, found from this file's path.
    static let documentedDefaults = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Configs/arrange.json")

    @Test("The built-in defaults are those Configs/arrange.json documents")
    func defaultsMatchTheFile() throws {
        let data = try Data(contentsOf: Self.documentedDefaults)
        let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(file.keys) == Set(Settings.keys))
        let defaults = Settings.defaults
        #expect((file["endGap"] as? NSNumber)?.int64Value == defaults.endGap)
        #expect((file["minimumGap"] as? NSNumber)?.int64Value == defaults.minimumGap)
        #expect(file["jitter"] as? Bool == defaults.jitter)
        #expect(file["defaultList"] as? String == defaults.defaultList)
        #expect((file["historySize"] as? NSNumber)?.intValue == defaults.historySize)
    }

    @Test("Loading Configs/arrange.json as the user file gives the defaults")
    func documentedFileLoads() async throws {
        let settings = try Settings.load(overrides: SettingsOverrides(), environment: [:], userFile: Self.documentedDefaults)
        var expected = Settings.defaults
        expected.defaultListIsChosen = true
        #expect(settings == expected, "the file names the default list, so a person chose it")
    }

    @Test("The user file overrides the defaults, the environment the file, flags everything")
    func precedence() async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("config.json")
            try Data(#"{"endGap": 1000, "minimumGap": 5, "defaultList": "Today", "historySize": 7}"#.utf8).write(to: file)
            let environment = ["ARRANGE_MINIMUM_GAP": "10", "ARRANGE_JITTER": "true", "ARRANGE_HISTORY_SIZE": "8"]
            let settings = try Settings.load(overrides: SettingsOverrides().with(Setting.historySize, 9), environment: environment, userFile: file)
            #expect(settings == Settings(endGap: 1000, minimumGap: 10, jitter: true, defaultList: "Today", historySize: 9, defaultListIsChosen: true))

            let missing = folder.appendingPathComponent("none.json")
            #expect(try Settings.load(overrides: SettingsOverrides(), environment: [:], userFile: missing) == .defaults)
        }
    }

    @Test("Invalid settings give one clear message", arguments: [
        (#"{"endGap": "wide"}"#, [:], "endGap must be a whole number; check --end-gap, ARRANGE_END_GAP and"),
        ("{}", ["ARRANGE_JITTER": "maybe"], "jitter must be true or false; check --jitter, ARRANGE_JITTER and"),
        (#"{"jitter": 1}"#, [:], "jitter must be true or false; check --jitter, ARRANGE_JITTER and"),
        (#"{"endGap": 1.5}"#, [:], "endGap must be a whole number; check --end-gap, ARRANGE_END_GAP and"),
        (#"{"historySize": 10}"#, ["ARRANGE_HISTORY_SIZE": "ten"], "historySize must be a whole number; check --history-size, ARRANGE_HISTORY_SIZE and"),
        (#"{"endgap": 5}"#, [:], "has an unknown key 'endgap'; the keys are endGap, minimumGap, jitter, defaultList, historySize."),
        ("{not json", [:], "is not valid JSON."),
        ("[1]", [:], "must hold a JSON object."),
        (#"{"minimumGap": 0}"#, [:], "The minimum gap must be at least 1; it is 0."),
        (#"{"historySize": -1}"#, [:], "historySize must be 0 or more; it is -1."),
        (#"{"defaultList": "  "}"#, [:], "defaultList: The list name is empty"),
    ] as [(String, [String: String], String)])
    func invalid(file text: String, environment: [String: String], message: String) async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("config.json")
            try Data(text.utf8).write(to: file)
            do throws(CommandLineError) {
                _ = try Settings.load(overrides: SettingsOverrides(), environment: environment, userFile: file)
                Issue.record("expected an error")
            } catch {
                #expect(error.description.hasPrefix("invalid configuration: "))
                #expect(error.description.contains(message), "\(error.description)")
                #expect(!error.description.contains("\n"))
                #expect(error.exitCode.rawValue == 78)
            }
        }
    }

    @Test("Locations follow --db, ARRANGE_DB and the XDG rules")
    func locations() {
        let home = ["HOME": "/home/ann"]
        let plain = Locations(database: nil, environment: home)
        #expect(plain.database.path == "/home/ann/.local/share/arrange/arrange.sqlite")
        #expect(plain.userConfiguration.path == "/home/ann/.config/arrange/config.json")
        #expect(plain.history.path == "/home/ann/.local/share/arrange/arrange.sqlite.history")

        let xdg = Locations(database: nil, environment: home.merging(["XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "/conf"]) { $1 })
        #expect(xdg.database.path == "/data/arrange/arrange.sqlite")
        #expect(xdg.userConfiguration.path == "/conf/arrange/config.json")
        #expect(Locations(database: nil, environment: home.merging(["XDG_DATA_HOME": "relative"]) { $1 }).database == plain.database)

        #expect(Locations(database: nil, environment: home.merging(["ARRANGE_DB": "/tmp/a.db"]) { $1 }).database.path == "/tmp/a.db")
        #expect(Locations(database: "/tmp/b.db", environment: home.merging(["ARRANGE_DB": "/tmp/a.db"]) { $1 }).database.path == "/tmp/b.db")
    }
}
