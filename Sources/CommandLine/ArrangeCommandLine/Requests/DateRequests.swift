import ArgumentParser
import ArrangeIntents
public import ArrangeModel
import Foundation

// The requests that give items a when (a start date, perhaps in its evening, someday or
// anytime) or a deadline. Days are written `YYYY-MM-DD`; `today` is the day in this device's
// time zone.

/// When a request says items are meant to be done: a day, today, anytime or someday.
enum WhenChoice: Hashable, Sendable, RequestValue {
    /// From a day on.
    case day(Day)
    /// From today on, the day in this device's time zone.
    case today
    /// No date.
    case anytime
    /// Put off, with no date.
    case someday

    static var jsonForm: String { #"a day ("YYYY-MM-DD"), "today", "anytime" or "someday""# }

    /// Reads `today`, `anytime`, `someday` or a day written `YYYY-MM-DD`.
    ///
    /// - Throws: `DayError` for any other text.
    init(parsing text: String) throws(DayError) {
        switch text {
        case "today": self = .today
        case "anytime": self = .anytime
        case "someday": self = .someday
        default: self = .day(try Day(parsing: text))
        }
    }

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.invalidValue("'\(text)' is not a when: give a day as YYYY-MM-DD, \"today\", \"anytime\" or \"someday\".", at: decoder)
        }
    }

    /// The choice as a request writes it.
    var text: String {
        switch self {
        case .day(let day): day.description
        case .today: "today"
        case .anytime: "anytime"
        case .someday: "someday"
        }
    }

    /// The when it names, `today` being `today`, in the evening of its day when `evening`.
    ///
    /// - Throws: ``ReferenceError/eveningWithoutDay(_:)`` for evening without a day.
    func when(evening: Bool, today: Day) throws(ReferenceError) -> When {
        switch self {
        case .day(let day): .on(day, evening: evening)
        case .today: .on(today, evening: evening)
        case .anytime where !evening: .anytime
        case .someday where !evening: .someday
        case .anytime, .someday: throw .eveningWithoutDay(text)
        }
    }
}

/// A deadline a request gives: a day, or none (JSON's `null`).
enum DeadlineChoice: Hashable, Sendable, RequestValue {
    /// Due on a day.
    case day(Day)
    /// Due today, the day in this device's time zone.
    case today
    /// No deadline.
    case noDeadline

    static var jsonForm: String { #"a day ("YYYY-MM-DD"), "today", or null for none"# }
    /// JSON's `null` takes the deadline away.
    static var null: DeadlineChoice? { .noDeadline }

    /// Reads `today`, `none` or a day written `YYYY-MM-DD`.
    ///
    /// - Throws: `DayError` for any other text.
    init(parsing text: String) throws(DayError) {
        switch text {
        case "today": self = .today
        case "none": self = .noDeadline
        default: self = .day(try Day(parsing: text))
        }
    }

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.invalidValue("'\(text)' is not a deadline: give a day as YYYY-MM-DD, \"today\", or null for none.", at: decoder)
        }
    }

    /// The deadline it names, `today` being `today`.
    func deadline(today: Day) -> Day? {
        switch self {
        case .day(let day): day
        case .today: today
        case .noDeadline: nil
        }
    }
}

struct SetWhenRequest: Request {
    static let name = "setWhen"
    static let summary = "Set when items are meant to be done: from a day, perhaps in its evening, someday, or anytime."
    var items: [ItemReference] = []
    var when: WhenChoice = .anytime
    var evening: Bool?
    var list: ListReference?

    static let fields: [RequestField<Self>] = [
        .init("items", \.items, help: Help.items),
        .init("when", \.when, help: "A day (YYYY-MM-DD) they start on, today, anytime (no date) or someday."),
        .init("evening", \.evening, help: "Whether they are in the evening of their day (This Evening, for today); false when not given."),
        .init("list", \.list, help: Help.countingList),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> SetWhen {
        let when = try self.when.when(evening: evening ?? false, today: resolve.today)
        return SetWhen(try resolve.itemIDs(items, numberedIn: try resolve.numbering(list)), to: when)
    }
}

struct SetDeadlineRequest: Request {
    static let name = "setDeadline"
    static let summary = "Give items a deadline, the day they are due, or take theirs away."
    var items: [ItemReference] = []
    var deadline: DeadlineChoice = .noDeadline
    var list: ListReference?

