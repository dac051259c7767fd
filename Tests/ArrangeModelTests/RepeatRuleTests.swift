import ArrangeModel
import Foundation
import Testing

@Suite("Repeat rules and their dates")
struct RepeatRuleTests {
    private static func day(_ text: String) -> Day {
        (try? Day(parsing: text)) ?? Day(.distantPast, in: .gmt)
    }

    private static func dates(_ rule: RepeatRule, from start: String, _ count: Int = 6) -> [String] {
        rule.dates(from: day(start)).prefix(count).map(\.description)
    }

    @Test("Fixed rules name their dates from the start on, a day the month lacks falling back to its last")
    func fixedDates() throws {
        // Every month on the 1st, from a Friday.
        #expect(Self.dates(try RepeatRule(.fixed, every: 1, .month, monthDays: [1]), from: "2026-11-27", 3) == ["2026-12-01", "2027-01-01", "2027-02-01"])
        // Every 3 days, the start included.
        #expect(Self.dates(try RepeatRule(.fixed, every: 3, .day), from: "2027-02-26", 3) == ["2027-02-26", "2027-03-01", "2027-03-04"])
        // Every 2 weeks on Monday, Wednesday and Friday, weeks starting on Monday.
        #expect(Self.dates(try RepeatRule(.fixed, every: 2, .week, weekdays: [.fr, .mo, .we]), from: "2026-11-25") == [
            "2026-11-25", "2026-11-27", "2026-12-07", "2026-12-09", "2026-12-11", "2026-12-21",
        ])
        // The 31st, as Things has it: each month's last day when it has no 31st.
        #expect(Self.dates(try RepeatRule(.fixed, every: 1, .month, monthDays: [31]), from: "2027-01-15", 4) == [
            "2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30",
        ])
        // From the 31st with no days named: the start's day, falling back the same way.
        #expect(Self.dates(try RepeatRule(.fixed, every: 1, .month), from: "2028-01-31", 3) == ["2028-01-31", "2028-02-29", "2028-03-31"])
        // The last day, and the 30th with it: February holds one date, not two.
        #expect(Self.dates(try RepeatRule(.fixed, every: 1, .month, monthDays: [-1, 30]), from: "2027-01-01", 4) == [
            "2027-01-30", "2027-01-31", "2027-02-28", "2027-03-30",
        ])
        // Every year from February 29.
        #expect(Self.dates(try RepeatRule(.fixed, every: 1, .year), from: "2024-02-29", 5) == [
            "2024-02-29", "2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29",
        ])
        // The fourth Thursday of November, every year; the last Friday of each month.
        #expect(Self.dates(try RepeatRule(.fixed, every: 1, .year, nthWeekday: .init(4, .th), months: [11]), from: "2026-01-01", 3) == [
            "2026-11-26", "2027-11-25", "2028-11-23",
        ])
        #expect(Self.dates(try RepeatRule(.fixed, every: 1, .month, nthWeekday: .init(-1, .fr)), from: "2026-12-01", 3) == [
            "2026-12-25", "2027-01-29", "2027-02-26",
        ])
        // A fifth Monday only in the months that have one.
        #expect(Self.dates(try RepeatRule(.fixed, every: 1, .month, nthWeekday: .init(5, .mo)), from: "2027-01-01", 3) == [
            "2027-03-29", "2027-05-31", "2027-08-30",
        ])
    }

    @Test("A series ends on a day, or after a number of dates")
    func ends() throws {
        #expect(Self.dates(try RepeatRule(.fixed, every: 1, .week, ends: .on(Self.day("2026-12-18"))), from: "2026-11-27", 9) == [
            "2026-11-27", "2026-12-04", "2026-12-11", "2026-12-18",
        ])
        #expect(Self.dates(try RepeatRule(.fixed, every: 1, .day, ends: .after(3)), from: "2026-11-27", 9) == ["2026-11-27", "2026-11-28", "2026-11-29"])
        // An end before any date: none.
        #expect(Self.dates(try RepeatRule(.fixed, every: 1, .year, ends: .on(Self.day("2026-01-01"))), from: "2026-11-27").isEmpty)
        // Near the last day a Day holds, the dates stop rather than repeat it.
        #expect(Self.dates(try RepeatRule(.fixed, every: 1, .month, monthDays: [15]), from: "9999-10-01", 9) == ["9999-10-15", "9999-11-15", "9999-12-15"])
        #expect(Self.dates(try RepeatRule(.afterCompletion, every: 1, .day), from: "2026-11-27").isEmpty, "after completion: no fixed dates")
    }

    @Test("After completion, the next start is every units after the day it was done, across month ends and leap days")
    func afterCompletion() throws {
        let monthly = try RepeatRule(.afterCompletion, every: 1, .month)
        #expect(monthly.next(afterCompletionOn: Self.day("2027-01-31")) == Self.day("2027-02-28"))
        #expect(monthly.next(afterCompletionOn: Self.day("2028-01-31")) == Self.day("2028-02-29"))
        #expect(monthly.next(afterCompletionOn: Self.day("2026-12-15")) == Self.day("2027-01-15"))
        #expect(try RepeatRule(.afterCompletion, every: 1, .year).next(afterCompletionOn: Self.day("2028-02-29")) == Self.day("2029-02-28"))
        #expect(try RepeatRule(.afterCompletion, every: 3, .day).next(afterCompletionOn: Self.day("2028-02-27")) == Self.day("2028-03-01"))
        #expect(try RepeatRule(.afterCompletion, every: 2, .week).next(afterCompletionOn: Self.day("2026-12-25")) == Self.day("2027-01-08"))
    }

    @Test("A rule that names no dates, or takes a field its kind and unit do not, is refused")
    func refusals() {
        #expect(throws: RepeatRuleError.invalidEvery(0)) { try RepeatRule(.fixed, every: 0, .day) }
        #expect(throws: RepeatRuleError.invalidMonthDay(32)) { try RepeatRule(.fixed, every: 1, .month, monthDays: [32]) }
        #expect(throws: RepeatRuleError.invalidMonthDay(0)) { try RepeatRule(.fixed, every: 1, .month, monthDays: [1, 0]) }
        #expect(throws: RepeatRuleError.fieldNotForUnit("weekdays", .day)) { try RepeatRule(.fixed, every: 1, .day, weekdays: [.mo]) }
        #expect(throws: RepeatRuleError.fieldNotForUnit("months", .month)) { try RepeatRule(.fixed, every: 1, .month, months: [1]) }
        #expect(throws: RepeatRuleError.fieldNotForUnit("monthDays", .week)) { try RepeatRule(.fixed, every: 1, .week, monthDays: [1]) }
        #expect(throws: RepeatRuleError.invalidEndCount(0)) { try RepeatRule(.fixed, every: 1, .day, ends: .after(0)) }
        #expect(throws: RepeatRuleError.emptyField("weekdays")) { try RepeatRule(.fixed, every: 1, .week, weekdays: []) }
        #expect(throws: RepeatRuleError.invalidMonth(13)) { try RepeatRule(.fixed, every: 1, .year, months: [13]) }
        #expect(throws: RepeatRuleError.invalidNth(6)) { try RepeatRule(.fixed, every: 1, .month, nthWeekday: .init(6, .mo)) }
        #expect(throws: RepeatRuleError.monthDaysAndNthWeekday) { try RepeatRule(.fixed, every: 1, .month, monthDays: [1], nthWeekday: .init(1, .mo)) }
        #expect(throws: RepeatRuleError.fieldNotAfterCompletion("weekdays")) { try RepeatRule(.afterCompletion, every: 1, .week, weekdays: [.mo]) }
        #expect(throws: RepeatRuleError.invalidDeadlineOffset(-1)) { try RepeatRule(.fixed, every: 1, .day, deadlineOffset: -1) }
        #expect(throws: RepeatRuleError.repeatedValue("weekdays")) { try RepeatRule(.fixed, every: 1, .week, weekdays: [.mo, .tu, .mo]) }
        #expect(throws: RepeatRuleError.repeatedValue("monthDays")) { try RepeatRule(.fixed, every: 1, .month, monthDays: [-1, -1]) }
        #expect(throws: RepeatRuleError.repeatedValue("months")) { try RepeatRule(.fixed, every: 1, .year, months: [3, 3]) }
        #expect(RepeatRuleError.invalidMonthDay(32).errorDescription == "32 is not a day of the month; give 1 to 31, or -1 for the last day.")
        #expect(RepeatRuleError.fieldNotForUnit("weekdays", .day).errorDescription == "A daily rule takes no weekdays.")
    }

    @Test("A rule's JSON is the contract's RULE, both ways; a bad one is refused with the rule's error")
    func json() throws {
        let text = #"{"type":"fixed","every":2,"unit":"year","monthDays":[-1],"months":[2,8],"ends":{"after":5},"deadlineOffset":3,"reminder":"09:30"}"#
        let rule = try JSONDecoder().decode(RepeatRule.self, from: Data(text.utf8))
        #expect(rule == (try RepeatRule(.fixed, every: 2, .year, monthDays: [-1], months: [2, 8], ends: .after(5), deadlineOffset: 3, reminder: TimeOfDay(hour: 9, minute: 30))))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let again = try JSONDecoder().decode(RepeatRule.self, from: try encoder.encode(rule))
        #expect(again == rule)
        let until = try JSONDecoder().decode(RepeatRule.self, from: Data(#"{"type":"afterCompletion","every":3,"unit":"day","ends":{"on":"2027-01-01"}}"#.utf8))
        #expect(until.ends == .on(Self.day("2027-01-01")) && until.type == .afterCompletion)
        #expect(throws: RepeatRuleError.invalidEvery(0)) { try JSONDecoder().decode(RepeatRule.self, from: Data(#"{"type":"fixed","every":0,"unit":"day"}"#.utf8)) }
        #expect(throws: TimeOfDayError.notATime("25:00")) {
            try JSONDecoder().decode(RepeatRule.self, from: Data(#"{"type":"fixed","every":1,"unit":"day","reminder":"25:00"}"#.utf8))
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RepeatRule.self, from: Data(#"{"type":"fixed","every":1,"unit":"fortnight"}"#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RepeatRule.self, from: Data(#"{"type":"fixed","every":1,"unit":"day","ends":{}}"#.utf8)) }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(RepeatRule.self, from: Data(#"{"type":"fixed","every":1,"unit":"day","ends":{"on":"2027-01-01","after":3}}"#.utf8))
        }
    }

    /// Reads JSON lines `{"rrule", "start"}` and prints, for each, the first 100 dates of the rule
    /// from the start, as python-dateutil's `rrule` counts them.
    private static let dateutil = """
        import sys, json, datetime
        from dateutil.rrule import rrulestr
        for line in sys.stdin:
            case = json.loads(line)
            start = datetime.datetime.strptime(case["start"], "%Y-%m-%d")
            rule = rrulestr(case["rrule"], dtstart=start)
            print(json.dumps([d.strftime("%Y-%m-%d") for _, d in zip(range(100), rule)]))
        """

    /// The rule as RFC 5545's `RRULE`, with the defaults it takes from the start written out.
    private static func rrule(_ rule: RepeatRule, start: Day) -> String {
        let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        var parts = ["FREQ=" + ["day": "DAILY", "week": "WEEKLY", "month": "MONTHLY", "year": "YEARLY"][rule.unit.rawValue, default: ""], "INTERVAL=\(rule.every)", "WKST=MO"]
        if rule.unit == .week { parts.append("BYDAY=" + (rule.weekdays?.map { days[$0.number - 1] } ?? [days[start.weekday - 1]]).joined(separator: ",")) }
        if rule.unit == .year { parts.append("BYMONTH=" + (rule.months ?? [start.month]).map(String.init).joined(separator: ",")) }
        if rule.unit == .month || rule.unit == .year {
            if let nth = rule.nthWeekday {
                parts.append("BYDAY=\(nth.n)\(days[nth.weekday.number - 1])")
            } else {
                parts.append("BYMONTHDAY=" + (rule.monthDays ?? [start.day]).map(String.init).joined(separator: ","))
            }
        }
        switch rule.ends {
        case .on(let day): parts.append("UNTIL=" + day.description.replacingOccurrences(of: "-", with: ""))
        case .after(let count): parts.append("COUNT=\(count)")
        case nil: break
        }
        return "RRULE:" + parts.joined(separator: ";")
    }

    @Test("The first 100 dates of 400 random fixed rules are python-dateutil's, where RFC 5545 and Things agree (days of the month up to the 28th, or the last)")
    func matchesDateutil() throws {
        var random = SeededRandomNumberGenerator(seed: 62)
        var cases: [(rule: RepeatRule, start: Day)] = []
        func some<T>(_ values: [T]) -> [T] { Array(values.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random))) }
        let monthDays = Array(1...28) + [-1]
        for _ in 0..<400 {
            let start = try Day(year: Int.random(in: 1990...2060, using: &random), month: Int.random(in: 1...12, using: &random), day: Int.random(in: 1...28, using: &random))
            let unit = RepeatRule.Unit.allCases.randomElement(using: &random) ?? .day
            let nth = RepeatRule.NthWeekday([1, 2, 3, 4, 5, -1].randomElement(using: &random) ?? 1, RepeatRule.Weekday.allCases.randomElement(using: &random) ?? .mo)
            let dayChoice = Int.random(in: 0..<3, using: &random)
            let ends: RepeatRule.End? = switch Int.random(in: 0..<3, using: &random) {
            case 0: nil
            case 1: .after(Int.random(in: 1...150, using: &random))
            default: .on(start.adding(days: Int.random(in: 0...3_000, using: &random)))
            }
            let rule = try RepeatRule(
                .fixed, every: Int.random(in: 1...4, using: &random), unit,
                weekdays: unit == .week && Bool.random(using: &random) ? some(RepeatRule.Weekday.allCases) : nil,
                monthDays: (unit == .month || unit == .year) && dayChoice == 1 ? some(monthDays) : nil,
                nthWeekday: (unit == .month || unit == .year) && dayChoice == 2 ? nth : nil,
                months: unit == .year && Bool.random(using: &random) ? some(Array(1...12)) : nil, ends: ends)
            cases.append((rule, start))
        }
        let input = cases.map { #"{"rrule": "\#(Self.rrule($0.rule, start: $0.start))", "start": "\#($0.start)"}"# }.joined(separator: "\n") + "\n"
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", Self.dateutil]
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        (python.standardInput, python.standardOutput, python.standardError) = (stdin, stdout, stderr)
        try python.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        try #require(python.terminationStatus == 0, "python3 with python-dateutil (Debian's python3-dateutil) runs the comparison: \(errors)")
        let expected = try String(decoding: output, as: UTF8.self).split(separator: "\n").map { try JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        try #require(expected.count == cases.count)
        var mismatches = 0
        for ((rule, start), dates) in zip(cases, expected) where Array(rule.dates(from: start).prefix(100).map(\.description)) != dates {
            mismatches += 1
            if mismatches <= 3 { Issue.record("\(Self.rrule(rule, start: start)) from \(start): \(Array(rule.dates(from: start).prefix(8))) against \(dates.prefix(8))") }
        }
        #expect(mismatches == 0)
        #expect(expected.map(\.count).reduce(0, +) > 20_000, "the rules name dates to compare")
        // Skipping to a later day gives the same dates from that day on, whatever the rule.
        for (index, (rule, start)) in cases.enumerated() {
            let all = Array(rule.dates(from: start).prefix(300))
            guard let later = all.dropFirst(index % 50).first else { continue }
            let skipped = rule.dates(from: start, skippingTo: later).prefix { $0 <= all.last ?? later }.filter { $0 >= later }
            #expect(Array(skipped) == all.filter { $0 >= later }, "\(Self.rrule(rule, start: start)) from \(start), skipping to \(later)")
        }
    }
}
