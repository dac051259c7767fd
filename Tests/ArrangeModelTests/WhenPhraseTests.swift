import ArrangeModel
import Foundation
import Testing

@Suite("Dates in words, and times of day")
struct WhenPhraseTests {
    private static func day(_ text: String) -> Day {
        // The tests' own days, all written right.
        (try? Day(parsing: text)) ?? Day(.distantPast, in: .gmt)
    }

    /// Each phrase, the day it is typed on, and the when and time it names.
    static let phrases: [(text: String, on: String, when: When, time: TimeOfDay?)] = [
        // On Friday 2026-11-27.
        ("today", "2026-11-27", .on(day("2026-11-27")), nil),
        ("Tonight", "2026-11-27", .on(day("2026-11-27"), evening: true), nil),
        ("this  evening", "2026-11-27", .on(day("2026-11-27"), evening: true), nil),
        ("evening", "2026-11-27", .on(day("2026-11-27"), evening: true), nil),
        ("tomorrow", "2026-11-27", .on(day("2026-11-28")), nil),
        ("this weekend", "2026-11-27", .on(day("2026-11-28")), nil),
        ("next week", "2026-11-27", .on(day("2026-11-30")), nil),
        ("friday", "2026-11-27", .on(day("2026-12-04")), nil),
        ("next Friday", "2026-11-27", .on(day("2026-12-04")), nil),
        ("fri", "2026-11-27", .on(day("2026-12-04")), nil),
        ("saturday", "2026-11-27", .on(day("2026-11-28")), nil),
        ("monday", "2026-11-27", .on(day("2026-11-30")), nil),
        ("thursday", "2026-11-27", .on(day("2026-12-03")), nil),
        ("in 3 days", "2026-11-27", .on(day("2026-11-30")), nil),
        ("in 0 days", "2026-11-27", .on(day("2026-11-27")), nil),
        ("in 1 day", "2026-11-27", .on(day("2026-11-28")), nil),
        ("in 2 weeks", "2026-11-27", .on(day("2026-12-11")), nil),
        ("in 1 month", "2026-11-27", .on(day("2026-12-27")), nil),
        ("dec 24", "2026-11-27", .on(day("2026-12-24")), nil),
        ("24 dec", "2026-11-27", .on(day("2026-12-24")), nil),
        ("December 24", "2026-11-27", .on(day("2026-12-24")), nil),
        ("24th december", "2026-11-27", .on(day("2026-12-24")), nil),
        ("nov 27", "2026-11-27", .on(day("2027-11-27")), nil),
        ("nov 26", "2026-11-27", .on(day("2027-11-26")), nil),
        ("nov 28", "2026-11-27", .on(day("2026-11-28")), nil),
        ("feb 29", "2026-11-27", .on(day("2028-02-29")), nil),
        ("2027-04-15", "2026-11-27", .on(day("2027-04-15")), nil),
        ("someday", "2026-11-27", .someday, nil),
        ("ANYTIME", "2026-11-27", .anytime, nil),
        // Times.
        ("tomorrow @9", "2026-11-27", .on(day("2026-11-28")), try? TimeOfDay(hour: 9, minute: 0)),
        ("tomorrow@9:30", "2026-11-27", .on(day("2026-11-28")), try? TimeOfDay(hour: 9, minute: 30)),
        ("today at 9am", "2026-11-27", .on(day("2026-11-27")), try? TimeOfDay(hour: 9, minute: 0)),
        ("today at 18:30", "2026-11-27", .on(day("2026-11-27")), try? TimeOfDay(hour: 18, minute: 30)),
        ("tonight @8pm", "2026-11-27", .on(day("2026-11-27"), evening: true), try? TimeOfDay(hour: 20, minute: 0)),
        ("tomorrow at 9 pm", "2026-11-27", .on(day("2026-11-28")), try? TimeOfDay(hour: 21, minute: 0)),
        ("tomorrow at 12am", "2026-11-27", .on(day("2026-11-28")), try? TimeOfDay(hour: 0, minute: 0)),
        ("tomorrow at 12:15pm", "2026-11-27", .on(day("2026-11-28")), try? TimeOfDay(hour: 12, minute: 15)),
        ("dec 24 @ 7", "2026-11-27", .on(day("2026-12-24")), try? TimeOfDay(hour: 7, minute: 0)),
        // The last day of a year, a Thursday.
        ("tomorrow", "2026-12-31", .on(day("2027-01-01")), nil),
        ("friday", "2026-12-31", .on(day("2027-01-01")), nil),
        ("this weekend", "2026-12-31", .on(day("2027-01-02")), nil),
        ("next week", "2026-12-31", .on(day("2027-01-04")), nil),
        ("in 1 month", "2026-12-31", .on(day("2027-01-31")), nil),
        ("in 2 months", "2026-12-31", .on(day("2027-02-28")), nil),
        ("jan 1", "2026-12-31", .on(day("2027-01-01")), nil),
        ("dec 31", "2026-12-31", .on(day("2027-12-31")), nil),
        // The first day of a year, a Friday.
        ("jan 1", "2027-01-01", .on(day("2028-01-01")), nil),
        ("dec 31", "2027-01-01", .on(day("2027-12-31")), nil),
        ("in 1 week", "2027-01-01", .on(day("2027-01-08")), nil),
        // The first day of a month, a Monday.
        ("next week", "2027-03-01", .on(day("2027-03-08")), nil),
        ("monday", "2027-03-01", .on(day("2027-03-08")), nil),
        ("in 1 month", "2027-03-01", .on(day("2027-04-01")), nil),
        ("feb 28", "2027-03-01", .on(day("2028-02-28")), nil),
        // The last day of a month in a leap year, a Monday.
        ("tomorrow", "2028-01-31", .on(day("2028-02-01")), nil),
        ("in 1 month", "2028-01-31", .on(day("2028-02-29")), nil),
        ("in 13 months", "2028-01-31", .on(day("2029-02-28")), nil),
        ("this weekend", "2028-01-31", .on(day("2028-02-05")), nil),
        // A weekend.
        ("this weekend", "2026-11-28", .on(day("2026-11-28")), nil),
        ("this weekend", "2026-11-29", .on(day("2026-11-29")), nil),
        ("next week", "2026-11-29", .on(day("2026-11-30")), nil),
        ("sunday", "2026-11-29", .on(day("2026-12-06")), nil),
    ]

