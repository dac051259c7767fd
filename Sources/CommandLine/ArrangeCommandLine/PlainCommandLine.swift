import ArgumentParser

/// A command line of the plainest shape, read without ArgumentParser's reflection.
///
/// ArgumentParser learns a command's arguments by reflecting on its type, and in a process
/// that runs one command, the Swift runtime's first lookups of the conformances it reflects
/// on cost more than the command itself (BENCHMARKS.md, *The one-shot command*). So the
/// commands that scripts run most read a plain command line here first: one whose arguments
/// are plain words and the long names of the command's flags and options, each option
/// followed by a value that does not start with `-`, and no name given twice.
///
/// Anything else — help, `--version`, `--name=value`, a short name, `--`, a value the
/// option's type refuses, arguments that fail validation — is not plain, and ArgumentParser
/// reads the whole command line as before. So errors, help and completion stay
/// ArgumentParser's, and a command made here is the one ArgumentParser would make: a
/// differential test holds the two to each other.
struct PlainCommandLine {
    /// Why a command line is left to ArgumentParser.
    struct NotPlain: Error {}

    /// The commands that read a plain command line themselves.
    static let commands: [any PlainlyReadCommand.Type] = [
        ListsCommand.self, ListCommand.self, ShowCommand.self, AddCommand.self, RenameCommand.self, EditCommand.self,
        CompleteCommand.self, ReopenCommand.self, DeleteCommand.self, MoveCommand.self,
    ]

    /// The plain words, in the order given.
    private(set) var words: [String] = []
    /// The flags given, by long name without dashes.
    private var flags: Set<String> = []
    /// The options given, by long name without dashes, with their values.
    private var options: [String: String] = [:]

    /// The command `arguments` ask for, validated, when they are a plain command line of one of
    /// ``commands``; `nil` when ArgumentParser should read them.
    ///
    /// - Parameter arguments: The arguments after the program's name.
    /// - Throws: The ``ReferenceError`` of a plain command line that names a malformed
    ///   reference: the command's own `validate()` threw it, as it would once ArgumentParser had
    ///   read the line again at length, and ArgumentParser would report it as it is.
    static func command(from arguments: [String]) throws(ReferenceError) -> (any SessionCommand)? {
        guard let name = arguments.first, let type = commands.first(where: { $0.configuration.commandName == name }),
              let line = try? PlainCommandLine(
                  arguments.dropFirst(),
                  flags: type.plainFlags.union(SharedOptions.plainFlags), options: type.plainOptions.union(SharedOptions.plainOptions)),
              var command = try? type.init(plain: line)
        else {
            return nil
        }
        do {
            try command.validate()
        } catch let refusal as ReferenceError {
            throw refusal
        } catch {
            return nil
        }
        return command
    }

    /// Splits `arguments` into words, flags and options.
    ///
    /// - Parameters:
    ///   - flags: The long names, without dashes, that are flags.
    ///   - options: The long names, without dashes, that take a value.
    /// - Throws: ``NotPlain`` for any other argument that starts with `-`, an option without a
    ///   plain value, or a name given twice.
    init(_ arguments: ArraySlice<String>, flags knownFlags: Set<String>, options knownOptions: Set<String>) throws(NotPlain) {
        var rest = arguments
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("-") else {
                words.append(argument)
                continue
            }
            guard argument.hasPrefix("--") else { throw NotPlain() }
            let name = String(argument.dropFirst(2))
            if knownFlags.contains(name), flags.insert(name).inserted {
                continue
            }
            guard knownOptions.contains(name), let value = rest.popFirst(), !value.hasPrefix("-"),
                  options.updateValue(value, forKey: name) == nil
            else { throw NotPlain() }
        }
    }

    /// Whether the flag `name` is given.
    func flag(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// Whether the flag or option `name` is given.
    func isGiven(_ name: String) -> Bool {
        flags.contains(name) || options[name] != nil
    }

    /// The value of the option `name`, as ArgumentParser converts it; `nil` when not given.
    ///
    /// - Throws: ``NotPlain`` when the value does not convert: ArgumentParser reports it.
    func option<Value: ExpressibleByArgument>(_ name: String) throws(NotPlain) -> Value? {
        guard let text = options[name] else { return nil }
        guard let value = Value(argument: text) else { throw NotPlain() }
        return value
    }

    /// The value of whichever of two names for one option is given; `nil` when neither is.
    ///
    /// - Throws: ``NotPlain`` when both are given, or the value does not convert.
    func option<Value: ExpressibleByArgument>(_ name: String, or otherName: String) throws(NotPlain) -> Value? {
        guard !(isGiven(name) && isGiven(otherName)) else { throw NotPlain() }
        return try option(isGiven(name) ? name : otherName)
    }

    /// Whether either of two names for one flag is given.
    ///
    /// - Throws: ``NotPlain`` when both are.
    func flag(_ name: String, or otherName: String) throws(NotPlain) -> Bool {
        guard !(flag(name) && flag(otherName)) else { throw NotPlain() }
        return flag(name) || flag(otherName)
    }

    /// The words converted as ArgumentParser converts them.
    ///
    /// - Throws: ``NotPlain`` when one does not convert.
    func words<Value: ExpressibleByArgument>(as type: Value.Type) throws(NotPlain) -> [Value] {
        try words.map { word throws(NotPlain) in
            guard let value = Value(argument: word) else { throw NotPlain() }
            return value
        }
    }

    /// The only word, converted; `nil` when there is none.
    ///
    /// - Throws: ``NotPlain`` for more than one word, or one that does not convert.
    func onlyWord<Value: ExpressibleByArgument>(as type: Value.Type) throws(NotPlain) -> Value? {
        guard words.count <= 1 else { throw NotPlain() }
        return try self.words(as: type).first
    }

    /// The only word, converted, which the command requires.
    ///
    /// - Throws: ``NotPlain`` for no word or more than one, or one that does not convert.
    func requiredOnlyWord<Value: ExpressibleByArgument>(as type: Value.Type) throws(NotPlain) -> Value {
        guard let value = try onlyWord(as: type) else { throw NotPlain() }
        return value
    }
}

