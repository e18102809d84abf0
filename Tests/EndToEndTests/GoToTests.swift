import Foundation
import TestSupport
import XCTest

/// The go-to prompt in the real binary: Enter goes to the highlighted place, the arrows pick
/// another, ↑ on an empty line recalls earlier places, the text field's keys edit.
final class GoToTests: EndToEndTestCase {
    func testEnterGoesToTheHighlightedPlaceAndUpRecallsEarlierOnes() throws {
        let db = try temporaryDirectory().appendingPathComponent("goto.sqlite").path
        let t = try app(db, width: 100, height: 30)
        t.wait(forText: "? help")

        // "Bath" lists Bath, England first, and Enter goes there.
        try t.keys("g")
        t.wait(forText: "Go to")
        try t.type("Bath")
        t.wait(forText: "Bath, England, GB")
        try t.keys("Enter")
        var screen = t.wait(forText: "Went to Bath, England, GB")
        XCTAssertTrue(statusLine(screen).contains("51.3"), statusLine(screen))

        // ↓ picks the second, and Enter goes to that one.
        try t.keys("g")
        t.wait(forText: "Go to")
        try t.type("Bath")
        t.wait(forText: "Bath, Maine, US")
        try t.keys("Down", "Enter")
        t.wait(forText: "Went to Bath, Maine, US")

        // ↑ on the empty line: the most recent place, then the one before.
        try t.keys("g")
        t.wait(forText: "Go to")
        try t.keys("Up")
        t.wait(forText: "> Bath, Maine, US")
        try t.keys("Up")
        t.wait(forText: "> Bath, England, GB")
        try t.keys("Enter")
        screen = t.wait(forText: "Went to Bath, England, GB")
        XCTAssertTrue(statusLine(screen).contains("51.3"), statusLine(screen))

        // Editing inside the text: Left, typing, Ctrl-A and Ctrl-K.
        try t.keys("g")
        t.wait(forText: "Go to")
        try t.type("Pars")
        try t.keys("Left")
        try t.type("i")
        t.wait(forText: "> Paris")
        try t.keys("C-a", "C-k")
        t.wait(for: "the text deleted") { $0.contains("Go to") && !$0.contains("> Paris") }
        try t.type("Porto")
        t.wait(forText: "Porto, Porto, PT")
        try t.keys("Enter")
        t.wait(forText: "Went to Porto, Porto, PT")
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    /// A destination from the destinations file beside the places: its kind in the list, a typo
    /// forgiven, and Enter shows the whole island (Santorini fits a 100×29 map at z11, not z12).
    func testADestinationIsSuggestedWithItsKindAndShownWhole() throws {
        let data = try temporaryDirectory()
        try FileManager.default.createSymbolicLink(at: data.appendingPathComponent("places.vtgaz"),
                                                   withDestinationURL: SampleDestinations.placesURL)
        try FileManager.default.copyItem(at: SampleDestinations.url, to: data.appendingPathComponent("destinations.tsv"))
        let db = try temporaryDirectory().appendingPathComponent("goto.sqlite").path
        let t = try app(db, width: 100, height: 30, environment: ["VTOURIST_DATA_DIR": data.path])
        t.wait(forText: "? help")
        try t.keys("g")
        t.wait(forText: "Go to")
        try t.type("Santorni")
        t.wait(forText: "Santorini \u{2014} island, GR")
        try t.keys("Enter")
        let screen = t.wait(forText: "Went to Santorini \u{2014} island, GR")
        XCTAssertTrue(statusLine(screen).contains("z11"), statusLine(screen))
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }
}
