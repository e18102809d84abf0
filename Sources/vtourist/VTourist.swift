import ArgumentParser
import Foundation
import Store
import Terminal
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
            Press ? in the app for its keys and the map's legend.

            Map data: Natural Earth (public domain); shorelines and rivers: GSHHG by P. Wessel and \
            W. H. F. Smith (LGPL-3.0); place names and populations: GeoNames (CC BY 4.0).
            """,
        version: version,
        subcommands: [App.self, Pins.self, AlbumCommand.self, Drop.self, Export.self, Import.self, Render.self, Config.self],
        defaultSubcommand: App.self
    )

    /// `render IMAGE [--size COLSxROWS]` goes straight to the renderer (Render.plainArguments);
    /// everything else through the argument parser.
    static func main() {
        if let plain = Render.plainArguments(Array(CommandLine.arguments.dropFirst())) {
            do {
                try Render.print(image: plain.image, size: plain.size)
                // Everything is written (straight to the descriptor, nothing buffered): leave without
                // running exit handlers and tearing down threads, which takes about a millisecond.
                _exit(0)
            } catch {
                StandardStream.error.write("vtourist: \("\(error)".strippingTerminalControls)\n")
                Foundation.exit(1)
            }
        }
        // A file that may not grow (a file-size limit) makes the write fail with EFBIG, which
        // the store reports as a full disk, instead of killing the process with SIGXFSZ.
        signal(SIGXFSZ, SIG_IGN)
        main(nil)
    }
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

    /// Opens the database; a file other users could read is tightened, and a line on stderr says so.
    func open() throws -> AppDatabase {
        let store: AppDatabase
        do {
            store = try AppDatabase.open(path: path())
        } catch {
            throw CommandFailure("\(error)")
        }
        for note in store.permissionNotes {
            StandardStream.error.write("vtourist: \("\(note)".strippingTerminalControls)\n")
        }
        return store
    }
}

/// A failure reported as one line on stderr with a non-zero exit. The message often holds a
/// path or a stored name: it is kept to one line and obeys no escape sequence.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message.strippingTerminalControls }
}

extension ParsableCommand {
    /// Runs a body, turning failures into one line on stderr and exit status 1.
    func reportingFailures(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as CommandFailure {
            StandardStream.error.write("vtourist: \(error.description)\n")
            throw ExitCode(1)
        }
    }
}
