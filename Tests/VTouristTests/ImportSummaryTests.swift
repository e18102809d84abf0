import Foundation
import Geo
import Model
import PinFiles
import Store
import XCTest
@testable import vtourist

/// `import`'s summary line and its hint for a file of lines only, word for word.
final class ImportSummaryTests: XCTestCase {
    func testWithoutAlongTheSummaryIsAsBefore() {
        XCTAssertEqual(Import.summary(PinImport(added: [1, 2, 3], duplicates: 1), notPoints: 2),
                       "added 3 pins, skipped 1 duplicate, 2 not points")
        XCTAssertEqual(Import.summary(PinImport(added: [1], duplicates: 0), notPoints: 1),
                       "added 1 pin, skipped 0 duplicates, 1 not a point")
    }

    func testWithAlongTheSummarySaysHowManyCameFromTheLines() {
        let along = AlongSampler.Points(points: [GeoPoint(latitude: 1, longitude: 2), GeoPoint(latitude: 1, longitude: 3)], nearStored: 4)
        // Points left out for pins already stored count as duplicates; lines are not "not points".
        XCTAssertEqual(Import.summary(PinImport(added: [1, 2, 3], duplicates: 1), notPoints: 3, along: along, lineFeatures: 2),
                       "added 3 pins (2 along tracks), skipped 5 duplicates, 1 not a point or line")
        XCTAssertEqual(Import.summary(PinImport(added: [], duplicates: 0), notPoints: 1,
                                      along: AlongSampler.Points(points: [], nearStored: 0), lineFeatures: 1),
                       "added 0 pins (0 along tracks), skipped 0 duplicates, 0 not points or lines")
    }

    func testTheHintNamesWhatTheFileHas() {
        XCTAssertEqual(Import.alongHint(PinFile(format: .gpx, points: [], notPoints: 1, lineFeatures: 1)),
                       "the file has no points, only 1 track or route: add --along 10 to drop a pin every 10 km along it")
        XCTAssertEqual(Import.alongHint(PinFile(format: .gpx, points: [], notPoints: 3, lineFeatures: 3)),
                       "the file has no points, only 3 tracks or routes: add --along 10 to drop a pin every 10 km along them")
        XCTAssertEqual(Import.alongHint(PinFile(format: .geojson, points: [], notPoints: 4, lineFeatures: 2)),
                       "the file has no points, only 2 lines: add --along 10 to drop a pin every 10 km along them")
    }
}
