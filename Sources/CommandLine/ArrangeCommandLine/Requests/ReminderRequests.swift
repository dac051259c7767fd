import ArgumentParser
import ArrangeIntents
import ArrangeModel
import Foundation

// Reminders: `setReminder`, `reminders`.

/// A reminder a request gives: a time on the wall, `HH:MM`, or none (JSON's `null`, `none` on
/// the command line).
enum ReminderChoice: Hashable, Sendable, RequestValue {
    /// At this time.
    case time(TimeOfDay)
    /// No reminder.
    case noReminder

    static var jsonForm: String { #"a time ("HH:MM"), or null for none"# }
    /// JSON's `null` takes the reminder away.
    static var null: ReminderChoice? { .noReminder }

    /// Reads `none`, or a time written `HH:MM`.
    ///
    /// - Throws: `TimeOfDayError` for anything else.
    init(parsing text: String) throws(TimeOfDayError) {
        self = text.lowercased() == "none" ? .noReminder : .time(try TimeOfDay(parsing: text))
    }

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.invalidValue(error.debugDescription, at: decoder)
        }
    }

    /// The time, or `nil` for none.
    var time: TimeOfDay? {
        if case .time(let time) = self { time } else { nil }
    }
}

struct SetReminderRequest: Request {
    static let name = "setReminder"
    static let summary = "Give items a reminder at a time on their start date (today's, for those without one), or take theirs away."
    var items: [ItemReference] = []
    var time: ReminderChoice = .noReminder
    var list: ListReference?
    var day: Day?

    static let fields: [RequestField<Self>] = [
        .init("items", \.items, help: Help.items),
        .init("time", \.time, help: "The time on the wall (HH:MM, 24-hour clock), or null (none on the command line) to take the reminder away."),
        .init("list", \.list, help: Help.countingList),
        .init("day", \.day, help: "The start date an item without one gets (YYYY-MM-DD); today where this machine is when not given."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> SetReminder {
        SetReminder(try resolve.itemIDs(items, numberedIn: try resolve.numbering(list)), at: time.time, day: day)
    }
}

/// An instant a request names: ISO 8601, with a time zone (`2027-03-28T09:00:00+02:00`, `…Z`).
struct Instant: Hashable, Sendable, RequestValue {
    var date: Date

    static var jsonForm: String { #"an ISO 8601 date and time with an offset ("2027-03-28T09:00:00+02:00")"# }

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = Self.date(text) else { throw DecodingError.invalidValue(Self.refusal(text), at: decoder) }
        self.date = date
    }

    /// Reads an option's instant.
    ///
    /// - Throws: `ValidationError`, which ArgumentParser reports as a usage error.
    init(option text: String) throws {
        guard let date = Self.date(text) else { throw ValidationError(Self.refusal(text)) }
        self.date = date
    }

    /// The instant `text` writes in ISO 8601, or `nil`.
    private static func date(_ text: String) -> Date? {
        ISO8601DateFormatter().date(from: text)
    }

    /// What a request or an option says of text that is no instant.
    private static func refusal(_ text: String) -> String {
        "'\(text)' is not a date and time; write one as 2027-03-28T09:00:00+02:00."
    }
}

struct RemindersRequest: Request {
    static let name = "reminders"
    static let summary = "The reminders that fire in a span of time, in the order they fire, each at its wall-clock time here."
    var from: Instant?
    var to: Instant?

    static let fields: [RequestField<Self>] = [
        .init("from", \.from, help: "The first instant (ISO 8601, with an offset); now when not given."),
        .init("to", \.to, help: "The instant after the last (ISO 8601, with an offset); a day after from when not given."),
    ]

    var readsOnly: Bool { true }

    func intent(_ resolve: ReferenceResolver) -> GetReminders { GetReminders(from: from?.date, to: to?.date) }
}

struct RemindCommand: RequestCommand {
    typealias Form = SetReminderRequest
    static let configuration = CommandConfiguration(
        commandName: "remind",
        abstract: Form.summary,
        usage: "arrange remind <item> ... (HH:MM|none) [--day YYYY-MM-DD]",
        discussion: "The last argument is the time, or none. Examples: arrange remind '#1' 09:30; arrange remind '#1' none")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ItemsThenWords
    @Option(help: ArgumentHelp(Help.countingList, valueName: "list")) var list: ListReference?
    @Option(help: ArgumentHelp(Form.help(\.day), valueName: "YYYY-MM-DD"), transform: Day.init(option:)) var day: Day?

    var request: Form {
        get throws {
            let (items, word) = try arguments.split(naming: "a time (HH:MM) or none") { (try? ReminderChoice(parsing: $0)) != nil }
            do {
                return Form(items: items, time: try ReminderChoice(parsing: word), list: list, day: day)
            } catch {
                throw ValidationError(error.debugDescription)
            }
        }
    }

    func text(for result: ItemsResult, in session: CommandSession) -> String {
        guard result.changed > 0 else { return "Unchanged: \(TextFormat.titles(result.items))." }
        return "\(TextFormat.titles(result.items)): " + (result.items[0].reminder.map { "reminder at \($0) on \(result.items[0].startDate?.description ?? "")" } ?? "no reminder") + "."
    }
}

struct RemindersCommand: RequestCommand {
    typealias Form = RemindersRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: """
        Examples:
          arrange reminders                                   (the next 24 hours)
          arrange reminders --from 2027-03-28T00:00:00+02:00 --to 2027-03-29T00:00:00+02:00
        """)
    @OptionGroup var shared: SharedOptions
    @Option(help: ArgumentHelp(Form.help(\.from), valueName: "date-time"), transform: Instant.init(option:)) var from: Instant?
    @Option(help: ArgumentHelp(Form.help(\.to), valueName: "date-time"), transform: Instant.init(option:)) var to: Instant?

    var request: Form { Form(from: from, to: to) }

    func text(for result: RemindersResult, in session: CommandSession) -> String {
        guard !result.reminders.isEmpty else { return "No reminders." }
        return result.reminders.map { reminder in
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(secondsFromGMT: reminder.utcOffset) ?? .gmt
            formatter.formatOptions = [.withFullDate, .withSpaceBetweenDateAndTime, .withTime, .withColonSeparatorInTime]
            return "\(formatter.string(from: reminder.at).prefix(16))  \(TextFormat.short(reminder.item.id))  \(reminder.item.title)  (\(reminder.item.listName))"
        }.joined(separator: "\n")
    }
}

extension RequestCatalogue {
    /// The requests of reminders, in the order help lists them.
    static let reminderRequests: [any Request.Type] = [SetReminderRequest.self, RemindersRequest.self]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let reminderCommands: [any ParsableCommand.Type] = [RemindCommand.self, RemindersCommand.self]
}
