import ArrangeModel
import Foundation
import Testing

@Suite("Days, when and deadlines")
struct DayTests {
    @Test("Reads and writes a day as YYYY-MM-DD, leap days included")
    func parsesAndWrites() throws {
        for text in ["2026-11-28", "0001-01-01", "9999-12-31", "2024-02-29", "2000-02-29"] {
            #expect(try Day(parsing: text).description == text)
        }
        let day = try Day(parsing: "2026-03-09")
        #expect((day.year, day.month, day.day) == (2026, 3, 9))
    }

    @Test(
        "Refuses anything but a day that exists, written YYYY-MM-DD",
        arguments: ["", "2026-11-31", "2026-02-29", "1900-02-29", "2026-13-01", "2026-00-10", "0000-01-01", "2026-1-05", "2026/11/28",
                    "26-11-28", "2026-11-28T10:00", " 2026-11-28", "２０２６-11-28", "+026-11-28", "tomorrow",
                    "2026-1a-28", "2026-11--1", "2026/11-28", "2026-11-2 "])
    func refuses(text: String) {
        #expect(throws: DayError.notADay(text)) { try Day(parsing: text) }
        var bytes = text
        #expect(bytes.withUTF8 { Day(utf8: UnsafeRawBufferPointer($0)) } == nil)
    }

    @Test("Its error says what to write, in English and in the message table")
    func errorMessage() {
        let error = DayError.notADay("2026-02-30")
        #expect(error.debugDescription == "'2026-02-30' is not a day; write a day as YYYY-MM-DD, such as 2026-11-28.")
        #expect(error.errorDescription == "“2026-02-30” is not a day; write a day as YYYY-MM-DD, such as 2026-11-28.")
    }

    @Test("Counts days as the Gregorian calendar does (since its adoption in 1582), across months, years and leap days", arguments: [-130_000, -1, 0, 59, 10_957, 20_000, 2_000_000])
    func ordinals(start: Int) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        for offset in 0..<400 {
            let date = Date(timeIntervalSince1970: Double(start + offset * 37) * 86_400)
            let day = Day(date, in: .gmt)
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            guard (1...9999).contains(parts.year ?? 0) else { continue }
            #expect((day.year, day.month, day.day) == (parts.year, parts.month, parts.day), "\(date)")
            #expect(day.ordinal == start + offset * 37)
            #expect(day.adding(days: 1).ordinal == day.ordinal + 1)
            #expect(try Day(parsing: day.description) == day)
        }
    }

    @Test("Today depends on where the device is: one moment is two days on either side of the date line")
    func timeZones() throws {
        let moment = try #require(ISO8601DateFormatter().date(from: "2026-11-28T23:30:00Z"))
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let losAngeles = try #require(TimeZone(identifier: "America/Los_Angeles"))
        #expect(Day(moment, in: .gmt).description == "2026-11-28")
        #expect(Day(moment, in: tokyo).description == "2026-11-29")
        #expect(Day(moment, in: losAngeles).description == "2026-11-28")
        #expect(Day(moment.addingTimeInterval(-24 * 3_600), in: losAngeles).description == "2026-11-27")
        // Summer time: Lisbon's midnight, an hour before UTC's.
        let lisbon = try #require(TimeZone(identifier: "Europe/Lisbon"))
        let summer = try #require(ISO8601DateFormatter().date(from: "2026-07-01T23:30:00Z"))
        #expect(Day(summer, in: lisbon).description == "2026-07-02")
        #expect(Day(summer, in: .gmt).description == "2026-07-01")
    }

    @Test("Days order as the calendar does, and stay within years 1 to 9999")
    func order() throws {
        let days = try ["2026-11-28", "2026-12-01", "2027-01-01", "2026-11-29"].map { try Day(parsing: $0) }
        #expect(days.sorted().map(\.description) == ["2026-11-28", "2026-11-29", "2026-12-01", "2027-01-01"])
        #expect(try Day(parsing: "9999-12-31").adding(days: 5).description == "9999-12-31")
        #expect(try Day(parsing: "0001-01-01").adding(days: -5).description == "0001-01-01")
        #expect(try Day(parsing: "2024-02-28").adding(days: 1).description == "2024-02-29")
        #expect(try Day(parsing: "2026-12-31").adding(days: 1).description == "2027-01-01")
    }

    @Test("When knows its start date, someday and evening, and codes as the JSON fields say")
    func when() throws {
        let day = try Day(parsing: "2026-12-01")
        #expect(When.on(day, evening: true).startDate == day)
        #expect(When.on(day, evening: true).isEvening)
        #expect(!When.on(day).isEvening)
        #expect(When.someday.isSomeday && When.someday.startDate == nil && !When.someday.isEvening)
        #expect(When.anytime.startDate == nil && !When.anytime.isSomeday)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let forms: [(When, String)] = [
            (.anytime, "{}"), (.someday, #"{"someday":true}"#), (.on(day), #"{"startDate":"2026-12-01"}"#),
            (.on(day, evening: true), #"{"evening":true,"startDate":"2026-12-01"}"#),
        ]
        for (when, json) in forms {
            #expect(String(decoding: try encoder.encode(when), as: UTF8.self) == json)
            #expect(try JSONDecoder().decode(When.self, from: Data(json.utf8)) == when)
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(When.self, from: Data(#"{"startDate":"2026-12-32"}"#.utf8)) }
    }

    @Test("An item written before dates reads as anytime with no deadline, and one without dates writes no date fields")
    func itemCoding() throws {
        let item = Item(listID: ItemList.ID(), title: "Milk", sortIndex: 0, createdAt: Date(timeIntervalSince1970: 0))
        let json = String(decoding: try JSONEncoder().encode(item), as: UTF8.self)
        #expect(!json.contains("when") && !json.contains("deadline"))
        var dated = item
        dated.when = .on(try Day(parsing: "2026-12-01"), evening: true)
        dated.deadline = try Day(parsing: "2026-12-03")
        #expect(try JSONDecoder().decode(Item.self, from: try JSONEncoder().encode(dated)) == dated)
        #expect(try JSONDecoder().decode(Item.self, from: Data(json.utf8)) == item)
    }
}