/// A command that can read a ``PlainCommandLine`` itself.
protocol PlainlyReadCommand: SessionCommand {
    /// The long names of the command's own flags, without their dashes.
    static var plainFlags: Set<String> { get }
    /// The long names of the command's own options, without their dashes.
    static var plainOptions: Set<String> { get }

    /// The command with every argument taken from `line`, before validation.
    ///
    /// - Throws: ``PlainCommandLine/NotPlain`` when ArgumentParser should read the line.
    init(plain line: PlainCommandLine) throws(PlainCommandLine.NotPlain)
}

extension PlainlyReadCommand {
    static var plainFlags: Set<String> { [] }
    static var plainOptions: Set<String> { [] }
}

extension ParsableArguments {
    /// Runs the command's or group's own validation, as ArgumentParser runs it for each one it
    /// decodes.
    ///
    /// - Throws: ``PlainCommandLine/NotPlain`` when it fails: ArgumentParser then reads the
    ///   line, and reports the failure as it always does.
    mutating func validateAsArgumentParserWould() throws(PlainCommandLine.NotPlain) {
        do { try validate() } catch { throw PlainCommandLine.NotPlain() }
    }
}

extension SharedOptions {
    /// The long names of the flags every command takes, the settings' among them.
    static let plainFlags: Set<String> = ["json", Setting.jitter.flag, "no-" + Setting.jitter.flag]
    /// The long names of the options every command takes, the settings' among them.
    static let plainOptions: Set<String> = [
        "db", Setting.endGap.flag, Setting.minimumGap.flag, Setting.defaultList.flag, Setting.historySize.flag,
    ]

    /// The shared options of a plain command line, validated.
    init(plain line: PlainCommandLine) throws(PlainCommandLine.NotPlain) {
        self.init()
        db = try line.option("db")
        json = line.flag("json")
        settings = try SettingsOptions(plain: line)
        try validateAsArgumentParserWould()
    }
}

extension SettingsOptions {
    /// The settings of a plain command line, validated.
    init(plain line: PlainCommandLine) throws(PlainCommandLine.NotPlain) {
        self.init()
        endGap = try line.option(Setting.endGap.flag)
        minimumGap = try line.option(Setting.minimumGap.flag)
        jitter = switch (line.flag(Setting.jitter.flag), line.flag("no-" + Setting.jitter.flag)) {
        case (true, true): throw PlainCommandLine.NotPlain()
        case (true, false): true
        case (false, true): false
        case (false, false): nil
        }
        defaultList = try line.option(Setting.defaultList.flag)
        historySize = try line.option(Setting.historySize.flag)
        try validateAsArgumentParserWould()
    }
}

extension PlacementOptions {
    /// The long names of the placement's flags.
    static var plainFlags: Set<String> { ["top", "bottom"] }
    /// The long names of the placement's options.
    static var plainOptions: Set<String> { ["before", "after", "offset"] }

    /// The placement of a plain command line, validated.
    init(plain line: PlainCommandLine) throws(PlainCommandLine.NotPlain) {
        self.init()
        top = line.flag("top")
        bottom = line.flag("bottom")
        before = try line.option("before")
        after = try line.option("after")
        offset = try line.option("offset")
        try validateAsArgumentParserWould()
    }
}

extension ItemsArguments {
    /// The items (at least one) and the counting list of a plain command line, validated.
    init(plain line: PlainCommandLine) throws(PlainCommandLine.NotPlain) {
        self.init()
        guard !line.words.isEmpty else { throw PlainCommandLine.NotPlain() }
        items = try line.words(as: ItemReference.self)
        list = try line.option("list")
        try validateAsArgumentParserWould()
    }
}

