public import ArrangeOrdering
import ArrangeModel
public import Foundation

/// The settings of the `arrange` tool, after layering every source.
///
/// The built-in ``defaults`` are those documented in `Configs/arrange.json` (a test keeps the
/// two equal). A user file (`$XDG_CONFIG_HOME/arrange/config.json`, else
/// `~/.config/arrange/config.json`) overrides them, `ARRANGE_*` environment variables
/// (`ARRANGE_END_GAP`, `ARRANGE_MINIMUM_GAP`, `ARRANGE_JITTER`, `ARRANGE_DEFAULT_LIST`,
/// `ARRANGE_HISTORY_SIZE`) override the file, and command-line flags override everything.
public struct Settings: Hashable, Sendable {
    /// How far past the first or last item a key at the top or the bottom steps.
    public var endGap: Int64
    /// The smallest distance allowed between two neighbouring keys.
    public var minimumGap: Int64
    /// Whether new keys fall at a random point of their gap.
    public var jitter: Bool
    /// The name of the list commands use when they name none.
    ///
    /// The database remembers its default list by id, so renaming that list keeps it the
    /// default. This name matters when the database has no default list yet (it is created,
    /// or an existing list of that name is adopted), and when a person sets it
    /// (``defaultListIsChosen``): then that list becomes the database's default list, created
    /// when missing.
    public var defaultList: String
    /// How many steps undo can go back in a session, and how many lines the REPL's history keeps.
    public var historySize: Int
    /// Whether ``defaultList`` was set by a person (a flag, an environment variable or the user's
    /// file), rather than left to the built-in default.
    public var defaultListIsChosen: Bool

    public init(endGap: Int64, minimumGap: Int64, jitter: Bool, defaultList: String, historySize: Int, defaultListIsChosen: Bool = false) {
        self.endGap = endGap
        self.minimumGap = minimumGap
        self.jitter = jitter
        self.defaultList = defaultList
        self.historySize = historySize
        self.defaultListIsChosen = defaultListIsChosen
    }

    /// The built-in defaults, as `Configs/arrange.json` documents them.
    public static let defaults = Settings(
        endGap: OrderingConfiguration().endGap, minimumGap: OrderingConfiguration().minimumGap,
        jitter: OrderingConfiguration().jitter, defaultList: "Inbox", historySize: 500)

    /// The keys of a configuration file, in the order docs/configuration.md documents them.
    public static var keys: [String] { Setting.all.map { $0.key } }

    /// The ordering part of the settings.
    public var ordering: OrderingConfiguration {
        OrderingConfiguration(endGap: endGap, minimumGap: minimumGap, jitter: jitter)
    }

    /// Throws when a value cannot be used.
    public func validate() throws(CommandLineError) {
        do {
            try ordering.validate()
        } catch {
            throw .configuration(error.description)
        }
        guard historySize >= 0 else { throw .configuration("historySize must be 0 or more; it is \(historySize).") }
        do {
            _ = try Title.validated(defaultList, as: .listName)
        } catch {
            throw .configuration("defaultList: \(error.description)")
        }
    }
}

/// Settings given on the command line; a setting not given is left to the other sources.
///
/// ```swift
/// SettingsOverrides().with(Setting.historySize, 9)
/// ```
public struct SettingsOverrides: Sendable {
    /// What each given setting sets, by key.
    private var values: [String: @Sendable (inout Settings) -> Void] = [:]

    public init() {}

    /// These overrides with `value` for `setting`; `nil` leaves the setting out.
    public func with<Value>(_ setting: SettingDefinition<Value>, _ value: Value?) -> SettingsOverrides {
        var overrides = self
        if let value {
            let keyPath = setting.keyPath
            overrides.values[setting.key] = { @Sendable settings in settings[keyPath: keyPath] = value }
        } else {
            overrides.values[setting.key] = nil
        }
        return overrides
    }

    /// Whether no setting is given.
    public var isEmpty: Bool { values.isEmpty }

    /// Whether `setting` is given.
    public func gives<Value>(_ setting: SettingDefinition<Value>) -> Bool {
        values[setting.key] != nil
    }

