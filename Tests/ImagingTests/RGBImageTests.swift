import Imaging
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
