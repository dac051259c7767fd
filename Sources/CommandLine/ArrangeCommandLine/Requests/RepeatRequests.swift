import ArgumentParser
import ArrangeIntents
import ArrangeModel
import Foundation

// Repeating to-dos: `setRepeat`, `pauseRepeat`, `resumeRepeat`, `repeats`.

/// A repeat a request gives: a rule (RULE, a JSON object), or none (JSON's `null`, `none` on
/// the command line).
enum RepeatChoice: Hashable, Sendable, RequestValue {
    /// By this rule.
    case rule(RepeatRule)
    /// No repeat.
    case noRepeat

    static var jsonForm: String { #"a rule ({"type": "fixed", "every": 1, "unit": "month", "monthDays": [1]}), or null for none"# }
    /// JSON's `null` takes the repeat off.
    static var null: RepeatChoice? { .noRepeat }

    init(from decoder: any Decoder) throws {
        do {
            self = .rule(try RepeatRule(from: decoder))
        } catch let error as RepeatRuleError {
            throw DecodingError.invalidValue(error.debugDescription, at: decoder)
        } catch let error as TimeOfDayError {
            throw DecodingError.invalidValue(error.debugDescription, at: decoder)
        }
    }

    /// Reads `none`, or a rule written as its JSON.
    ///
    /// - Throws: `ValidationError` for anything else, saying what is wrong with the rule.
    init(argument text: String) throws {
        if text.lowercased() == "none" {
            self = .noRepeat
            return
        }
        do {
            self = .rule(try JSONDecoder().decode(RepeatRule.self, from: Data(text.utf8)))
        } catch let error as RepeatRuleError {
            throw ValidationError(error.debugDescription)
        } catch let error as TimeOfDayError {
            throw ValidationError("The rule's reminder: \(error.debugDescription)")
        } catch {
            throw ValidationError("'\(text)' is not a rule; write one as JSON, like {\"type\": \"fixed\", \"every\": 1, \"unit\": \"week\", \"weekdays\": [\"mo\"]}, or none.")
        }
    }

    /// The rule, or `nil` for none.
    var rule: RepeatRule? {
        if case .rule(let rule) = self { rule } else { nil }
    }
}

extension Help {
    /// The `series` field of the requests that name one repeating series.
    static let series = "The series: its id (`repeats` lists them), or the title of its to-dos when no other series has it."
}

extension SeriesReference: RequestValue {
    public static var jsonForm: String { "a series id, or the title of a repeating to-do (a string)" }
}

struct SetRepeatRequest: Request {
    static let name = "setRepeat"
    static let summary = "Make an item repeat by a rule (its first to-do), change the rule of its series, or take the repeat off."
    var item: ItemReference = "#1"
    var `repeat`: RepeatChoice = .noRepeat
    var list: ListReference?
    var day: Day?

