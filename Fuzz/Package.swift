// swift-tools-version:6.0
// libFuzzer targets for the code that reads bad input (SPEC 8, docs/reliability.md "Fuzzing").
// A package of its own, so that the app's `swift build` and `swift test` never build them: they
// link only with `-sanitize=fuzzer`, which `make fuzz` passes (see the Makefile).
import PackageDescription

/// Each target: its name (the folder under Sources/ and the product is `fuzz-<name>`).
let targets = ["flickr", "commons", "jpeg", "coordinates", "pinfiles", "terminal", "settings", "app"]

let package = Package(
    name: "vtourist-fuzz",
    products: targets.map { .executable(name: "fuzz-\($0)", targets: ["fuzz-\($0)"]) },
    // The app's package through a link `make fuzz-build` makes: a package is known by its folder's
    // name, and a checkout in a folder named like this one's would clash with it.
    dependencies: [.package(name: "vtourist", path: "../.build-fuzz/vtourist")],
    targets: [
        // What every target shares: reading the fuzzer's bytes as typed values, and the checks.
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer", .product(name: "FuzzedLibraries", package: "vtourist")]),
    ] + targets.map {
        .executableTarget(name: "fuzz-\($0)", dependencies: [
            "FuzzSupport", .product(name: "FuzzedLibraries", package: "vtourist"),
        ], path: "Sources/\($0)")
    },
    swiftLanguageModes: [.v6]
)
