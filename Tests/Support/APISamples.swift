import Foundation

/// The response samples from the APIs' documentation in Tests/Fixtures/api-samples (see its README).
public enum APISamples {
    public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/api-samples")

    public static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }
}