    @Test("Each phrase names its day, relative to the day it is typed on", arguments: phrases.indices)
    func reads(index: Int) throws {
        let (text, on, when, time) = Self.phrases[index]
        let phrase = try WhenPhrase(parsing: text, on: Self.day(on))
        #expect(phrase == WhenPhrase(when: when, time: time), "\(text) on \(on)")
    }

    @Test(
        "Anything else is refused, with the accepted forms",
        arguments: ["", "yesterday", "next fridya", "next", "in three days", "in -3 days", "in 3 fortnights", "in 10000 days", "someday @9",
                    "anytime at 9", "@9", "at", "tomorrow at", "tomorrow @25", "tomorrow @9:5", "tomorrow @13pm", "tomorrow @0am", "tomorrow @9:60",
                    "apr 31", "feb 30", "dec 32", "dec 0", "2026-02-30", "this friday", "next today", "dec 24 2027", "tomorrow @9 @10",
                    "tomorrow at 1 2", "tomorrow at 1 1 pm", "in 1\u{20E3} days", "dec 2\u{301}4"])
    func refuses(text: String) {
        #expect(throws: WhenPhraseError.invalidWhen(text)) { try WhenPhrase(parsing: text, on: Self.day("2026-11-27")) }
    }

    @Test("A deadline is a phrase that names a day, without a time; tonight is today")
    func deadlines() throws {
        let friday = Self.day("2026-11-27")
        #expect(try WhenPhrase.deadline(parsing: "dec 24", on: friday) == Self.day("2026-12-24"))
        #expect(try WhenPhrase.deadline(parsing: "tonight", on: friday) == friday)
        #expect(try WhenPhrase.deadline(parsing: "next week", on: friday) == Self.day("2026-11-30"))
        for text in ["someday", "anytime", "tomorrow @9", "never", ""] {
            #expect(throws: WhenPhraseError.notADeadline(text)) { try WhenPhrase.deadline(parsing: text, on: friday) }
        }
    }

    @Test("Its errors say what to write, in English and in the message table")
    func errorMessages() {
        let error = WhenPhraseError.invalidWhen("next fridya")
        #expect(error.debugDescription.hasPrefix("'next fridya' is not a when; write a day as YYYY-MM-DD, or today, tonight, tomorrow"))
        #expect(error.errorDescription?.hasPrefix("“next fridya” is not a when; write a day as YYYY-MM-DD, or today") == true)
        #expect(WhenPhraseError.notADeadline("someday").errorDescription?.hasPrefix("“someday” is not a deadline; a deadline is a day") == true)
        #expect(TimeOfDayError.notATime("25:00").errorDescription == "“25:00” is not a time; write a time as HH:MM on the 24-hour clock, such as 09:30.")
    }