    /// Sets in `settings` each setting given.
    fileprivate func apply(to settings: inout Settings) {
        for set in values.values { set(&settings) }
    }
}

/// Every setting, each declared once: its key, its help, the kind of its values and where it
/// lives in ``Settings``. The file keys, the environment variables, the flags' names and help,
/// and the reading of every source come from these.
public enum Setting {
    public static let endGap = SettingDefinition.wholeNumber(
        "endGap", \.endGap, help: "How far past the first or last item a new top or bottom key steps.")
    public static let minimumGap = SettingDefinition.wholeNumber(
        "minimumGap", \.minimumGap, help: "The smallest distance between neighbouring keys; closer keys are re-spread.")
    public static let jitter = SettingDefinition.flag(
        "jitter", \.jitter, help: "Place new keys at a random point of their gap, so that two devices rarely pick the same key.")
    public static let defaultList = SettingDefinition.text(
        "defaultList", \.defaultList, kind: "a list name",
        help: "The list commands use when they name none (the database's own default list unless another name is given).")
    public static let historySize = SettingDefinition.wholeNumber(
        "historySize", \.historySize, help: "How many steps undo can go back, and how many lines the REPL history keeps.")

    /// Every setting, in the order docs/configuration.md documents them.
    public static let all: [any AnySetting] = [endGap, minimumGap, jitter, defaultList, historySize]
}

/// One setting: its key in the user's file, the help of its flag, the kind of its values for
/// messages, and its place in ``Settings``.
public struct SettingDefinition<Value: Sendable>: AnySetting {
    /// The key in the user's file (`endGap`); the flag (`--end-gap`) and the environment
    /// variable (`ARRANGE_END_GAP`) are made from it.
    public let key: String
    /// What the setting does, in a sentence for the flag's help.
    public let help: String
    /// What its values are, for messages: "a whole number".
    let kind: String
    let keyPath: any WritableKeyPath<Settings, Value> & Sendable
    /// The value a value of the user's file gives, or `nil` when it is of another kind.
    let fromFile: @Sendable (SettingsFileValue) -> Value?
    /// The value an environment variable's text gives, or `nil` when it gives none.
    let fromText: @Sendable (String) -> Value?

    /// The flag's name, without its dashes: `end-gap`.
    public var flag: String { Settings.flagName(of: key) }

    public func read(file: [String: SettingsFileValue], environment: [String: String], into settings: inout Settings, userFile: URL) throws(CommandLineError) {
        let variable = Settings.variableName(of: key)
        let value: Value??
        if let text = environment[variable] {
            value = fromText(text)
        } else {
            value = file[key].map(fromFile)
        }
        switch value {
        case .none: return
        case .some(.some(let value)): settings[keyPath: keyPath] = value
        case .some(.none): throw .configuration("\(key) must be \(kind); check --\(flag), \(variable) and \(userFile.path).")
        }
    }
}

extension SettingDefinition where Value == Int64 {
    static func wholeNumber(_ key: String, _ keyPath: any WritableKeyPath<Settings, Int64> & Sendable, help: String) -> Self {
        Self(key: key, help: help, kind: "a whole number", keyPath: keyPath, fromFile: \.wholeNumber, fromText: { Int64($0) })
    }
}

extension SettingDefinition where Value == Int {
    static func wholeNumber(_ key: String, _ keyPath: any WritableKeyPath<Settings, Int> & Sendable, help: String) -> Self {
        Self(key: key, help: help, kind: "a whole number", keyPath: keyPath, fromFile: { $0.wholeNumber.flatMap { Int(exactly: $0) } }, fromText: { Int($0) })
    }
}

extension SettingDefinition where Value == Bool {
    static func flag(_ key: String, _ keyPath: any WritableKeyPath<Settings, Bool> & Sendable, help: String) -> Self {
        Self(key: key, help: help, kind: "true or false", keyPath: keyPath, fromFile: \.truthValue, fromText: { text in
            switch text.lowercased() {
            case "true", "yes", "1": true
            case "false", "no", "0": false
            default: nil
            }
        })
    }
}

