import Foundation
import Testing

/// The DocC articles' code compiles: every Swift block of every article stands, line for line,
/// in a source of this target, or, for an article that walks through the package's own code,
/// in one of its sources; but those that need an Apple framework Linux lacks (SwiftUI, App
/// Intents), which say so on their first line.
@Suite("The articles' code compiles")
struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// How a block that needs an Apple framework begins.
    static let appleOnly = "// Apple platforms only:"

    /// The Swift blocks of a Markdown text, each as its lines.
    static func swiftBlocks(of text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current ?? [])
                current = nil
            } else {
                current?.append(String(line))
            }
        }
        return blocks
    }

    /// The lines without their indentation, empty ones left out: a block indented otherwise in
    /// the article than in a function still matches.
    static func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func files(under folder: String, extension pathExtension: String) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
        return (enumerator?.compactMap { $0 as? URL } ?? []).filter { $0.pathExtension == pathExtension }
    }

    @Test("Every Swift block of the articles is compiled code of this target or of the package, or says it needs an Apple framework")
    func blocksCompile() throws {
        let sources = try (Self.files(under: "Tests/ArrangeAppTests", extension: "swift") + Self.files(under: "Sources", extension: "swift")).map { file in
            Self.normalized(try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n"))
        }
        let articles = Self.files(under: "Sources", extension: "md").filter { $0.deletingLastPathComponent().pathExtension == "docc" }
        #expect(articles.count >= 6)
        var compiled = 0
        var appleOnly = 0
        for article in articles {
            for block in Self.swiftBlocks(of: try String(contentsOf: article, encoding: .utf8)) {
                let lines = Self.normalized(block)
                if lines.first?.hasPrefix(Self.appleOnly) == true {
                    appleOnly += 1
                    continue
                }
                let found = sources.contains { source in
                    source.count >= lines.count && (0...(source.count - lines.count)).contains { Array(source[$0..<$0 + lines.count]) == lines }
                }
                #expect(found, "\(article.lastPathComponent): this block is in no source of ArrangeAppTests or of the package:\n\(block.joined(separator: "\n"))")
                compiled += 1
            }
        }
        #expect(compiled >= 5 && appleOnly >= 3, "\(compiled) blocks compiled, \(appleOnly) for Apple platforms only")
    }

    @Test("A block is found only where its lines stand together, in order")
    func matching() {
        let block = Self.swiftBlocks(of: "Text.\n```swift\nlet a = 1\n    let b = 2\n```\nMore.")
        #expect(block == [["let a = 1", "    let b = 2"]])
        #expect(Self.normalized(block[0]) == ["let a = 1", "let b = 2"])
        #expect(Self.swiftBlocks(of: "```sql\nSELECT 1\n```").isEmpty)
    }
}
