import Foundation
@testable import Imaging
import XCTest

final class RGBImageTests: XCTestCase {
    func testPixelsAreRowMajorRGB() {
        let image = RGBImage(width: 2, height: 2, pixels: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        XCTAssertEqual(image.pixel(x: 1, y: 0).0, 4)
        XCTAssertEqual(image.pixel(x: 0, y: 1).2, 9)
        XCTAssertEqual(image.pixel(x: 1, y: 1).1, 11)
    }
}

final class ImageLibrariesTests: XCTestCase {
    func testTheLibrariesAreLinkedAndWork() {
        XCTAssertTrue(ImageLibraries.turboJPEGWorks)
        XCTAssertGreaterThan(ImageLibraries.chafaThreads, 0)
    }
}

final class RGBImageEnlargedTests: XCTestCase {
    func testEnlargingKeepsFlatAreasAndBlendsBetweenPixels() {
        // Two pixels, black and white, side by side: doubled, the ends keep them, the middle blends.
        let image = RGBImage(width: 2, height: 1, pixels: [0, 0, 0, 255, 255, 255])
        let wide = image.enlarged(width: 8, height: 2)
        XCTAssertEqual(wide.width, 8)
        XCTAssertEqual(wide.height, 2)
        XCTAssertEqual(wide.pixel(x: 0, y: 0).0, 0)
        XCTAssertEqual(wide.pixel(x: 7, y: 1).0, 255)
        let middle = Int(wide.pixel(x: 4, y: 0).0)
        XCTAssertTrue((96...192).contains(middle), "\(middle)")
        // Monotonic from left to right, the same on both rows.
        let row = (0..<8).map { Int(wide.pixel(x: $0, y: 0).0) }
        XCTAssertEqual(row, row.sorted())
        XCTAssertEqual(row, (0..<8).map { Int(wide.pixel(x: $0, y: 1).0) })
    }

    func testALargeBoxFromASmallerPictureIsBroughtToItsCellsPixelsSoItsBandsCanBeDrawnOnEveryCore() {
        let image = RGBImage.painted(width: 320, height: 240) { x, y in (UInt8(x % 256), UInt8(y % 256), 9) }
        let box = PictureRenderer.fitted(imageWidth: 320, imageHeight: 240, columns: 198, rows: 52)
        let sampled = PictureRenderer.sampled(image, box: box)
        XCTAssertEqual([sampled.width, sampled.height], [box.columns * 8, box.rows * 8])
        XCTAssertEqual(PictureRenderer.bandCount(box, pixels: sampled), min(ProcessInfo.processInfo.activeProcessorCount, box.rows / 4))
    }
}