    @Test("A time of day reads and writes HH:MM on the 24-hour clock")
    func timesOfDay() throws {
        for (text, written) in [("09:30", "09:30"), ("9:30", "09:30"), ("23:59", "23:59"), ("00:00", "00:00"), ("18:05", "18:05")] {
            #expect(try TimeOfDay(parsing: text).description == written)
        }
        #expect(try TimeOfDay(parsing: "09:30") < TimeOfDay(parsing: "10:00"))
        for text in ["25:00", "24:00", "9", "9:5", "09:60", "ab:cd", "-1:00", "+9:00", "09:30:00", "", "１０:00"] {
            #expect(throws: TimeOfDayError.notATime(text)) { try TimeOfDay(parsing: text) }
        }
        #expect(throws: TimeOfDayError.self) { try TimeOfDay(hour: 24, minute: 0) }
    }

    @Test(
        "A time of day falls at its instant on the wall of a time zone: across both daylight-saving changes, a skipped time at the change, a repeated one at its first",
        arguments: [
            // Berlin: clocks go from 02:00 to 03:00 on 2027-03-28, and from 03:00 back to 02:00 on 2027-10-31.
            ("Europe/Berlin", "2027-03-27", "09:00", "2027-03-27T08:00:00Z"),
            ("Europe/Berlin", "2027-03-28", "09:00", "2027-03-28T07:00:00Z"),
            ("Europe/Berlin", "2027-03-28", "02:30", "2027-03-28T01:00:00Z"),
            ("Europe/Berlin", "2027-03-28", "03:00", "2027-03-28T01:00:00Z"),
            ("Europe/Berlin", "2027-03-28", "01:59", "2027-03-28T00:59:00Z"),
            ("Europe/Berlin", "2027-10-31", "02:30", "2027-10-31T00:30:00Z"),
            ("Europe/Berlin", "2027-10-31", "09:00", "2027-10-31T08:00:00Z"),
            // New York: from 02:00 to 03:00 on 2027-03-14, and from 02:00 back to 01:00 on 2027-11-07.
            ("America/New_York", "2027-03-13", "09:00", "2027-03-13T14:00:00Z"),
            ("America/New_York", "2027-03-14", "09:00", "2027-03-14T13:00:00Z"),
            ("America/New_York", "2027-03-14", "02:15", "2027-03-14T07:00:00Z"),
            ("America/New_York", "2027-11-07", "01:30", "2027-11-07T05:30:00Z"),
            ("America/New_York", "2027-11-07", "09:00", "2027-11-07T14:00:00Z"),
            ("UTC", "2026-11-27", "00:00", "2026-11-27T00:00:00Z"),
            ("Asia/Kolkata", "2026-11-27", "23:59", "2026-11-27T18:29:00Z"),
        ])
    func instants(zone: String, day: String, time: String, expected: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let instant = try TimeOfDay(parsing: time).instant(on: Self.day(day), in: timeZone)
        #expect(instant == ISO8601DateFormatter().date(from: expected), "\(time) on \(day) in \(zone)")
    }

    @Test("Days know their weekday, and add months as calendars do")
    func weekdaysAndMonths() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        for offset in stride(from: -719_000, through: 2_000_000, by: 997) {
            let date = Date(timeIntervalSince1970: Double(offset) * 86_400)
            // Foundation numbers Sunday 1 to Saturday 7.
            #expect(Day(date, in: .gmt).weekday == (calendar.component(.weekday, from: date) + 5) % 7 + 1)
        }
        #expect(Self.day("2027-01-31").adding(months: 1) == Self.day("2027-02-28"))
        #expect(Self.day("2028-02-29").adding(months: 12) == Self.day("2029-02-28"))
        #expect(Self.day("2027-03-31").adding(months: -1) == Self.day("2027-02-28"))
        #expect(Self.day("2026-11-27").adding(months: -23) == Self.day("2024-12-27"))
        #expect(Self.day("9999-11-15").adding(months: 3) == Self.day("9999-12-31"))
        #expect(Self.day("0001-02-15").adding(months: -3) == Self.day("0001-01-01"))
        #expect(Self.day("2026-11-27").adding(months: .max) == Self.day("9999-12-31"))
    }
}
