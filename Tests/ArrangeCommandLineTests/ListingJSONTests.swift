import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation
import Testing

@testable import ArrangeCommandLine

/// The listing written by hand against `JSONEncoder`, byte for byte.
@Suite("The JSON of a listing")
struct ListingJSONTests {
    /// What `JSONLine` wrote for every result before the listing had a writer of its own.
    private static func encoderJSON(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Every ASCII character, escapes and slashes among them, and text beyond ASCII.
    private static let awkwardText: String = {
        var text = String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init)))
        text += "é 😀 \u{2028} \u{FEFF} Ω/\\\"'"
        return text
    }()

    @Test("A random listing is written as JSONEncoder writes it, dates from year 1, in the Julian calendar, to beyond 9999 included")
    func sameAsEncoder() throws {
        var random = SeededRandomNumberGenerator(seed: 7)
        let seconds: [TimeInterval] = [
            0, -0.5, -1.5, 1_764_151_199.9999, 951_782_400, 4_107_542_400, -62_135_596_800, -62_135_596_801, -12_212_553_600, -12_212_553_601,
            253_402_300_799.5, 253_402_300_800, -1e12, 1e13,
        ]
        let list = ItemList(
            id: ItemList.ID(), name: "Groceries / " + Self.awkwardText, createdAt: Date(timeIntervalSince1970: 12.75),
            when: .on(try Day(parsing: "2027-03-01"), evening: true), deadline: try Day(parsing: "2027-04-15"))
        let items = (0..<400).map { number in
            let created = number < seconds.count ? seconds[number] : Double.random(in: -3e10...3e11, using: &random)
            var item = Item(
                id: Item.ID(), listID: list.id,
                title: number.isMultiple(of: 3) ? Self.awkwardText : "Item \(number)",
                sortIndex: Int64.random(in: .min ... .max, using: &random),
                createdAt: Date(timeIntervalSince1970: created),
                // A quarter of a second later: often the same second, written again from the
                // last date's JSON, and sometimes the next.
                updatedAt: Date(timeIntervalSince1970: number.isMultiple(of: 4) ? created + 0.25 : Double.random(in: 0...2e9, using: &random)))
            item.notes = number.isMultiple(of: 5) ? "line\nline\t\u{8}\u{C}\u{1F}" : ""
            if number.isMultiple(of: 2) { item.completedAt = Date(timeIntervalSince1970: Double(number) * 1e6 + 0.999) }
            if number.isMultiple(of: 7) { item.todayIndex = Int64(number) - 200 }
            let markDay = Day(Date(timeIntervalSince1970: created), in: .gmt)
            item.todayMark = [nil, .added(markDay), .added(markDay, evening: true), .removed(markDay)][number % 4]
            return ItemSummary(item, listName: list.name, position: number.isMultiple(of: 2) ? nil : number)
        }
        let share = ListShare(list: list.id, role: .view, owner: Self.awkwardText, isOwned: false)
        let listing = ItemListing(list: ListSummary(list, openItems: 200, totalItems: 400, share: share), items: items)
        let expected = try Self.encoderJSON(listing)
        let written = try JSONLine.encode(listing)
        #expect(written == expected)
        // Where they differ, the first item that does, in full.
        for item in items {
            let alone = ItemListing(list: listing.list, items: [item])
            let (written, expected) = (try JSONLine.encode(alone), try Self.encoderJSON(alone))
            if written != expected {
                Issue.record("The item created at \(item.createdAt.timeIntervalSince1970) is written\n\(written)\nnot\n\(expected)")
                break
            }
        }
    }

    @Test("A listing written a chunk at a time is its line, whatever the chunk's size", arguments: [1, 7, 4096, 64 * 1024])
    func chunks(chunkSize: Int) throws {
        let list = ItemList(id: ItemList.ID(), name: "Groceries", createdAt: Date(timeIntervalSince1970: 0))
        let items = (0..<300).map { number in
            var item = Item(id: Item.ID(), listID: list.id, title: number.isMultiple(of: 3) ? Self.awkwardText : "Item \(number)", sortIndex: Int64(number) << 32,
                createdAt: Date(timeIntervalSince1970: Double(number)), updatedAt: Date(timeIntervalSince1970: Double(number)))
            item.notes = number.isMultiple(of: 5) ? String(repeating: "a long note\n", count: 500) : ""
            return ItemSummary(item, listName: list.name, position: number + 1)
        }
        let listing = ItemListing(list: ListSummary(list, openItems: 300, totalItems: 300), items: items)
        var chunks: [[UInt8]] = []
        ListingJSON.writeLine(listing, chunkSize: chunkSize) { chunks.append(Array($0)) }
        #expect(String(decoding: chunks.joined(), as: UTF8.self) == (try Self.encoderJSON(listing)) + "\n")
        // The listing goes out in parts, none longer than the buffer, when no one string needs more.
        if chunkSize == 64 * 1024 { #expect(chunks.count > 1 && chunks.allSatisfy { $0.count <= chunkSize }) }
    }

    @Test("An empty listing is written as JSONEncoder writes it")
    func empty() throws {
        let list = ItemList(id: ItemList.ID(), name: "Empty", createdAt: Date(timeIntervalSince1970: 0), when: .someday)
        let listing = ItemListing(list: ListSummary(list, openItems: 0, totalItems: 0), items: [])
        #expect(try JSONLine.encode(listing) == Self.encoderJSON(listing))
    }

    @Test("A line is the JSON and one line break, for a listing and for any other result")
    func line() throws {
        let list = ItemList(id: ItemList.ID(), name: "Groceries", createdAt: Date(timeIntervalSince1970: 0))
        let listing = ItemListing(list: ListSummary(list, openItems: 0, totalItems: 0), items: [])
        #expect(try JSONLine.line(listing) == Self.encoderJSON(listing) + "\n")
        let summary = ListSummary(list, openItems: 2, totalItems: 3)
        #expect(try JSONLine.line(summary) == Self.encoderJSON(summary) + "\n")
    }
}
