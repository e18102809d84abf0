import ArgumentParser
import Foundation
import Store
import Terminal
import TextSafety
import TouristCore

@main
struct VTourist: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "vtourist",
        abstract: "Virtual Tourist for the terminal: drop pins on a world map and collect photo albums of the places.",
        discussion: """
            Run without a subcommand for the full-screen map: vtourist [--db <path>]

            The database is --db, else $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite.
            Press \(MapKeys.browsing.keyName(for: .help)) in the app for its keys and the map's legend.

            Map data: Natural Earth (public domain); shorelines and rivers: GSHHG by P. Wessel and \
            W. H. F. Smith (LGPL-3.0); place names and populations: GeoNames (CC BY 4.0).
            """,
        version: version,
        subcommands: [Pins.self, AlbumSubcommand.self, Drop.self, Rename.self, Move.self, Delete.self, Export.self, Import.self, Render.self, Config.self]
    )

    /// The database of the full-screen map and of every subcommand: the parser reads an option
    /// group once for the whole command line and hands it down, so `--db` works before or after
    /// the subcommand.
    @OptionGroup var database: DatabaseOptions

    func run() throws {
        try reportingFailures { try FullScreenApp.run(database: database) }
    }

    /// `render IMAGE [--size COLSxROWS]` goes straight to the renderer (Render.plainArguments);
    /// everything else through the argument parser.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let plain = Render.plainArguments(arguments) {
            do {
                try Render.print(image: plain.image, size: plain.size)
                // Everything is written (straight to the descriptor, nothing buffered): leave without
                // running exit handlers and tearing down threads, which takes about a millisecond.
                runLeakCheckIfSanitized()
                _exit(0)
            } catch {
                StandardStream.error.write("vtourist: \("\(error)".strippingTerminalControls)\n")
                Foundation.exit((error as? CommandFailure)?.status ?? CommandFailure.Kind.failure.status)
            }
        }
        // A file that may not grow (a file-size limit) makes the write fail with EFBIG, which
        // the store reports as a full disk, instead of killing the process with SIGXFSZ.
        signal(SIGXFSZ, SIG_IGN)
        #if DEBUG
        LeakProbe.dropIfAsked()
        #endif
        main(arguments)
    }
}

/// A build with LeakSanitizer (`make check-address-app`) checks for leaks at exit, which `_exit` skips:
/// such a build checks here instead. In any other build the symbol is absent and this does nothing.
private func runLeakCheckIfSanitized() {
    guard let check = dlsym(nil, "__lsan_do_leak_check") else { return }
    unsafeBitCast(check, to: (@convention(c) () -> Void).self)()
}

/// Options every command shares.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).", valueName: "path"))
    var db: String?

    /// Where the database lives: --db, then VTOURIST_DB, then the XDG data folder.
    func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let db, !db.isEmpty { return db }
        if let env = environment["VTOURIST_DB"], !env.isEmpty { return env }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            dataHome = home + "/.local/share"
        }
        return dataHome + "/vtourist/vtourist.sqlite"
    }

    /// Opens the database, creating it when missing; a file other users could read is tightened,
    /// and a line on stderr says so.
    func open() throws -> AppDatabase {
        let timeout = try busyTimeout()
        return try opened { path throws(StoreError) in try AppDatabase.open(path: path, busyTimeout: timeout) }
    }

    /// Opens the database for the full-screen app: as `open`, but one this user may not write is
    /// opened read-only (the app says so) instead of refused.
    func openAllowingReadOnly() throws -> AppDatabase {
        let timeout = try busyTimeout()
        return try opened { path throws(StoreError) in try AppDatabase.openAllowingReadOnly(path: path, busyTimeout: timeout) }
    }

    /// Opens the database for a command that only reads it: a missing one is a failure, and no
    /// file or folder is created.
    func openExisting() throws -> AppDatabase {
        let timeout = try busyTimeout()
        return try opened { path throws(StoreError) in try AppDatabase.openExisting(path: path, busyTimeout: timeout) }
    }

    /// Opens the database for a command that only reads it: as `openExisting`, but a database this
    /// user may not write is opened read-only instead of refused.
    func openForReading() throws -> AppDatabase {
        let timeout = try busyTimeout()
        return try opened { path throws(StoreError) in try AppDatabase.openForReading(path: path, busyTimeout: timeout) }
    }

    /// The database if there is one (read-only where this user may not write it, when `forReading`);
    /// nil, and nothing created, when there is none.
    func openIfPresent(forReading: Bool = false) throws -> AppDatabase? {
        let timeout = try busyTimeout()
        do {
            return try opened { path throws(StoreError) in
                try forReading ? AppDatabase.openForReading(path: path, busyTimeout: timeout)
                               : AppDatabase.openExisting(path: path, busyTimeout: timeout)
            }
        } catch let failure as CommandFailure where failure.cause == .missing(path: path()) {
            return nil
        }
    }

    /// The name of the variable that sets how long a write waits for another program's write lock.
    static let busyTimeoutVariable = "VTOURIST_BUSY_TIMEOUT"
    /// What `VTOURIST_BUSY_TIMEOUT` may be, in seconds: long enough that a locked database is not tried
    /// again in a spin, short enough that the app says it waits within the hour.
    static let busyTimeoutRange: ClosedRange<Double> = 0.1...3600

    /// Seconds a write waits for another program's write lock before it fails (the command line) or
    /// is said to wait and tried again (the app): `VTOURIST_BUSY_TIMEOUT`, else the store's default.
    func busyTimeout(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> TimeInterval {
        guard let text = environment[Self.busyTimeoutVariable], !text.isEmpty else { return AppDatabase.defaultBusyTimeout }
        guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), Self.busyTimeoutRange.contains(seconds) else {
            let range = String(format: "%g to %g", Self.busyTimeoutRange.lowerBound, Self.busyTimeoutRange.upperBound)
            throw CommandFailure("\(Self.busyTimeoutVariable) must be a number of seconds from \(range), not \u{201C}\(text)\u{201D}")
        }
        return seconds
    }

    private func opened(_ open: (String) throws(StoreError) -> AppDatabase) throws -> AppDatabase {
        let store: AppDatabase
        do {
            store = try open(path())
        } catch {
            throw CommandFailure("\(error)", cause: error)
        }
        for note in store.permissionNotes {
            StandardStream.error.write("vtourist: \("\(note)".strippingTerminalControls)\n")
        }
        return store
    }
}
