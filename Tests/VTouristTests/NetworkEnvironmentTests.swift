import AlbumMachine
import ArgumentParser
import Foundation
import Model
import XCTest
@testable import vtourist

/// What the environment and the command line say of waiting for the network: the retry time scale
/// and `drop --wait --timeout`.
final class NetworkEnvironmentTests: XCTestCase {
    func testTheRetryScaleMultipliesEveryPauseAndTheWindow() {
        XCTAssertEqual(RetryScale.read([:]).policy, .standard)
        XCTAssertEqual(RetryScale.read(["VTOURIST_RETRY_SCALE": ""]).policy, .standard)
        let (policy, problem) = RetryScale.read(["VTOURIST_RETRY_SCALE": " 0.01 "])
        XCTAssertNil(problem)
        XCTAssertEqual(policy, RetryPolicy.standard.scaled(0.01))
        XCTAssertEqual(policy.giveUpAfter, 6, accuracy: 1e-9)
    }

    func testABadScaleIsSaidAndLeftAtOne() {
        for bad in ["0", "-1", "nan", "inf", "soon", "\u{1B}[31m2"] {
            let (policy, problem) = RetryScale.read(["VTOURIST_RETRY_SCALE": bad])
            XCTAssertEqual(policy, .standard, bad)
            XCTAssertTrue(problem?.hasPrefix("VTOURIST_RETRY_SCALE must be a number above 0, not \u{201C}") ?? false, bad)
            XCTAssertFalse(problem?.contains("\u{1B}") ?? true, "no escape sequence reaches the terminal")
        }
    }

    func testTimeoutBoundsTheWait() throws {
        let drop = try XCTUnwrap(try VTourist.parseAsRoot(["drop", "Naples", "--wait", "--timeout", "2.5"]) as? Drop)
        XCTAssertEqual(drop.timeout, 2.5)
        XCTAssertEqual(drop.placeWords, ["Naples"])
        XCTAssertNil(try XCTUnwrap(try VTourist.parseAsRoot(["drop", "Naples", "--wait"]) as? Drop).timeout)
    }

    func testATimeoutWithoutWaitOrNotAboveZeroIsRefused() {
        for words in [["--timeout", "5"], ["--wait", "--timeout", "0"], ["--wait", "--timeout", "-3"],
                      ["--wait", "--timeout", "nan"], ["--wait", "--timeout", "soon"]] {
            XCTAssertThrowsError(try VTourist.parseAsRoot(["drop", "Naples"] + words), "\(words)") { error in
                XCTAssertEqual(VTourist.exitCode(for: error), .validationFailure, "\(words)")
            }
        }
    }

    func testARunOutWaitExitsWithTempFail() {
        XCTAssertEqual(CommandFailure("left to resume", kind: .tempFail).status, 75)
    }

    func testTheShareHandleIsOnUnlessTurnedOff() {
        XCTAssertTrue(NetworkSettings.sharesConnections(environment: [:]))
        XCTAssertTrue(NetworkSettings.sharesConnections(environment: ["VTOURIST_HTTP_SHARE": "on"]))
        XCTAssertFalse(NetworkSettings.sharesConnections(environment: ["VTOURIST_HTTP_SHARE": "off"]))
        XCTAssertFalse(NetworkSettings.sharesConnections(environment: ["VTOURIST_HTTP_SHARE": " OFF "]))
    }

    func testTheExtraCertificateAuthoritiesComeFromTheEnvironmentOverTheSetting() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vtourist-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stored = folder.appendingPathComponent("stored.pem").path
        let named = folder.appendingPathComponent("named.pem").path
        for path in [stored, named] {
            try Data("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".utf8).write(to: URL(fileURLWithPath: path))
        }
        var settings = Settings()
        XCTAssertNil(NetworkSettings.caBundle(environment: [:], settings: settings))
        settings.caBundle = stored
        XCTAssertEqual(NetworkSettings.caBundle(environment: [:], settings: settings), stored)
        XCTAssertEqual(NetworkSettings.caBundle(environment: ["VTOURIST_CA_BUNDLE": " "], settings: settings), stored)
        XCTAssertEqual(NetworkSettings.caBundle(environment: ["VTOURIST_CA_BUNDLE": named], settings: settings), named)
        // A variable naming no file overrides nothing (its problem is said with the settings').
        XCTAssertEqual(NetworkSettings.caBundle(environment: ["VTOURIST_CA_BUNDLE": folder.path + "/missing.pem"],
                                                settings: settings), stored)
    }

    func testOfflineIsSaidWithTheNextTryAndTheReason() {
        XCTAssertNil(WaitedAlbums.offlineLine(.online, now: 10))
        let report = NetworkReport(isOffline: true, reason: "could not connect to api.flickr.com", nextProbe: 17.2)
        XCTAssertEqual(WaitedAlbums.offlineLine(report, now: 10),
                       "offline: waiting for the network; next try in 8 s (could not connect to api.flickr.com)")
        // While the probe is out there is no next time; a reason from a server obeys no escape sequence.
        XCTAssertEqual(WaitedAlbums.offlineLine(NetworkReport(isOffline: true, reason: "no\u{1B}[2J route"), now: 10),
                       "offline: waiting for the network (no route)")
    }
}