extension SettingDefinition where Value == String {
    static func text(_ key: String, _ keyPath: any WritableKeyPath<Settings, String> & Sendable, kind: String, help: String) -> Self {
        Self(key: key, help: help, kind: kind, keyPath: keyPath, fromFile: \.text, fromText: { $0 })
    }
}

/// A setting of any value type, as ``Setting/all`` lists them.
public protocol AnySetting: Sendable {
    var key: String { get }
    var help: String { get }
    /// Reads the setting into `settings` from its environment variable, else from the user's
    /// file; leaves it as it is when neither gives it.
    ///
    /// - Throws: ``CommandLineError/configuration(_:)`` naming the flag, the variable and the file to check.
    func read(file: [String: SettingsFileValue], environment: [String: String], into settings: inout Settings, userFile: URL) throws(CommandLineError)
}

/// A value of the user's settings file, as JSON gives it.
public enum SettingsFileValue: Sendable, Decodable {
    case truthValue(Bool)
    case wholeNumber(Int64)
    case text(String)
    /// Anything else: a fraction, an array, an object, `null`.
    case other

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .truthValue(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .wholeNumber(value)
        } else if let value = try? container.decode(String.self) {
            self = .text(value)
        } else {
            self = .other
        }
    }

    var truthValue: Bool? {
        if case .truthValue(let value) = self { value } else { nil }
    }

    var wholeNumber: Int64? {
        if case .wholeNumber(let value) = self { value } else { nil }
    }

    var text: String? {
        if case .text(let value) = self { value } else { nil }
    }
}

extension Settings {
    /// Reads the settings from every source, in order of precedence: the flags, the
    /// environment, the user file, the built-in defaults.
    ///
    /// - Parameters:
    ///   - overrides: What the command line gives.
    ///   - environment: The process's environment variables.
    ///   - userFile: The user's configuration file; a missing file counts as empty.
    /// - Throws: ``CommandLineError/configuration(_:)`` for a file that is not a JSON object,
    ///   an unknown key, a value of the wrong type, or values that cannot work together.
    public static func load(overrides: SettingsOverrides, environment: [String: String], userFile: URL) throws(CommandLineError) -> Settings {
        let file = try values(of: userFile)
        var settings = Settings.defaults
        for setting in Setting.all {
            try setting.read(file: file, environment: environment, into: &settings, userFile: userFile)
        }
        overrides.apply(to: &settings)
        settings.defaultListIsChosen = overrides.gives(Setting.defaultList)
            || environment[variableName(of: Setting.defaultList.key)] != nil || file[Setting.defaultList.key] != nil
        try settings.validate()
        return settings
    }

    /// The command-line flag of a setting, without its dashes: `end-gap`.
    static func flagName(of key: String) -> String {
        words(of: key).joined(separator: "-")
    }

    /// The environment variable of a setting: `ARRANGE_END_GAP`.
    static func variableName(of key: String) -> String {
        (["ARRANGE"] + words(of: key)).joined(separator: "_").uppercased()
    }

    /// The lowercase words of a camelCase key.
    private static func words(of key: String) -> [String] {
        key.reduce(into: [""]) { words, character in
            if character.isUppercase { words.append("") }
            words[words.count - 1].append(Character(character.lowercased()))
        }
    }

    /// The values of the user's file, by key; refuses a file that is not a JSON object or has a
    /// key that is not a setting, so that a misspelt key is not silently ignored.
    private static func values(of file: URL) throws(CommandLineError) -> [String: SettingsFileValue] {
        guard let data = FileManager.default.contents(atPath: file.path) else { return [:] }
        guard (try? JSONSerialization.jsonObject(with: data)) != nil else { throw .configuration("\(file.path) is not valid JSON.") }
        guard let values = try? JSONDecoder().decode([String: SettingsFileValue].self, from: data) else {
            throw .configuration("\(file.path) must hold a JSON object.")
        }
        if let unknown = values.keys.sorted().first(where: { !keys.contains($0) }) {
            throw .configuration("\(file.path) has an unknown key '\(unknown)'; the keys are \(keys.joined(separator: ", ")).")
        }
        return values
    }
}
