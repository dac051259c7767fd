public import ArrangeOrdering
import ArrangeModel
import Configuration
public import Foundation
import SystemPackage

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
    /// or an existing list of that name is adopted), and when a person chooses another name
    /// (``defaultListIsChosen``): then that list becomes the default, created when missing.
    public var defaultList: String
    /// How many steps undo can go back in a session, and how many lines the REPL's history keeps.
    public var historySize: Int

    public init(endGap: Int64, minimumGap: Int64, jitter: Bool, defaultList: String, historySize: Int) {
        self.endGap = endGap
        self.minimumGap = minimumGap
        self.jitter = jitter
        self.defaultList = defaultList
        self.historySize = historySize
    }

    /// The built-in defaults, as `Configs/arrange.json` documents them.
    public static let defaults = Settings(
        endGap: OrderingConfiguration().endGap, minimumGap: OrderingConfiguration().minimumGap,
        jitter: OrderingConfiguration().jitter, defaultList: "Inbox", historySize: 500)

    /// The keys of a configuration file, in the order the README documents them.
    public static let keys = ["endGap", "minimumGap", "jitter", "defaultList", "historySize"]

    /// Whether a person chose a default list other than the built-in one (`Inbox`), by name:
    /// then that list becomes the database's default list, created when missing.
    public var defaultListIsChosen: Bool {
        ItemList.nameKey(defaultList) != ItemList.nameKey(Self.defaults.defaultList)
    }

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

/// Settings given on the command line; `nil` leaves a setting to the other sources.
public struct SettingsOverrides: Hashable, Sendable {
    public var endGap: Int64?
    public var minimumGap: Int64?
    public var jitter: Bool?
    public var defaultList: String?
    public var historySize: Int?

    public init(endGap: Int64? = nil, minimumGap: Int64? = nil, jitter: Bool? = nil, defaultList: String? = nil, historySize: Int? = nil) {
        self.endGap = endGap
        self.minimumGap = minimumGap
        self.jitter = jitter
        self.defaultList = defaultList
        self.historySize = historySize
    }

    /// Whether no setting is given.
    public var isEmpty: Bool { self == SettingsOverrides() }

    fileprivate var values: [AbsoluteConfigKey: ConfigValue] {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        if let endGap { values["endGap"] = ConfigValue(.int(Int(endGap)), isSecret: false) }
        if let minimumGap { values["minimumGap"] = ConfigValue(.int(Int(minimumGap)), isSecret: false) }
        if let jitter { values["jitter"] = ConfigValue(.bool(jitter), isSecret: false) }
        if let defaultList { values["defaultList"] = ConfigValue(.string(defaultList), isSecret: false) }
        if let historySize { values["historySize"] = ConfigValue(.int(historySize), isSecret: false) }
        return values
    }
}

extension Settings {
    /// Reads the settings from every source, with swift-configuration's providers in order of
    /// precedence: the flags, the environment, the user file, the built-in defaults.
    ///
    /// - Parameters:
    ///   - overrides: What the command line gives.
    ///   - environment: The process's environment variables.
    ///   - userFile: The user's configuration file; a missing file counts as empty.
    /// - Throws: ``CommandLineError/configuration(_:)`` for a file that is not a JSON object,
    ///   an unknown key, a value of the wrong type, or values that cannot work together.
    public static func load(overrides: SettingsOverrides, environment: [String: String], userFile: URL) async throws(CommandLineError) -> Settings {
        try checkKeys(of: userFile)
        let file: FileProvider<JSONSnapshot>
        do {
            file = try await FileProvider<JSONSnapshot>(filePath: FilePath(userFile.path), allowMissing: true)
        } catch {
            throw .configuration("Cannot read \(userFile.path): \(error)")
        }
        let defaults = Settings.defaults
        let reader = ConfigReader(providers: [
            InMemoryProvider(name: "flags", values: overrides.values),
            EnvironmentVariablesProvider(environmentVariables: environment).prefixKeys(with: "arrange"),
            file,
            InMemoryProvider(name: "defaults", values: SettingsOverrides(
                endGap: defaults.endGap, minimumGap: defaults.minimumGap, jitter: defaults.jitter,
                defaultList: defaults.defaultList, historySize: defaults.historySize).values),
        ])
        func value<Value>(_ key: String, _ kind: String, _ read: (ConfigKey) throws -> Value) throws(CommandLineError) -> Value {
            do {
                return try read(ConfigKey(key))
            } catch {
                throw .configuration("\(key) must be \(kind); check --\(flagName(of: key)), \(variableName(of: key)) and \(userFile.path).")
            }
        }
        let settings = Settings(
            endGap: Int64(try value("endGap", "a whole number") { try reader.requiredInt(forKey: $0) }),
            minimumGap: Int64(try value("minimumGap", "a whole number") { try reader.requiredInt(forKey: $0) }),
            jitter: try value("jitter", "true or false") { try reader.requiredBool(forKey: $0) },
            defaultList: try value("defaultList", "a list name") { try reader.requiredString(forKey: $0) },
            historySize: try value("historySize", "a whole number") { try reader.requiredInt(forKey: $0) })
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

    /// Refuses a user file that is not a JSON object or has a key that is not a setting, so
    /// that a misspelt key is not silently ignored.
    private static func checkKeys(of file: URL) throws(CommandLineError) {
        guard let data = FileManager.default.contents(atPath: file.path) else { return }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .configuration("\(file.path) is not valid JSON.")
        }
        guard let dictionary = object as? [String: Any] else { throw .configuration("\(file.path) must hold a JSON object.") }
        if let unknown = dictionary.keys.sorted().first(where: { !keys.contains($0) }) {
            throw .configuration("\(file.path) has an unknown key '\(unknown)'; the keys are \(keys.joined(separator: ", ")).")
        }
    }
}