extension ListsCommand: PlainlyReadCommand {
    init(plain line: PlainCommandLine) throws(PlainCommandLine.NotPlain) {
        self.init()
        guard line.words.isEmpty else { throw PlainCommandLine.NotPlain() }
        shared = try SharedOptions(plain: line)
    }
}

extension ListCommand: PlainlyReadCommand {
    static var plainFlags: Set<String> { ["all", "include-completed"] }
    static var plainOptions: Set<String> { ["list", "tag"] }

    init(plain line: PlainCommandLine) throws(PlainCommandLine.NotPlain) {
        self.init()
        shared = try SharedOptions(plain: line)
        name = try line.onlyWord(as: ListReference.self)
        list = try line.option("list")
        includeCompleted = try line.flag("all", or: "include-completed")
        tagFilter = TagFilterOption(plain: try line.option("tag"))
    }
}

extension TagFilterOption {
    /// The option of a plain command line, which names at most one tag.
    init(plain tag: TagReference?) {
        self.init()
        tags = tag.map { [$0] } ?? []
    }
}

extension ShowCommand: PlainlyReadCommand {
    static var plainOptions: Set<String> { ["list"] }

    init(plain line: PlainCommandLine) throws(PlainCommandLine.NotPlain) {
        self.init()
        shared = try SharedOptions(plain: line)
        item = try line.requiredOnlyWord(as: ItemReference.self)
        list = try line.option("list")
    }
}

extension AddCommand: PlainlyReadCommand {
    static var plainFlags: Set<String> { PlacementOptions<ItemReference>.plainFlags.union(["today"]) }
    static var plainOptions: Set<String> { PlacementOptions<ItemReference>.plainOptions.union(["list", "notes", "when", "deadline"]) }

    init(plain line: PlainCommandLine) throws(PlainCommandLine.NotPlain) {
        self.init()
        shared = try SharedOptions(plain: line)
        guard !line.words.isEmpty else { throw PlainCommandLine.NotPlain() }
        title = line.words
        list = try line.option("list")
        placement = try PlacementOptions(plain: line)
        notes = try line.option("notes")
        today = line.flag("today")
        when = try line.option("when")
        deadline = try line.option("deadline")
        options = PhraseDayOption(day: nil)
    }
}

extension RenameCommand: PlainlyReadCommand {
    static var plainOptions: Set<String> { ["list"] }

    init(plain line: PlainCommandLine) throws(PlainCommandLine.NotPlain) {
        self.init()
        shared = try SharedOptions(plain: line)
        guard line.words.count >= 2, let item = ItemReference(argument: line.words[0]) else { throw PlainCommandLine.NotPlain() }
        self.item = item
        title = Array(line.words.dropFirst())
        list = try line.option("list")
    }
}

extension EditCommand: PlainlyReadCommand {
    static var plainOptions: Set<String> { ["title", "notes", "list"] }

    init(plain line: PlainCommandLine) throws(PlainCommandLine.NotPlain) {
        self.init()
        shared = try SharedOptions(plain: line)
        item = try line.requiredOnlyWord(as: ItemReference.self)
        title = try line.option("title")
        notes = try line.option("notes")
        list = try line.option("list")
    }
}

/// The commands whose arguments are ``ItemsArguments``: `complete`, `reopen`, `delete`.
protocol PlainlyReadItemsCommand: PlainlyReadCommand, RequestCommand where Form: ItemsRequest {
    var shared: SharedOptions { get set }
    var arguments: ItemsArguments<Form> { get set }
}

extension PlainlyReadItemsCommand {
    static var plainOptions: Set<String> { ["list"] }

    init(plain line: PlainCommandLine) throws(PlainCommandLine.NotPlain) {
        self.init()
        shared = try SharedOptions(plain: line)
        arguments = try ItemsArguments(plain: line)
    }
}

extension CompleteCommand: PlainlyReadCommand {
    static var plainOptions: Set<String> { ["list"] }

    init(plain line: PlainCommandLine) throws(PlainCommandLine.NotPlain) {
        self.init()
        shared = try SharedOptions(plain: line)
        arguments = try ItemsArguments(plain: line)
        done = DoneDayOption(day: nil)
    }
}
extension ReopenCommand: PlainlyReadItemsCommand {}
extension DeleteCommand: PlainlyReadItemsCommand {}

extension MoveCommand: PlainlyReadCommand {
    static var plainFlags: Set<String> { PlacementOptions<ItemReference>.plainFlags.union(["no-heading"]) }
    static var plainOptions: Set<String> { PlacementOptions<ItemReference>.plainOptions.union(["into", "list", "from", "heading"]) }

    init(plain line: PlainCommandLine) throws(PlainCommandLine.NotPlain) {
        self.init()
        shared = try SharedOptions(plain: line)
        items = try line.words(as: ItemReference.self)
        placement = try PlacementOptions(plain: line)
        list = try line.option("into", or: "list")
        from = try line.option("from")
        heading = try line.option("heading")
        noHeading = line.flag("no-heading")
        fromOffsets = []
        toOffset = nil
        toHeading = nil
    }
}
