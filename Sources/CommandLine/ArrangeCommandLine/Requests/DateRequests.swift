import ArgumentParser
import ArrangeIntents
public import ArrangeModel
import ArrangeStore
import Foundation

// The requests that give items a when (a start date, perhaps in its evening, someday or
// anytime) or a deadline. Both are written in words (`WhenPhrase`), relative to the request's
// `day`: today in this device's time zone unless the request names one.

/// When a request says items are meant to be done, in words: `tomorrow`, `next friday`,
/// `2026-12-24`, `someday` (``WhenPhrase``), read once the day it is relative to is known.
struct WhenChoice: Hashable, Sendable, RequestValue, ExpressibleByStringLiteral {
    /// The words.
    var text: String

    static var jsonForm: String { #"a when in words ("2026-12-24", "today", "tomorrow", "next friday", "in 3 days", "someday", …)"# }

    init(_ text: String) {
        self.text = text
    }

    init(stringLiteral text: String) {
        self.text = text
    }

    init(from decoder: any Decoder) throws {
        text = try decoder.singleValueContainer().decode(String.self)
    }

    /// The when the words name on `day`, in its evening as well when `evening`, and the time of
    /// the reminder they end with, if any.
    ///
    /// - Throws: `WhenPhraseError` for words that name no when; ``ReferenceError/eveningWithoutDay(_:)``
    ///   for evening without a day.
    func when(evening: Bool, on day: Day) throws -> (when: When, reminder: TimeOfDay?) {
        let phrase = try WhenPhrase(parsing: text, on: day)
        switch phrase.when {
        case .on(let start, let inEvening): return (.on(start, evening: inEvening || evening), phrase.time)
        case .anytime, .someday:
            guard !evening else { throw ReferenceError.eveningWithoutDay(text) }
            return (phrase.when, phrase.time)
        }
    }
}

/// A deadline a request gives, in words (``WhenPhrase/deadline(parsing:on:)``), or none (JSON's
/// `null`, `none` on the command line).
enum DeadlineChoice: Hashable, Sendable, RequestValue {
    /// Due on the day the words name.
    case words(String)
    /// No deadline.
    case noDeadline

    static var jsonForm: String { #"a day in words ("2027-04-15", "today", "friday", "dec 24", …), or null for none"# }
    /// JSON's `null` takes the deadline away.
    static var null: DeadlineChoice? { .noDeadline }

    /// Reads `none`, or words for a day.
    init(_ text: String) {
        self = text.lowercased() == "none" ? .noDeadline : .words(text)
    }

    init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// The deadline it names on `day`; `nil` for none.
    ///
    /// - Throws: `WhenPhraseError` for words that name no day.
    func deadline(on day: Day) throws(WhenPhraseError) -> Day? {
        switch self {
        case .words(let text): try WhenPhrase.deadline(parsing: text, on: day)
        case .noDeadline: nil
        }
    }
}

extension Help {
    /// The `day` field of the requests that read a when or a deadline in words.
    static let phraseDay = "The day the words of a when or a deadline are relative to (YYYY-MM-DD); today where this machine is when not given."
    /// The forms of a when.
    static let whenWords =
        "When, in words: a day (YYYY-MM-DD), today, tonight, tomorrow, this weekend, next week, a weekday (friday, next friday), "
        + "in N days, weeks or months, a date (dec 24), someday or anytime."
    /// The forms of a deadline.
    static let deadlineWords =
        "The day they are due, in words: YYYY-MM-DD, today, tonight, tomorrow, this weekend, next week, a weekday, in N days, weeks or months, "
        + "a date (dec 24)"
}

struct SetWhenRequest: Request {
    static let name = "setWhen"
    static let summary = "Set when items are meant to be done: from a day, perhaps in its evening, someday, or anytime."
    static let selector: String? = "items"
    var items: [ItemReference] = []
    var when: WhenChoice = "anytime"
    var evening: Bool?
    var list: ListReference?
    var day: Day?