    static let fields: [RequestField<Self>] = [
        .init("item", \.item, help: "The item: #N, an id, or at least 4 characters of one."),
        .init("repeat", \.repeat, help: "The rule (RULE, a JSON object: type fixed or afterCompletion, every, unit, and weekdays, monthDays, nthWeekday, months, ends, deadlineOffset, reminder), or null (none on the command line) to take the repeat off."),
        .init("list", \.list, help: Help.countingList),
        .init("day", \.day, help: "The start date an item without one gets (YYYY-MM-DD); today where this machine is when not given."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> SetRepeat {
        SetRepeat(item: try resolve.item(item, numberedIn: try resolve.numbering(list)).id, repeat: self.repeat.rule, day: day)
    }
}

/// A request that names one repeating series: `pauseRepeat`, `resumeRepeat`.
protocol SeriesRequest: Request {
    var series: SeriesReference { get set }
    init(series: SeriesReference)
    static func intent(for series: Series.ID) -> Intent
}

extension SeriesRequest {
    static var fields: [RequestField<Self>] {
        [.init("series", \.series, help: Help.series)]
    }

    func intent(_ resolve: ReferenceResolver) throws -> Intent { Self.intent(for: try resolve.series(series).id) }
}

struct PauseRepeatRequest: SeriesRequest {
    typealias Intent = PauseRepeat
    static let name = "pauseRepeat"
    static let summary = "Stop a repeating to-do making to-dos for now."
    var series: SeriesReference = ""

    static func intent(for series: Series.ID) -> PauseRepeat { PauseRepeat(series: series) }
}

struct ResumeRepeatRequest: SeriesRequest {
    typealias Intent = ResumeRepeat
    static let name = "resumeRepeat"
    static let summary = "Let a paused repeating to-do make to-dos again."
    var series: SeriesReference = ""

    static func intent(for series: Series.ID) -> ResumeRepeat { ResumeRepeat(series: series) }
}

struct RepeatsRequest: Request {
    static let name = "repeats"
    static let summary = "List the repeating to-dos: each series' rule, its next date, whether it is paused, and its template."
    var day: Day?

    static let fields: [RequestField<Self>] = [
        .init("day", \.day, help: "The day a series after completion counts its next date from (YYYY-MM-DD); today when not given.")
    ]

    var readsOnly: Bool { true }

    func intent(_ resolve: ReferenceResolver) -> GetRepeats { GetRepeats(day: day) }
}

struct RepeatCommand: RequestCommand {
    typealias Form = SetRepeatRequest
    static let configuration = CommandConfiguration(
        commandName: "repeat",
        abstract: Form.summary,
        usage: "arrange repeat <item> (<rule>|none) [--day YYYY-MM-DD]",
        discussion: """
            The rule is RULE of the JSON Lines protocol, as one argument. Examples:
              arrange repeat '#1' '{"type": "fixed", "every": 1, "unit": "month", "monthDays": [1]}'
              arrange repeat '#2' '{"type": "afterCompletion", "every": 3, "unit": "day"}'
              arrange repeat '#1' none
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.item), valueName: "item")) var item: ItemReference
    @Argument(help: ArgumentHelp(Form.help(\.repeat), valueName: "rule"), transform: RepeatChoice.init(argument:)) var rule: RepeatChoice
    @Option(help: ArgumentHelp(Help.countingList, valueName: "list")) var list: ListReference?
    @Option(help: ArgumentHelp(Form.help(\.day), valueName: "YYYY-MM-DD"), transform: Day.init(option:)) var day: Day?

    var request: Form { Form(item: item, repeat: rule, list: list, day: day) }

    func text(for result: ItemResult, in session: CommandSession) -> String {
        "\(result.item.title): " + (result.item.repeat.map(TextFormat.rule) ?? "does not repeat") + "."
    }
}

/// The commands that name one repeating series.
protocol SeriesCommand: RequestCommand where Form: SeriesRequest, Form.Result == RepeatSeriesResult {
    var series: SeriesReference { get }
}

extension SeriesCommand {
    var request: Form { Form(series: series) }

    func text(for result: RepeatSeriesResult, in session: CommandSession) -> String {
        TextFormat.series(result.series)
    }
}

struct PauseRepeatCommand: SeriesCommand {
    typealias Form = PauseRepeatRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange pause-repeat 'Pay rent'")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Help.series, valueName: "series")) var series: SeriesReference
}

struct ResumeRepeatCommand: SeriesCommand {
    typealias Form = ResumeRepeatRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange resume-repeat 'Pay rent'")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Help.series, valueName: "series")) var series: SeriesReference
}

struct RepeatsCommand: RequestCommand {
    typealias Form = RepeatsRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange repeats")
    @OptionGroup var shared: SharedOptions
    @Option(help: ArgumentHelp(Form.help(\.day), valueName: "YYYY-MM-DD"), transform: Day.init(option:)) var day: Day?

    var request: Form { Form(day: day) }

    func text(for result: RepeatsResult, in session: CommandSession) -> String {
        result.series.isEmpty ? "Nothing repeats." : result.series.map(TextFormat.series).joined(separator: "\n")
    }
}

extension RequestCatalogue {
    /// The requests of repeating to-dos, in the order help lists them.
    static let repeatRequests: [any Request.Type] = [SetRepeatRequest.self, PauseRepeatRequest.self, ResumeRepeatRequest.self, RepeatsRequest.self]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let repeatCommands: [any ParsableCommand.Type] = [RepeatCommand.self, PauseRepeatCommand.self, ResumeRepeatCommand.self, RepeatsCommand.self]
}