    static let fields: [RequestField<Self>] = [
        .init("items", \.items, help: Help.items),
        .init("deadline", \.deadline, help: "The day they are due (YYYY-MM-DD), today, or null (none on the command line) to take it away."),
        .init("list", \.list, help: Help.countingList),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> SetDeadline {
        SetDeadline(try resolve.itemIDs(items, numberedIn: try resolve.numbering(list)), to: deadline.deadline(today: resolve.today))
    }
}

/// The arguments of `when` and `deadline`: the items, then one word that says when, as in
/// `arrange when '#1' '#3' evening`. ArgumentParser takes no argument after a list of them,
/// so the last one is read here.
struct ItemsThenWord: ParsableArguments {
    @Argument(help: ArgumentHelp("The items (#N as `list` numbers them, ids, or at least 4 characters of one), then the value.", valueName: "item"))
    var words: [String] = []

    /// The items and the last word.
    ///
    /// - Throws: `ValidationError` unless there are an item and a word.
    func split(naming value: String) throws -> (items: [ItemReference], word: String) {
        guard words.count >= 2, let word = words.last else {
            throw ValidationError("Give at least one item, then \(value).")
        }
        return (words.dropLast().map(ItemReference.init), word)
    }
}

struct WhenCommand: RequestCommand {
    typealias Form = SetWhenRequest
    static let configuration = CommandConfiguration(
        commandName: "when",
        abstract: Form.summary,
        usage: "arrange when <item> ... (YYYY-MM-DD|today|evening|anytime|someday) [--evening]",
        discussion: """
            The last argument says when: a day written YYYY-MM-DD, today, evening (this evening), \
            anytime (no date) or someday. Examples: arrange when '#1' 2026-12-01; arrange when '#2' '#3' evening
            """)
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ItemsThenWord
    @Flag(help: "In the evening of the day.") var evening = false
    @Option(help: ArgumentHelp(Help.countingList, valueName: "list")) var list: ListReference?

    var request: Form {
        get throws {
            let (items, word) = try arguments.split(naming: "when: a day, today, evening, anytime or someday")
            if word == "evening" { return Form(items: items, when: .today, evening: true, list: list) }
            do {
                return Form(items: items, when: try WhenChoice(parsing: word), evening: evening, list: list)
            } catch {
                throw ValidationError("'\(word)' is not a when; give a day as YYYY-MM-DD, today, evening, anytime or someday.")
            }
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
        usage: "arrange deadline <item> ... (YYYY-MM-DD|today|none)",
        discussion: "The last argument is the day they are due, today, or none. Example: arrange deadline '#1' 2027-04-15")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ItemsThenWord
    @Option(help: ArgumentHelp(Help.countingList, valueName: "list")) var list: ListReference?

    var request: Form {
        get throws {
            let (items, word) = try arguments.split(naming: "a deadline: a day, today or none")
            do {
                return Form(items: items, deadline: try DeadlineChoice(parsing: word), list: list)
            } catch {
                throw ValidationError("'\(word)' is not a deadline; give a day as YYYY-MM-DD, today or none.")
            }
        }
    }

    func text(for result: ItemsResult, in session: CommandSession) -> String {
        guard result.changed > 0 else { return "Unchanged: \(TextFormat.titles(result.items))." }
        return "\(TextFormat.titles(result.items)): " + (result.items[0].deadline.map { "due \($0)" } ?? "no deadline") + "."
    }
}

extension Day: RequestValue {
    public static var jsonForm: String { #"a day ("YYYY-MM-DD")"# }
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
    static let summary = "Show the open items with a start date after the day, grouped by that date."
    var day: Day?
    var tags: [TagReference]?

    static func intent(day: Day?, tags: [Tag.ID]) -> ShowUpcoming { ShowUpcoming(day: day, tags: tags) }
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
    @Option(help: ArgumentHelp(Help.viewDay, valueName: "YYYY-MM-DD"), transform: { text in
        do throws(DayError) {
            return try Day(parsing: text)
        } catch {
            throw ValidationError(error.debugDescription)
        }
    })
    var day: Day?
}

struct UpcomingCommand: RequestCommand {
    typealias Form = UpcomingRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Examples: arrange upcoming; arrange upcoming --day 2026-12-24")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var options: ViewDayOption
    @OptionGroup var tagFilter: TagFilterOption

    var request: Form { Form(day: options.day, tags: tagFilter.filter) }

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
    static let dateRequests: [any Request.Type] = [SetWhenRequest.self, SetDeadlineRequest.self]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let dateCommands: [any ParsableCommand.Type] = [WhenCommand.self, DeadlineCommand.self]
    /// The subcommands of `arrange` that show the views by date.
    static let dateViewCommands: [any ParsableCommand.Type] = [UpcomingCommand.self, AnytimeCommand.self, SomedayCommand.self]
}

extension RequestCatalogue {
    /// The requests of the views by date, in the order help lists them.
    static let dateViewRequests: [any Request.Type] = [UpcomingRequest.self, AnytimeRequest.self, SomedayRequest.self]
}