    static let fields: [RequestField<Self>] = [
        .init("items", \.items, help: Help.items),
        .init("when", \.when, help: Help.whenWords),
        .init("evening", \.evening, help: "Whether they are in the evening of their day (This Evening, for today); false when not given."),
        .init("list", \.list, help: Help.countingList),
        .init("day", \.day, help: Help.phraseDay),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> SetWhen {
        let (when, reminder) = try self.when.when(evening: evening ?? false, on: day ?? resolve.today)
        return SetWhen(try resolve.itemIDs(items, numberedIn: try resolve.numbering(list)), to: when, reminder: reminder)
    }
}

struct SetDeadlineRequest: Request {
    static let name = "setDeadline"
    static let summary = "Give items a deadline, the day they are due, or take theirs away."
    static let selector: String? = "items"
    var items: [ItemReference] = []
    var deadline: DeadlineChoice = .noDeadline
    var list: ListReference?
    var day: Day?

    static let fields: [RequestField<Self>] = [
        .init("items", \.items, help: Help.items),
        .init("deadline", \.deadline, help: Help.deadlineWords + ", or null (none on the command line) to take it away."),
        .init("list", \.list, help: Help.countingList),
        .init("day", \.day, help: Help.phraseDay),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> SetDeadline {
        SetDeadline(try resolve.itemIDs(items, numberedIn: try resolve.numbering(list)), to: try deadline.deadline(on: day ?? resolve.today))
    }
}

extension Help {
    /// The `list` field of the requests that schedule a list itself.
    static let scheduledList = "The list itself, by name or id, when no items are given: a list is scheduled as a project is in Things."
}

struct SetListWhenRequest: Request {
    static let name = "setWhen"
    static let summary = "Set when a list is meant to be worked on: from a day, perhaps in its evening, someday (out of the sidebar), or anytime."
    var list: ListReference = ""
    var when: WhenChoice = "anytime"
    var evening: Bool?
    var day: Day?

    static let fields: [RequestField<Self>] = [
        .init("list", \.list, help: Help.scheduledList),
        .init("when", \.when, help: Help.whenWords),
        .init("evening", \.evening, help: "Whether it is in the evening of its day; false when not given."),
        .init("day", \.day, help: Help.phraseDay),
    ]

    /// - Throws: ``ReferenceError/reminderOnList(_:)`` for a when that ends with a time.
    func intent(_ resolve: ReferenceResolver) throws -> SetListWhen {
        let (when, reminder) = try self.when.when(evening: evening ?? false, on: day ?? resolve.today)
        guard reminder == nil else { throw ReferenceError.reminderOnList(self.when.text) }
        return SetListWhen(list: try resolve.list(list).id, to: when)
    }
}

struct SetListDeadlineRequest: Request {
    static let name = "setDeadline"
    static let summary = "Give a list a deadline, the day it is due, or take its own away."
    var list: ListReference = ""
    var deadline: DeadlineChoice = .noDeadline
    var day: Day?

    static let fields: [RequestField<Self>] = [
        .init("list", \.list, help: Help.scheduledList),
        .init("deadline", \.deadline, help: Help.deadlineWords + ", or null (none on the command line) to take it away."),
        .init("day", \.day, help: Help.phraseDay),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> SetListDeadline {
        SetListDeadline(list: try resolve.list(list).id, to: try deadline.deadline(on: day ?? resolve.today))
    }
}

/// The arguments of `when` and `deadline`: the items, then the words that say when, as in
/// `arrange when '#1' '#3' next friday`. ArgumentParser takes no argument after a list of them,
/// so they are split here.
struct ItemsThenWords: ParsableArguments {
    @Argument(help: ArgumentHelp("The items (#N as `list` numbers them, ids, or at least 4 characters of one), then the words.", valueName: "item"))
    var words: [String] = []

    /// The items, and the words after them: the longest run of last words that `reads` takes,
    /// leaving at least one item; when none does, the words from the first that is no item
    /// reference on, for the request to refuse with what it reads.
    ///
    /// - Throws: `ValidationError` unless there are an item and a word.
    func split(naming value: String, reads: (String) -> Bool) throws -> (items: [ItemReference], words: String) {
        guard words.count >= 2 else { throw ValidationError("Give at least one item, then \(value).") }
        let start = (1..<words.count).first { reads(words[$0...].joined(separator: " ")) }
            ?? (1..<words.count).first { (try? ItemReference(words[$0]).checkForm()) == nil }
            ?? words.count - 1
        return (words[..<start].map(ItemReference.init), words[start...].joined(separator: " "))
    }
}

/// The `--day` option of the requests that read a when or a deadline in words.
struct PhraseDayOption: ParsableArguments {
    @Option(help: ArgumentHelp(Help.phraseDay, valueName: "YYYY-MM-DD"), transform: Day.init(option:))
    var day: Day?

