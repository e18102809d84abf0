// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "vtourist",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "vtourist", targets: ["vtourist"]),
        // The libraries the fuzz targets in Fuzz/ (a package of their own) read bad input with.
        .library(name: "FuzzedLibraries", targets: [
            "PhotoSources", "Imaging", "Gazetteer", "PinFiles", "Terminal", "Curses", "TouristCore",
            "WorldMap", "Geo", "TextSafety", "Model", "AlbumMachine", "Store",
        ]),
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

        // libcurl opened on first use (dlopen), not at start-up: docs/http.md. Needs libcurl4-openssl-dev's headers.
        .target(name: "CCurl", path: "Sources/CCurl"),

        .systemLibrary(
            name: "CTurboJPEG",
            path: "Sources/CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),

        .systemLibrary(
            name: "CChafa",
            path: "Sources/CChafa",
            pkgConfig: "chafa",
            providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]
        ),

        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),

        // The only module that talks to the image libraries: JPEG decoding and encoding, picture → cells, PNG.
        .target(name: "Imaging", dependencies: ["CTurboJPEG", "CChafa", "CZlib", "Terminal"]),

        // Pure libraries.
        // Plain geographic values that need no map data: GeoPoint, distances, how coordinates are written.
        .target(name: "Geo"),
        // The one rule for untrusted text: what a terminal would obey rather than show is taken out.
        .target(name: "TextSafety"),
        // Pins, photos, their states and the validated settings: what every layer speaks of.
        .target(name: "Model", dependencies: ["Geo", "TextSafety"]),
        .target(name: "Terminal", dependencies: ["TextSafety"]),
        // A lock the thread sanitizer sees (docs/reliability.md, "Sanitizers").
        .target(name: "Locking"),
        .target(name: "WorldMap", dependencies: ["Geo"]),
        // Optimised in debug builds too: the destinations file is read in 0.15 s optimised, 2 s
        // unoptimised and 14 s under AddressSanitizer, which the tests and the sanitizer runs of the
        // program would otherwise wait for.
        .target(name: "Gazetteer", dependencies: ["Geo", "WorldMap", "Locking"],
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // GeoJSON and GPX pin files: what `export` writes and `import` reads.
        .target(name: "PinFiles", dependencies: ["Model", "Geo", "TextSafety"]),
        .target(name: "TouristCore", dependencies: ["Model", "Terminal", "TextSafety", "Geo", "WorldMap", "Gazetteer", "AlbumMachine"]),
        .target(name: "Store", dependencies: [
            "Model", "Geo",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),

        // The album state machine: pure transitions, effects as values.
        .target(name: "AlbumMachine", dependencies: ["Model", "Geo"]),
        // Flickr and Wikimedia Commons searches over any HTTP fetcher.
        .target(name: "PhotoSources", dependencies: ["Model", "Geo", "HTTP", "TextSafety"]),
        // The only module that talks to libcurl.
        .target(name: "HTTP", dependencies: ["CCurl", "Locking"]),

        // Runs albums: the machine's effects over the photo sources, libcurl and the store; what is no
        // picture is refused at download by the image check the caller gives (the app's: Imaging's).
        .target(name: "AlbumService", dependencies: ["Model", "AlbumMachine", "PhotoSources", "HTTP", "Store", "Geo"]),

        // An album saved as files: safe names, credits.json, index.html, and the writing of them.
        .target(name: "AlbumExport", dependencies: ["Model", "Geo", "Store"]),

        // The UI loop and the effect interpreter; the terminal, clock, store and albums are passed in.
        .target(name: "TouristRuntime", dependencies: [
            "TouristCore", "Model", "Terminal", "Geo", "WorldMap", "Store", "AlbumService", "AlbumMachine", "Imaging", "PhotoSources", "Locking", "HTTP",
            "AlbumExport",
        ]),

        // The only module that talks to ncurses.
        .target(name: "Curses", dependencies: ["CNcursesw", "Terminal"]),

        // Command line, configuration and wiring.
        .executableTarget(name: "vtourist", dependencies: [
            "Imaging",
            "Model", "TouristCore", "Store", "Curses", "Terminal", "TextSafety", "Geo", "WorldMap", "Gazetteer",
            "AlbumService", "AlbumMachine", "PhotoSources", "HTTP",
            "TouristRuntime", "PinFiles", "Locking", "AlbumExport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: [
            // Release: the Swift runtime and Foundation linked in (no toolchain libraries needed at run
            // time), relative relocations packed (RELR, lld): start-up 10.4 → 4.5 ms (docs/imaging.md, Benchmarks).
            .unsafeFlags(["-static-stdlib"], .when(configuration: .release)),
        ], linkerSettings: [
            .unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                         .when(configuration: .release)),
        ]),
        .executableTarget(name: "vtourist-bench", dependencies: [
            "Model", "TouristCore", "Terminal", "Geo", "WorldMap", "Gazetteer", "Store",
            "TouristRuntime", "AlbumService", "PhotoSources", "HTTP", "Imaging",
        ], path: "Sources/Bench"),

        .testTarget(name: "TextSafetyTests", dependencies: ["TextSafety", "TestSupport"]),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal", "TestSupport"]),
        .testTarget(name: "CursesTests", dependencies: ["Curses", "Terminal", "TestSupport"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "Terminal", "InlineReaders", "TestSupport"]),
        .testTarget(name: "GeoTests", dependencies: ["Geo", "CUndefinedProbe"]),
        .testTarget(name: "ModelTests", dependencies: ["Model"]),
        .testTarget(name: "WorldMapTests", dependencies: ["WorldMap", "Geo", "Locking", "TestSupport"]),
        .testTarget(name: "AlbumExportTests", dependencies: ["AlbumExport", "Store", "Model", "Geo", "TestSupport"]),
        .testTarget(name: "PinFilesTests", dependencies: ["PinFiles", "Model", "Geo", "TestSupport"]),
        .testTarget(name: "GazetteerTests", dependencies: ["Gazetteer", "Geo", "WorldMap", "TestSupport"]),
        .testTarget(name: "TouristCoreTests", dependencies: ["TouristCore", "Model", "Terminal", "Geo", "WorldMap", "AlbumMachine", "Gazetteer", "TestSupport"],
                    resources: [.copy("Golden")]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "Model", "Geo", "Locking", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "AlbumMachineTests", dependencies: ["AlbumMachine", "Model", "Geo", "Locking", "TestSupport"]),
        // The command line's own logic (`config`'s report), reached through the executable target.
        .testTarget(name: "VTouristTests", dependencies: ["vtourist", "Model", "PhotoSources", "Store", "AlbumExport", "TouristCore", "Terminal", "Geo"]),
        .testTarget(name: "PhotoSourcesTests", dependencies: ["PhotoSources", "Model", "Geo", "HTTP", "Locking", "TestSupport"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"], exclude: ["Server"]),
        // The inline image protocols read back from their bytes, for the imaging and runtime tests.
        .target(name: "InlineReaders", dependencies: ["Imaging", "CZlib"], path: "Tests/InlineReaders"),
        // C with undefined behaviour on purpose: the UndefinedBehaviorSanitizer probe (not part of the product).
        .target(name: "CUndefinedProbe", path: "Tests/CUndefinedProbe"),
        // Test servers shared by test targets (not part of the product).
        .target(name: "TestSupport", path: "Tests/Support", exclude: ["photo_server.py", "peak_rss.py", "net_proxy.py"]),
        .testTarget(name: "AlbumServiceTests", dependencies: ["AlbumService", "AlbumMachine", "PhotoSources", "HTTP", "Store", "Model", "Geo", "Imaging", "Terminal", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "InlineReaders"]),
        .testTarget(name: "RuntimeTests", dependencies: [
            "TouristRuntime", "TouristCore", "Model", "Terminal", "Geo", "WorldMap", "Store", "AlbumService", "AlbumMachine",
            "PhotoSources", "HTTP", "Imaging", "TestSupport", "Locking", "InlineReaders", "AlbumExport",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
