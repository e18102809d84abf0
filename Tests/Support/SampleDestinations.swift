import Foundation

/// Tests/Fixtures/destinations-sample.tsv: a few destinations in the format of
/// Resources/destinations.tsv, weighted to exercise the name ranking.
public enum SampleDestinations {
    public static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/destinations-sample.tsv")

    /// The places file shipped in Resources/ (the real one: rankings are checked against it).
    public static let placesURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Resources/places.vtgaz")
}