    /// The day the words are read on, to split them from the items: the one given, or today here.
    var dayOrToday: Day { day ?? Day(.now, in: .current) }
}

extension PhraseDayOption {
    /// The option set to `day`, as a command read without ArgumentParser sets it.
    init(day: Day?) {
        self.init()
        self.day = day
    }
}

struct WhenCommand: RequestCommand {
    typealias Form = SetWhenRequest
    static let configuration = CommandConfiguration(
        commandName: "when",
        abstract: Form.summary,
        usage: "arrange when <item> ... <when> [--evening] [--day YYYY-MM-DD]",
        discussion: """
            The last words say when: a day written YYYY-MM-DD, today, tonight (this evening), tomorrow, this weekend, \
            next week, a weekday (friday, next friday), in N days, weeks or months, a date (dec 24), anytime (no date) \
            or someday. Examples: arrange when '#1' 2026-12-01; arrange when '#2' '#3' tonight; arrange when '#4' next friday
            """)
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ItemsThenWords
    @Flag(help: "In the evening of the day.") var evening = false
    @Option(help: ArgumentHelp(Help.countingList, valueName: "list")) var list: ListReference?
    @OptionGroup var options: PhraseDayOption

    var request: Form {
        get throws {
            let day = options.dayOrToday
            let (items, words) = try arguments.split(naming: "when: a day, today, tomorrow, next friday, someday…") {
                (try? WhenPhrase(parsing: $0, on: day)) != nil
            }
            return Form(items: items, when: WhenChoice(words), evening: evening ? true : nil, list: list, day: options.day)
        }
    }

    func text(for result: ItemsResult, in session: CommandSession) -> String {
        guard result.changed > 0 else { return "Unchanged: \(TextFormat.titles(result.items))." }
        return "\(TextFormat.titles(result.items)): \(TextFormat.when(of: result.items[0]))."
    }
}

struct DeadlineCommand: RequestCommand {
    typealias Form = SetDeadlineRequest
    static let configuration = CommandConfiguration(
        commandName: "deadline",
        abstract: Form.summary,
        usage: "arrange deadline <item> ... (<day>|none) [--day YYYY-MM-DD]",
        discussion: """
            The last words are the day they are due (YYYY-MM-DD, today, tomorrow, a weekday, in N days, weeks or months, \
            a date such as dec 24), or none. Examples: arrange deadline '#1' 2027-04-15; arrange deadline '#2' next friday
            """)
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ItemsThenWords
    @Option(help: ArgumentHelp(Help.countingList, valueName: "list")) var list: ListReference?
    @OptionGroup var options: PhraseDayOption

    var request: Form {
        get throws {
            let day = options.dayOrToday
            let (items, words) = try arguments.split(naming: "a deadline: a day, today, friday, dec 24 or none") {
                $0.lowercased() == "none" || (try? WhenPhrase.deadline(parsing: $0, on: day)) != nil
            }
            return Form(items: items, deadline: DeadlineChoice(words), list: list, day: options.day)
        }
    }

    func text(for result: ItemsResult, in session: CommandSession) -> String {
        guard result.changed > 0 else { return "Unchanged: \(TextFormat.titles(result.items))." }
        return "\(TextFormat.titles(result.items)): " + (result.items[0].deadline.map { "due \($0)" } ?? "no deadline") + "."
    }
}

/// The arguments of `list-when` and `list-deadline`: the list, then the words that say when.
struct ListThenWords: ParsableArguments {
    @Argument(help: ArgumentHelp("The list, by name or id; quote a name of several words.", valueName: "list"))
    var list: ListReference
    @Argument(help: ArgumentHelp("The words that say when.", valueName: "words"))
    var words: [String] = []

