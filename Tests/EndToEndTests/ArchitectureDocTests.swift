import Foundation
import XCTest

/// docs/architecture.md lists the modules and who imports whom; Package.swift is what is built.
/// These tests fail when the two disagree, in either direction.
final class ArchitectureDocTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Target: Equatable {
        var name: String
        /// The folder below Sources/ (the name unless a path is given).
        var folder: String
        var dependencies: Set<String>
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The package's own modules (`.target`, `.executableTarget`, `.systemLibrary` under Sources/) and
    /// the modules of the package each depends on (products of other packages left out).
    static func packageTargets(_ manifest: String) throws -> [Target] {
        let text = manifest.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") ? "" : String($0) }
            .joined(separator: "\n")
            .replacing(try Regex(#"\.product\([^)]*\)"#), with: "")
        let starts = text.matches(of: try Regex(#"\.(target|executableTarget|systemLibrary|testTarget)\(\s*name:\s*"([^"]+)""#))
        var targets: [Target] = []
        for (i, start) in starts.enumerated() {
            let kind = String(start.output[1].substring ?? "")
            let name = String(start.output[2].substring ?? "")
            let end = i + 1 < starts.count ? starts[i + 1].range.lowerBound : text.endIndex
            let body = text[start.range.lowerBound..<end]
            let path = body.firstMatch(of: try Regex(#"path:\s*"([^"]+)""#)).flatMap { $0.output[1].substring.map(String.init) }
            guard kind != "testTarget", !(path ?? "Sources/").hasPrefix("Tests/") else { continue }
            var dependencies = Set<String>()
            if let list = body.firstMatch(of: try Regex(#"dependencies:\s*\[([^\]]*)\]"#))?.output[1].substring {
                for quoted in list.matches(of: try Regex(#""([^"]+)""#)) {
                    dependencies.insert(String(quoted.output[1].substring ?? ""))
                }
            }
            let folder = path.map { String($0.split(separator: "/").last ?? "") } ?? name
            targets.append(Target(name: name, folder: folder, dependencies: dependencies))
        }
        return targets
    }

    /// The folders the first code block under `Sources/` names (`  Model/   …`).
    static func documentedFolders(_ doc: String) -> [String] {
        var folders: [String] = []
        var inSources = false
        for line in doc.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "Sources/" { inSources = true; continue }
            guard inSources else { continue }
            guard line.hasPrefix("  ") else { break }
            // A deeper indent goes on describing the folder above.
            if line.hasPrefix("   ") { continue }
            let word = line.dropFirst(2).prefix { $0 != " " }
            if word.hasSuffix("/") { folders.append(String(word.dropLast())) }
        }
        return folders
    }

    /// The code block after the line that starts "Who imports whom": a module, then what it imports (`—` for nothing).
    static func documentedDependencies(_ doc: String) -> [String: Set<String>] {
        let lines = doc.split(separator: "\n", omittingEmptySubsequences: false)
        guard let heading = lines.firstIndex(where: { $0.hasPrefix("Who imports whom") }),
              let open = lines[heading...].firstIndex(where: { $0.hasPrefix("```") }) else { return [:] }
        var graph: [String: Set<String>] = [:]
        for line in lines[(open + 1)...] {
            if line.hasPrefix("```") { break }
            let words = line.split(separator: " ").map(String.init)
            guard let module = words.first else { continue }
            graph[module] = Set(words.dropFirst().filter { $0 != "—" })
        }
        return graph
    }

    func testEveryModuleIsDocumentedAndEveryDocumentedFolderIsAModule() throws {
        let targets = try Self.packageTargets(Self.read("Package.swift"))
        let folders = Self.documentedFolders(try Self.read("docs/architecture.md"))
        XCTAssertGreaterThan(targets.count, 10, "Package.swift was read")
        let built = Set(targets.map(\.folder)), documented = Set(folders)
        XCTAssertEqual(built.subtracting(documented).sorted(), [], "modules in Package.swift missing from docs/architecture.md")
        XCTAssertEqual(documented.subtracting(built).sorted(), [], "folders in docs/architecture.md that Package.swift does not build")
        XCTAssertEqual(folders.count, documented.count, "a folder listed twice")
    }

    func testWhoImportsWhomIsWhatPackageSwiftSays() throws {
        let targets = try Self.packageTargets(Self.read("Package.swift"))
        let graph = Self.documentedDependencies(try Self.read("docs/architecture.md"))
        XCTAssertFalse(graph.isEmpty, "docs/architecture.md has its \"Who imports whom\" block")
        for target in targets {
            XCTAssertEqual(graph[target.name], target.dependencies, "\(target.name): docs/architecture.md says otherwise")
        }
        XCTAssertEqual(Set(graph.keys).subtracting(targets.map(\.name)).sorted(), [], "documented modules Package.swift does not build")
    }

    /// The code block after the line that starts "The layers": a layer's name, then its modules, top layer first.
    static func documentedLayers(_ doc: String) -> [[String]] {
        let lines = doc.split(separator: "\n", omittingEmptySubsequences: false)
        guard let heading = lines.firstIndex(where: { $0.hasPrefix("The layers") }),
              let open = lines[heading...].firstIndex(where: { $0.hasPrefix("```") }) else { return [] }
        var layers: [[String]] = []
        for line in lines[(open + 1)...] {
            if line.hasPrefix("```") { break }
            layers.append(line.split(separator: " ").dropFirst().map(String.init))
        }
        return layers
    }

    func testEveryModuleImportsOnlyItsLayerAndTheLayersBelow() throws {
        let targets = try Self.packageTargets(Self.read("Package.swift"))
        let layers = Self.documentedLayers(try Self.read("docs/architecture.md"))
        XCTAssertGreaterThan(layers.count, 3, "docs/architecture.md has its layers block")
        var layerOf: [String: Int] = [:]
        for (i, modules) in layers.enumerated() { for module in modules { layerOf[module] = i } }
        XCTAssertEqual(Set(targets.map(\.name)).subtracting(layerOf.keys).sorted(), [], "modules in no layer")
        XCTAssertEqual(Set(layerOf.keys).subtracting(targets.map(\.name)).sorted(), [], "layered modules Package.swift does not build")
        for target in targets {
            guard let own = layerOf[target.name] else { continue }
            for dependency in target.dependencies {
                guard let below = layerOf[dependency] else { continue }
                XCTAssertGreaterThanOrEqual(below, own, "\(target.name) imports \(dependency), a layer above it")
            }
        }
    }

    func testTheLowModulesStayLight() throws {
        let targets = Dictionary(uniqueKeysWithValues: try Self.packageTargets(Self.read("Package.swift")).map { ($0.name, $0.dependencies) })
        XCTAssertEqual(targets["Geo"], [], "Geo imports nothing")
        XCTAssertEqual(targets["TextSafety"], [], "TextSafety imports nothing")
        for module in ["Model", "Store", "AlbumMachine", "PhotoSources", "PinFiles", "AlbumService"] {
            XCTAssertEqual(targets[module]?.contains("WorldMap"), false, "\(module) needs no map data")
        }
        XCTAssertEqual(targets["AlbumService"]?.contains("Imaging"), false, "the album service is given its image check")
        XCTAssertEqual(targets["PhotoSources"]?.contains("Terminal"), false, "the photo sources clean text with TextSafety")
    }

    func testNoModuleReExportsAnother() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        XCTAssertGreaterThan(files.count, 50, "Sources/ was read")
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            XCTAssertFalse(text.contains("@_exported"), "\(file.lastPathComponent): each file imports what it uses")
        }
    }

    func testTheParserReadsWhatItMustAndRefusesWhatItMust() throws {
        let manifest = """
            // .target(name: "Commented"),
            .systemLibrary(name: "CLib", path: "Sources/CLib"),
            .target(name: "Low"),
            .target(name: "High", dependencies: ["Low", .product(name: "GRDB", package: "GRDB.swift")]),
            .executableTarget(name: "tool-bench", dependencies: [
                "High",
            ], path: "Sources/Bench"),
            .target(name: "TestSupport", path: "Tests/Support"),
            .testTarget(name: "HighTests", dependencies: ["High"]),
            """
        XCTAssertEqual(try Self.packageTargets(manifest), [
            Target(name: "CLib", folder: "CLib", dependencies: []),
            Target(name: "Low", folder: "Low", dependencies: []),
            Target(name: "High", folder: "High", dependencies: ["Low"]),
            Target(name: "tool-bench", folder: "Bench", dependencies: ["High"]),
        ])
        let doc = "```\nSources/\n  Low/    the bottom\n          more about it\n  High/   the top\nResources/   data\n```\n"
            + "Who imports whom:\n\n```\nLow   —\nHigh  Low\n```\n"
        XCTAssertEqual(Self.documentedFolders(doc), ["Low", "High"])
        XCTAssertEqual(Self.documentedDependencies(doc), ["Low": [], "High": ["Low"]])
    }

    /// The names of the bullet list (`- `Name`: …`) that follows the first line starting with `lead`.
    static func documentedList(_ doc: String, after lead: String) -> [String] {
        let lines = doc.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(lead) }) else { return [] }
        var names: [String] = []
        var inList = false
        for line in lines[start...] {
            if line.hasPrefix("- `") {
                inList = true
                names.append(String(line.dropFirst(3).prefix { $0 != "`" }))
            } else if inList {
                break
            }
        }
        return names
    }

    /// Every Swift file under Sources/, read.
    static func sources() throws -> [(name: String, text: String)] {
        let folder = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.map { ($0.lastPathComponent, try String(contentsOf: $0, encoding: .utf8)) }
    }

    /// The types that conform to `Widget` where they are declared.
    static func widgets(in text: String) throws -> [String] {
        text.matches(of: try Regex(#"(?m)^\s*(?:public |internal |private |fileprivate )?(?:struct|final class|enum) (\w+)(?:<[^>]*>)?\s*:[^{\n]*\bWidget\b"#))
            .compactMap { $0.output[1].substring.map(String.init) }
    }

    /// The cases of `enum NAME` in `text` (its first-level `case` lines, several names on one line included).
    static func cases(of name: String, in text: String) throws -> [String] {
        guard let start = text.firstMatch(of: try Regex("enum \(name)\\b[^{]*\\{")) else { return [] }
        var names: [String] = []
        var depth = 1
        for line in text[start.range.upperBound...].split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if depth == 1, trimmed.hasPrefix("case ") {
                // `case a, b` or `case a(X, Y)`: the names before any parenthesis, split at top-level commas.
                var level = 0, current = "", found: [String] = []
                for ch in trimmed.dropFirst(5) {
                    if ch == "(" { level += 1 } else if ch == ")" { level -= 1 }
                    if level == 0, ch == "," { found.append(current); current = ""; continue }
                    if level == 0, ch != ")" { current.append(ch) }
                }
                found.append(current)
                names += found.map { String($0.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter || $0.isNumber || $0 == "_" }) }
            }
            depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
            if depth <= 0 { break }
        }
        return names.filter { !$0.isEmpty }
    }

    func testTheWidgetListIsTheCodesWidgets() throws {
        let doc = try Self.read("docs/architecture.md")
        let documented = Self.documentedList(doc, after: "only its area. The widgets")
        var built: [String] = []
        for file in try Self.sources() { built += try Self.widgets(in: file.text) }
        XCTAssertGreaterThan(built.count, 10, "the sources were read")
        XCTAssertEqual(Set(built).subtracting(documented).sorted(), [], "widgets docs/architecture.md does not list")
        XCTAssertEqual(Set(documented).subtracting(built).sorted(), [], "listed widgets the code does not have")
        XCTAssertEqual(documented.count, Set(documented).count, "a widget listed twice")
    }

    func testTheEffectListIsTheCodesEffects() throws {
        let doc = try Self.read("docs/architecture.md")
        let documented = Self.documentedList(doc, after: "What a reducer asks the runtime for is an `AppEffect`")
        let text = try Self.read("Sources/TouristCore/App/AppAction.swift")
        let effects = try Self.cases(of: "AppEffect", in: text)
        XCTAssertGreaterThan(effects.count, 10, "AppEffect was read")
        XCTAssertEqual(documented, effects, "docs/architecture.md's effects, in the order of AppEffect")
    }

    func testTheListReadersReadWhatTheyMust() throws {
        let code = """
            public struct MapWidget: Widget {
            struct KeyHints<Command: Equatable & Sendable>: Widget {
            struct Plain: Equatable {
                struct Nested: Widget {
            enum Effect: Equatable {
                /// A comment with case in it
                case one(Int, name: String)
                case two, three
                case four
                enum Inner { case hidden }
                func f() { switch x { case .one: break } }
            }
            """
        XCTAssertEqual(try Self.widgets(in: code), ["MapWidget", "KeyHints", "Nested"])
        XCTAssertEqual(try Self.cases(of: "Effect", in: code), ["one", "two", "three", "four"])
        XCTAssertEqual(Self.documentedList("Intro\nThe list:\n\n- `a`: x\n- `b`: y\n\nAfter\n- `c`: z\n", after: "The list"), ["a", "b"])
    }
}
