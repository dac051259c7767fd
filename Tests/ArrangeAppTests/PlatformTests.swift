import Foundation
import Testing

/// The library products build for the platforms that apps ship on, iOS 17 and macOS 14 on:
/// Linux cannot build for them, so a test reads the sources for what needs more.
@Suite("The libraries stay within the platforms apps ship on")
struct PlatformTests {
    /// The package's folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The targets of the package's library products, as the manifest names them.
    static func libraryTargets() throws -> [String] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        return manifest.matches(of: /\.library\(name: "[^"]+", targets: \[([^\]]*)\]\)/).flatMap { match in
            match.output.1.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
        }
    }

    @Test("No library target uses Synchronization, whose Mutex needs iOS 18 and macOS 15")
    func noSynchronization() throws {
        let targets = try Self.libraryTargets()
        #expect(Set(["ArrangeModel", "ArrangeStore", "ArrangeOrdering", "ArrangeSQLite", "ArrangeIntents", "ArrangeSync"]).isSubset(of: targets))
        var offending: [String] = []
        for target in targets {
            let folder = Self.root.appendingPathComponent("Sources/\(target)")
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            #expect(files.contains { $0.pathExtension == "swift" }, "\(target) has sources")
            for file in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                if text.contains("import Synchronization") || text.contains("Mutex<") || text.contains("Mutex(") {
                    offending.append("\(target)/\(file.lastPathComponent)")
                }
            }
        }
        #expect(offending.isEmpty, "\(offending)")
    }
}
