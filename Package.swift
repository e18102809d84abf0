// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "vtourist",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "vtourist", targets: ["vtourist"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // System libraries (Debian packages).
        .systemLibrary(
            name: "CNcursesw",
            path: "Sources/CNcursesw",
            providers: [.apt(["libncursesw5-dev"])]
        ),

        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),

        // Pure libraries.
        .target(name: "Terminal"),
        .target(name: "WorldMap"),
        .target(name: "Gazetteer", dependencies: ["WorldMap"]),
        .target(name: "TouristCore", dependencies: ["Terminal", "WorldMap", "Gazetteer", "AlbumMachine"]),
        .target(name: "Store", dependencies: [
            "TouristCore",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),

        // The album state machine: pure transitions, effects as values.
        .target(name: "AlbumMachine"),
        // Flickr and Wikimedia Commons searches over any HTTP fetcher.
        .target(name: "PhotoSources", dependencies: ["WorldMap"]),
        // The only module that talks to libcurl.
        .target(name: "HTTP", dependencies: ["CCurl"]),

        // Runs albums: the machine's effects over the photo sources, libcurl and the store.
        .target(name: "AlbumService", dependencies: ["AlbumMachine", "PhotoSources", "HTTP", "Store", "TouristCore", "WorldMap"]),

        // The UI loop and the effect interpreter; the terminal, clock, store and albums are passed in.
        .target(name: "TouristRuntime", dependencies: [
            "TouristCore", "Terminal", "WorldMap", "Store", "AlbumService", "AlbumMachine",
        ]),

        // The only module that talks to ncurses.
        .target(name: "Curses", dependencies: ["CNcursesw", "Terminal"]),

        // Command line, configuration and wiring.
        .executableTarget(name: "vtourist", dependencies: [
            "TouristCore", "Store", "Curses", "Terminal", "WorldMap", "Gazetteer",
            "AlbumService", "AlbumMachine", "PhotoSources", "HTTP",
            "TouristRuntime",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "vtourist-bench", dependencies: [
            "TouristCore", "Terminal", "WorldMap", "Gazetteer", "Store",
        ], path: "Sources/Bench"),

        .testTarget(name: "TerminalTests", dependencies: ["Terminal"]),
        .testTarget(name: "WorldMapTests", dependencies: ["WorldMap"]),
        .testTarget(name: "GazetteerTests", dependencies: ["Gazetteer", "WorldMap"]),
        .testTarget(name: "TouristCoreTests", dependencies: ["TouristCore", "Terminal", "WorldMap", "AlbumMachine"],
                    resources: [.copy("Golden")]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "TouristCore"]),
        .testTarget(name: "AlbumMachineTests", dependencies: ["AlbumMachine"]),
        .testTarget(name: "PhotoSourcesTests", dependencies: ["PhotoSources", "WorldMap"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP"], exclude: ["Server"]),
        // Test servers shared by test targets (not part of the product).
        .target(name: "TestSupport", path: "Tests/Support", exclude: ["photo_server.py"]),
        .testTarget(name: "AlbumServiceTests", dependencies: ["AlbumService", "AlbumMachine", "PhotoSources", "HTTP", "Store", "TouristCore", "WorldMap", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport"]),
        .testTarget(name: "RuntimeTests", dependencies: [
            "TouristRuntime", "TouristCore", "Terminal", "WorldMap", "Store", "AlbumService", "AlbumMachine",
            "PhotoSources", "HTTP", "TestSupport",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
