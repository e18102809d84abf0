import Foundation

/// Finds the bundled data files (map geometry, gazetteer).
/// Looks in `$VTOURIST_DATA_DIR`, then `<binary>/../share/vtourist` (an
/// installed copy), then the source tree's `Resources/` (development builds).
public enum ResourceLocator {
    public static func url(for name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        candidates(environment: environment)
            .map { $0.appendingPathComponent(name) }
            .first { FileManager.default.isReadableFile(atPath: $0.path) }
    }

    public static func candidates(environment: [String: String]) -> [URL] {
        var dirs: [URL] = []
        if let dir = environment["VTOURIST_DATA_DIR"], !dir.isEmpty {
            dirs.append(URL(fileURLWithPath: dir))
        }
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        dirs.append(exe.deletingLastPathComponent().appendingPathComponent("../share/vtourist").standardized)
        // Sources/WorldMap/ResourceLocator.swift → <root>/Resources
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        dirs.append(root.appendingPathComponent("Resources"))
        return dirs
    }
}