    /// The words, joined.
    ///
    /// - Throws: `ValidationError` when there are none.
    func phrase(naming value: String) throws -> String {
        guard !words.isEmpty else { throw ValidationError("Give the list, then \(value).") }
        return words.joined(separator: " ")
    }
}

struct ListWhenCommand: RequestCommand {
    typealias Form = SetListWhenRequest
    static let configuration = CommandConfiguration(
        commandName: "list-when",
        abstract: Form.summary,
        usage: "arrange list-when <list> <when> [--evening] [--day YYYY-MM-DD]",
        discussion: """
            The words after the list say when, as for `when`: a day written YYYY-MM-DD, today, tonight, tomorrow, this weekend, \
            next week, a weekday, in N days, weeks or months, a date (dec 24), anytime or someday. A list put off to someday \
            leaves the sidebar for `someday`; one with a later start date shows in `upcoming`, then in `today`. \
            Examples: arrange list-when Garden 2027-03-01; arrange list-when 'Learn Italian' someday
            """)
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ListThenWords
    @Flag(help: "In the evening of the day.") var evening = false
    @OptionGroup var options: PhraseDayOption

    var request: Form {
        get throws {
            Form(list: arguments.list, when: WhenChoice(try arguments.phrase(naming: "when: a day, today, tomorrow, someday…")), evening: evening ? true : nil,
                 day: options.day)
        }
    }

    func text(for result: ListResult, in session: CommandSession) -> String {
        "\(TextFormat.quoted(result.list.name)): \(TextFormat.when(of: result.list))."
    }
}

struct ListDeadlineCommand: RequestCommand {
    typealias Form = SetListDeadlineRequest
    static let configuration = CommandConfiguration(
        commandName: "list-deadline",
        abstract: Form.summary,
        usage: "arrange list-deadline <list> (<day>|none) [--day YYYY-MM-DD]",
        discussion: """
            The words after the list are the day it is due, as for `deadline`, or none. From that day on, the list shows in `today`. \
            Examples: arrange list-deadline Taxes 2027-04-15; arrange list-deadline Taxes none
            """)
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ListThenWords
    @OptionGroup var options: PhraseDayOption

    var request: Form {
        get throws {
            Form(list: arguments.list, deadline: DeadlineChoice(try arguments.phrase(naming: "a deadline: a day, friday, dec 24 or none")), day: options.day)
        }
    }

    func text(for result: ListResult, in session: CommandSession) -> String {
        "\(TextFormat.quoted(result.list.name)): " + (result.list.deadline.map { "due \($0)" } ?? "no deadline") + "."
    }
}

extension Day: RequestValue {
    public static var jsonForm: String { #"a day ("YYYY-MM-DD")"# }

    /// Reads an option's day, `YYYY-MM-DD`.
    ///
    /// - Throws: `ValidationError`, which ArgumentParser reports as a usage error.
    init(option text: String) throws {
        do throws(DayError) {
            self = try Day(parsing: text)
        } catch {
            throw ValidationError(error.debugDescription)
        }
    }
}

extension Help {
    /// The `day` field of the views.
    static let viewDay = "The day the view is of (YYYY-MM-DD); today where this machine is when not given."
}

/// A view of items by date, which takes a day and nothing else: `upcoming`, `anytime`, `someday`.
protocol DayViewRequest: Request {
    /// The day the view is of; `nil` for today.
    var day: Day? { get set }
    /// The tags an item must carry, every one; `nil` for none.
    var tags: [TagReference]? { get set }

    init(day: Day?, tags: [TagReference]?)

    /// The intent that shows the view of `day`, of the items that carry every one of `tags`.
    static func intent(day: Day?, tags: [Tag.ID]) -> Intent
}

extension DayViewRequest {
    static var fields: [RequestField<Self>] {
        [.init("day", \.day, help: Help.viewDay), .init("tags", \.tags, help: Help.tagFilter)]
    }

    var readsOnly: Bool { true }

    func intent(_ resolve: ReferenceResolver) throws -> Intent { Self.intent(day: day, tags: try resolve.tags(tags ?? [])) }
}

struct UpcomingRequest: DayViewRequest {
    typealias Intent = ShowUpcoming
    static let name = "upcoming"
    static let summary = "Show the open items with a start date after the day, grouped by that date, with the to-dos repeating series will make."
    var day: Day?
    var tags: [TagReference]?
    var through: Day?

