import ArgumentParser
import Foundation
import Terminal
import Model
import PhotoSources
import Store

/// `vtourist config [get NAME | set NAME VALUE | unset NAME] [--json]` (SPEC 4). Plain `config`
/// lists the settings itself, so a usage error names `vtourist config`, not a hidden subcommand.
struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the settings with their values and origins; get, set or unset one.",
        usage: """
            vtourist config [--json] [--db <path>]
            vtourist config get <name> [--json] [--db <path>]
            vtourist config set <name> <value> [--db <path>]
            vtourist config unset <name> [--db <path>]
            """,
        discussion: """
            Settings: \(ConfigReport.knownNames()).
            Each value comes from the default, the database or the environment \
            (\(ConfigReport.overridingVariables())).
            The Flickr API key is never shown in full.
            """,
        subcommands: [ConfigGet.self, ConfigSet.self, ConfigUnset.self, ConfigList.self]
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingFailures { try ConfigList.list(database: database, json: output.json) }
    }
}

/// `--json` of `config` and `config get`. A group, as `DatabaseOptions` is: the parser reads it once
/// for the whole command line, so `config get NAME --json` hands it to `get`.
struct JSONOutput: ParsableArguments {
    @Flag(name: .long, help: "Print JSON: an array of {name, value, origin}, or one such object for get.")
    var json = false
}

/// The process environment, where the overriding variables are read.
private var processEnvironment: [String: String] { ProcessInfo.processInfo.environment }

/// The stored settings' texts, as the app reads them.
private func storedTexts(_ store: AppDatabase) throws -> [SettingKey: String] {
    do { return try store.storedSettingTexts() } catch { throw CommandFailure("cannot read the settings: \(error)") }
}

/// The stored settings' texts; none where there is no database, and none is created for reading.
private func storedTexts(_ database: DatabaseOptions) throws -> [SettingKey: String] {
    guard let store = try database.openIfPresent(forReading: true) else { return [:] }
    defer { try? store.close() }
    return try storedTexts(store)
}

/// Stored values and variables that were ignored, one line each on stderr.
private func reportProblems(_ report: ConfigReport) {
    for problem in report.problems { StandardStream.error.write("vtourist: \(problem)\n") }
}

/// A setting's name, refused (one line) before the database is opened when it is none.
private func settingKey(_ name: String) throws -> SettingKey {
    guard let key = ConfigReport.key(named: name) else { throw CommandFailure.badInput(ConfigReport.unknownName(name)) }
    return key
}

/// `config list`, the same as plain `config`: kept for the scripts that spell it out.
struct ConfigList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List every setting (the same as plain config).",
                                                    shouldDisplay: false)

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingFailures { try ConfigList.list(database: database, json: output.json) }
    }

    static func list(database: DatabaseOptions, json: Bool) throws {
        let report = ConfigReport(stored: try storedTexts(database), environment: processEnvironment)
        reportProblems(report)
        print(json ? report.json : report.table, terminator: json ? "\n" : "")
    }
}

struct ConfigGet: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "get", abstract: "Print one setting's value.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The setting (\(ConfigReport.knownNames())).", valueName: "name"))
    var name: String

    @OptionGroup var output: JSONOutput

    func run() throws {
        try reportingFailures {
            let key = try settingKey(name)
            let report = ConfigReport(stored: try storedTexts(database), environment: processEnvironment)
            reportProblems(report)
            print(output.json ? report.json(key) : report.entry(key).shownValue)
        }
    }
}

struct ConfigSet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Validate and store one setting.",
        usage: "vtourist config set <name> <value> [--db <path>]",
        discussion: "A value that starts with - other than a number follows --: config set flickr_api_key -- -abc")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The setting (\(ConfigReport.knownNames())).", valueName: "name"))
    var name: String

    /// Every word that is not an option: a negative number is a value here, not an option.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The value.", valueName: "value"))
    var words: [String] = []

    var valueWords: [String] { words.filter { $0 != "--" } }

    /// Read for the whole command line (`JSONOutput`); set prints no JSON.
    @OptionGroup(visibility: .private) var output: JSONOutput

    func validate() throws {
        if output.json { throw ValidationError("Unknown option '--json'") }
        if let option = valueWords.first(where: Drop.isOption), !words.contains("--") {
            throw ValidationError("Unknown option '\(String(option.prefix(40)))'")
        }
        if valueWords.isEmpty { throw ValidationError("Missing expected argument '<value>'") }
        if valueWords.count > 1 { throw ValidationError("set takes one value; quote a value that has spaces") }
    }

    func run() throws {
        try reportingFailures {
            let key = try settingKey(name)
            // Checked before the database is opened: bad input creates no file.
            let value: String
            switch ConfigReport.valueToStore(key, valueWords[0]) {
            case .success(let canonical): value = canonical
            case .failure(let refusal): throw CommandFailure.badInput(refusal.description)
            }
            let store = try database.open()
            defer { try? store.close() }
            do { try store.setSetting(key, to: value) } catch { throw CommandFailure("\(error)") }
            for line in ConfigReport.stored(key, value: value, environment: processEnvironment) { print(line) }
        }
    }
}

struct ConfigUnset: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unset",
        abstract: "Return one setting to its default (the source to automatic; the key or contact removed).")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The setting (\(ConfigReport.knownNames())).", valueName: "name"))
    var name: String

    /// Read for the whole command line (`JSONOutput`); unset prints no JSON.
    @OptionGroup(visibility: .private) var output: JSONOutput

    func validate() throws {
        if output.json { throw ValidationError("Unknown option '--json'") }
    }

    func run() throws {
        try reportingFailures {
            let key = try settingKey(name)
            var stored: [SettingKey: String] = [:]
            // Where there is no database nothing is stored: nothing to remove, and none is created.
            if let store = try database.openIfPresent() {
                defer { try? store.close() }
                do { try store.removeSetting(key.rawValue) } catch { throw CommandFailure("\(error)") }
                stored = try storedTexts(store)
            }
            let entry = ConfigReport(stored: stored, environment: processEnvironment).entry(key)
            if let variable = entry.variable {
                print("\(key.rawValue) is no longer stored; \(variable) is set and overrides it (\(entry.shownValue))")
            } else if let value = entry.value {
                print("\(key.rawValue) = \(value) (default)")
            } else {
                print("\(key.rawValue) is not set (default)")
            }
        }
    }
}
