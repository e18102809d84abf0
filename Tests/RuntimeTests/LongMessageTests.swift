import Foundation
import Model
import PhotoSources
import TestSupport
import Terminal
@testable import TouristCore
@testable import TouristRuntime
import XCTest

/// A message too long for one row wraps onto the rows above the status line, so its reason is
/// seen at 80 and 120 columns; an error's whole text is in the log as well.
extension RuntimeTests {
    /// The rows above the status line, joined as the eye reads them.
    func messageText(_ frame: CellBuffer, rows: Int = MessageLine.maxRows) -> String {
        (frame.height - 1 - rows..<frame.height - 1).map { frame.rowText($0).trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    func testAFailedKeyTestShowsItsReasonAt80And120ColumnsAndLogsTheWholeText() throws {
        let server = try PhotoServer()
        try start(flickrEndpoint: server.flickrEndpoint, commonsEndpoint: server.commonsEndpoint, key: "bad-key")
        XCTAssertNotNil(terminal.frame(showing: "0 pins"))
        terminal.resize(width: 80, height: 24)
        XCTAssertNotNil(terminal.frame { $0.width == 80 && $0.text.contains("0 pins") })
        terminal.press(.char("s"), .char("t"))
        // The service's own words, then what to do: all of it on screen, the reason included.
        let whole = "The Flickr key does not work: Flickr refused the API key (100: Invalid API Key (Key has invalid format)). "
            + "Check the key in the settings. Enter on \(SettingCatalog.standard[.flickrAPIKey].label) types it anew (the field starts empty)."
        let at80 = try XCTUnwrap(terminal.frame { $0.width == 80 && self.messageText($0).contains("Check the key in the settings.") },
                                 "the whole message at 80 columns")
        XCTAssertTrue(messageText(at80).hasSuffix(whole), messageText(at80))
        XCTAssertTrue(at80.rowText(23).contains("? help"), "the status line stays: \(at80.rowText(23))")
        terminal.resize(width: 120, height: 30)
        let at120 = try XCTUnwrap(terminal.frame { $0.width == 120 && self.messageText($0).hasSuffix(whole) },
                                  "the whole message at 120 columns")
        XCTAssertTrue(at120.rowText(29).contains("? help"), at120.rowText(29))
        let log = folder.appendingPathComponent("vtourist.log").path
        XCTAssertNotNil(waitFor { (try? String(contentsOfFile: log, encoding: .utf8))?.contains(whole) == true ? true : nil },
                        "the log has the whole text")
    }

    func testTheCABundleMessageShowsItsReasonAt80And120Columns() throws {
        let problem = try XCTUnwrap(EnvironmentOverrides(environment: ["VTOURIST_CA_BUNDLE": "/nonexistent/certificates/ca.pem"])
            .problems.first)
        XCTAssertTrue(problem.hasSuffix("there is no file \u{201C}/nonexistent/certificates/ca.pem\u{201D}."), problem)
        for width in [80, 120] {
            var state = plainMap(width: width, height: 24)
            state.message = StatusMessage(problem, kind: .error)
            let frame = AppView.render(state, raster: nil)
            XCTAssertEqual(messageText(frame), problem, "\(width) columns:\n\(frame.text)")
            XCTAssertGreaterThan(problem.count, width - 1, "it would not fit on one row")
        }
        // The start's message goes to the log whole, once.
        var loop = LoopState(now: 0, settings: Settings(), seenVersion: 1)
        var state = plainMap(width: 80, height: 24)
        state.message = StatusMessage(problem, kind: .error)
        let work = loop.started(state, now: 0, terminal: TerminalFacts(inlineImages: nil, cellPixelSize: nil, colors: .indexed256))
        XCTAssertEqual(work.filter { if case .log = $0 { true } else { false } }, [.log(problem)])
        XCTAssertFalse(loop.settled(from: state, to: state, now: 1, terminal: TerminalFacts(inlineImages: nil, cellPixelSize: nil,
                                                                                            colors: .indexed256)).contains(.log(problem)),
                       "not again while it stays")
    }
}

/// The map at a size, nothing on it.
private func plainMap(width: Int, height: Int) -> AppState {
    AppState(camera: MapCamera(centerX: 0.5, centerY: 0.5, zoom: 3, cursorX: 0.5, cursorY: 0.5), width: width, height: height)
}