    static var fields: [RequestField<Self>] {
        [
            .init("day", \.day, help: Help.viewDay), .init("tags", \.tags, help: Help.tagFilter),
            .init("through", \.through, help: "The last day repeating series' to-dos are projected through (YYYY-MM-DD); 28 days after the day at least."),
        ]
    }

    init() {}

    init(day: Day?, tags: [TagReference]?) {
        (self.day, self.tags) = (day, tags)
    }

    static func intent(day: Day?, tags: [Tag.ID]) -> ShowUpcoming { ShowUpcoming(day: day, tags: tags) }

    func intent(_ resolve: ReferenceResolver) throws -> ShowUpcoming {
        ShowUpcoming(day: day, tags: try resolve.tags(tags ?? []), through: through)
    }
}

struct AnytimeRequest: DayViewRequest {
    typealias Intent = ShowAnytime
    static let name = "anytime"
    static let summary = "Show the open items that can be done now, by list: not someday, no start date after the day."
    var day: Day?
    var tags: [TagReference]?

    static func intent(day: Day?, tags: [Tag.ID]) -> ShowAnytime { ShowAnytime(day: day, tags: tags) }
}

struct SomedayRequest: DayViewRequest {
    typealias Intent = ShowSomeday
    static let name = "someday"
    static let summary = "Show the open items put off to someday, by list; it takes a day as every view does, and does not depend on it."
    var day: Day?
    var tags: [TagReference]?

    /// Someday does not depend on the day: it takes one only as every view does.
    static func intent(day: Day?, tags: [Tag.ID]) -> ShowSomeday { ShowSomeday(tags: tags) }
}

/// The `--day` option of the views.
struct ViewDayOption: ParsableArguments {
    @Option(help: ArgumentHelp(Help.viewDay, valueName: "YYYY-MM-DD"), transform: Day.init(option:))
    var day: Day?
}

struct UpcomingCommand: RequestCommand {
    typealias Form = UpcomingRequest
    static let configuration = CommandConfiguration.request(
        Form.self, discussion: "Examples: arrange upcoming; arrange upcoming --day 2026-12-24; arrange upcoming --through 2027-06-30")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var options: ViewDayOption
    @OptionGroup var tagFilter: TagFilterOption
    @Option(help: ArgumentHelp(Form.help(\.through), valueName: "YYYY-MM-DD"), transform: Day.init(option:)) var through: Day?

    var request: Form {
        var request = Form(day: options.day, tags: tagFilter.filter)
        request.through = through
        return request
    }

    func text(for result: UpcomingListing, in session: CommandSession) -> String {
        TextFormat.upcoming(result)
    }
}

struct AnytimeCommand: RequestCommand {
    typealias Form = AnytimeRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange anytime --day 2026-12-24")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var options: ViewDayOption
    @OptionGroup var tagFilter: TagFilterOption

    var request: Form { Form(day: options.day, tags: tagFilter.filter) }

    func text(for result: ItemsByList, in session: CommandSession) -> String {
        TextFormat.groups(result, named: "Anytime")
    }
}

struct SomedayCommand: RequestCommand {
    typealias Form = SomedayRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange someday")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var options: ViewDayOption
    @OptionGroup var tagFilter: TagFilterOption

    var request: Form { Form(day: options.day, tags: tagFilter.filter) }

    func text(for result: ItemsByList, in session: CommandSession) -> String {
        TextFormat.groups(result, named: "Someday")
    }
}

extension RequestCatalogue {
    /// The requests of dates of items, in the order help lists them.
    static let dateRequests: [any Request.Type] = [SetWhenRequest.self, SetDeadlineRequest.self, SetListWhenRequest.self, SetListDeadlineRequest.self]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let dateCommands: [any ParsableCommand.Type] = [WhenCommand.self, DeadlineCommand.self, ListWhenCommand.self, ListDeadlineCommand.self]
    /// The subcommands of `arrange` that show the views by date.
    static let dateViewCommands: [any ParsableCommand.Type] = [UpcomingCommand.self, AnytimeCommand.self, SomedayCommand.self]
}

extension RequestCatalogue {
    /// The requests of the views by date, in the order help lists them.
    static let dateViewRequests: [any Request.Type] = [UpcomingRequest.self, AnytimeRequest.self, SomedayRequest.self]
}
