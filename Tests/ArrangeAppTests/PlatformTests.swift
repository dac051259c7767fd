import Foundation
import Testing

/// The package builds for the platforms that apps ship on, iOS 17 and macOS 14 on. Linux cannot
/// build for them, so these tests read the manifests, ours and our dependencies', and our sources
/// for what needs more.
@Suite("The package stays within the platforms apps ship on")
struct PlatformTests {
    /// The package's folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The oldest version of each platform the package supports, as the manifest spells them.
    static let minimums: [String: [Int]] = ["macOS": [14], "iOS": [17], "watchOS": [10], "tvOS": [17], "visionOS": [1]]

    static func manifest() throws -> String {
        try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    }

    /// The targets of the package's library products, as the manifest names them.
    static func libraryTargets() throws -> [String] {
        try manifest().matches(of: /\.library\(name: "[^"]+", targets: \[([^\]]*)\]\)/).flatMap { match in
            match.output.1.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
        }
    }

    /// The versions a manifest's `platforms:` declares: `.macOS(.v10_15)` and `.iOS("17.0")` alike.
    static func declaredPlatforms(in manifest: String) -> [String: [Int]] {
        guard let list = manifest.firstMatch(of: /platforms:\s*\[([^\]]*)\]/)?.output.1 else { return [:] }
        var platforms: [String: [Int]] = [:]
        for match in list.matches(of: /\.(\w+)\(\s*(?:\.v([\d_]+)|"([\d.]+)")\s*\)/) {
            let digits = match.output.2.map { $0.split(separator: "_") } ?? match.output.3.map { $0.split(separator: ".") } ?? []
            platforms[String(match.output.1)] = digits.compactMap { Int($0) }
        }
        return platforms
    }

    /// What of a dependency's manifest asks more than `minimums`: a platform it declares newer,
    /// or an availability macro for the whole of its API that names only newer versions (as
    /// swift-configuration's "Configuration 1.0" does). Macros of the standard library's
    /// versions (`SwiftStdlib 6.0`) mark single declarations, and are left alone.
    static func problems(inDependencyManifest manifest: String, named name: String) -> [String] {
        var problems: [String] = []
        for (platform, version) in declaredPlatforms(in: manifest) {
            if let minimum = minimums[platform], minimum.lexicographicallyPrecedes(version.trimmingTrailingZeros()) {
                problems.append("\(name) declares \(platform) \(version.map(String.init).joined(separator: "."))")
            }
        }
        for macro in manifest.matches(of: /AvailabilityMacro=([^:"]+):([^"]+)"/) where !macro.output.1.hasPrefix("SwiftStdlib") {
            let versions = macro.output.2.matches(of: /(macOS|iOS|watchOS|tvOS|visionOS) ([\d.]+)/).compactMap { match -> Bool? in
                guard let minimum = minimums[String(match.output.1)] else { return nil }
                return minimum.lexicographicallyPrecedes(match.output.2.split(separator: ".").compactMap { Int($0) }.trimmingTrailingZeros())
            }
            if !versions.isEmpty, versions.allSatisfy({ $0 }) {
                problems.append("\(name)'s API is marked \(macro.output.2.trimmingCharacters(in: .whitespaces)) (\(macro.output.1))")
            }
        }
        return problems
    }

    @Test("The manifest declares iOS 17, macOS 14, watchOS 10, tvOS 17 and visionOS 1")
    func declaredMinimums() throws {
        #expect(Self.declaredPlatforms(in: try Self.manifest()) == Self.minimums)
    }

    @Test("No dependency asks more than those minimums, through its platforms or an availability macro")
    func dependencies() throws {
        let packages = Set(try Self.manifest().matches(of: /\.product\(name: "[^"]+", package: "([^"]+)"\)/).map { String($0.output.1) })
        #expect(packages.isSuperset(of: ["GRDB.swift", "swift-collections", "swift-crypto", "swift-argument-parser", "hummingbird"]))
        var problems: [String] = []
        for package in packages.sorted() {
            let file = Self.root.appendingPathComponent(".build/checkouts/\(package)/Package.swift")
            let manifest = try #require(try? String(contentsOf: file, encoding: .utf8), "\(package) is checked out in .build")
            problems += Self.problems(inDependencyManifest: manifest, named: package)
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("The check finds what would raise the minimums: swift-configuration's macro, a newer platform")
    func checkFindsProblems() {
        let configuration = #"""
            .enableExperimentalFeature("AvailabilityMacro=Configuration 1.0:macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0"),
            """#
        #expect(Self.problems(inDependencyManifest: configuration, named: "swift-configuration").count == 1)
        #expect(Self.problems(inDependencyManifest: #"platforms: [.macOS(.v15), .iOS(.v13)],"#, named: "newer") == ["newer declares macOS 15"])
        #expect(Self.problems(inDependencyManifest: #"platforms: [.macOS("14.0"), .iOS(.v17)],"#, named: "same").isEmpty)
        let hummingbird = #"""
            .enableExperimentalFeature("AvailabilityMacro=hummingbird 2.0:macOS 14.0, iOS 17.0, tvOS 17.0, visionOS 1.0")
            .enableExperimentalFeature("AvailabilityMacro=SwiftStdlib 6.0:macOS 15.0, iOS 18.0")
            """#
        #expect(Self.problems(inDependencyManifest: hummingbird, named: "hummingbird").isEmpty)
    }

    /// What in a source needs more than the minimums: `Synchronization` (its `Mutex` and
    /// `Atomic` need iOS 18 and macOS 15), and availability that names a newer version.
    static var newerThanMinimums: [(String, Regex<Substring>)] { [
        ("Synchronization", /import Synchronization|\bMutex[<(]|\bAtomic</),
        ("availability of macOS 15 or later", /[@#]available\([^)]*macOS (?:1[5-9]|[2-9]\d)/),
        ("availability of iOS 18 or later", /[@#]available\([^)]*iOS (?:1[89]|[2-9]\d)/),
        ("String(validating:), macOS 15", /String\(validating:/),
    ] }

    @Test("No target's source uses an API newer than the minimums")
    func sources() throws {
        #expect(Set(["ArrangeModel", "ArrangeStore", "ArrangeOrdering", "ArrangeSQLite", "ArrangeIntents", "ArrangeSync"]).isSubset(of: try Self.libraryTargets()))
        let sources = Self.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let swiftFiles = files.filter { $0.pathExtension == "swift" }
        #expect(swiftFiles.count > 100)
        var offending: [String] = []
        for file in swiftFiles {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (what, pattern) in Self.newerThanMinimums where text.contains(pattern) {
                offending.append("\(file.deletingLastPathComponent().lastPathComponent)/\(file.lastPathComponent): \(what)")
            }
        }
        #expect(offending.isEmpty, "\(offending)")
        #expect("import Synchronization\nlet lock = Mutex(0)".contains(Self.newerThanMinimums[0].1), "the pattern finds what it looks for")
    }
}

extension Array where Element == Int {
    /// The version without its trailing zeros: 15.0 compares as 15.
    func trimmingTrailingZeros() -> [Int] {
        var version = self
        while version.count > 1, version.last == 0 { version.removeLast() }
        return version
    }
}
