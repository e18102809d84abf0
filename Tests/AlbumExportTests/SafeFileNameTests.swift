@testable import AlbumExport
import XCTest

/// The one rule that makes titles and pin names file names (`w`, `W`, `album --save`).
final class SafeFileNameTests: XCTestCase {
    func name(_ text: String) -> String { SafeFileName.make(text, fallback: "photo") }

    func testTitlesBecomeSafeFileNames() {
        XCTAssertEqual(name("Castel dell'Ovo"), "Castel dell'Ovo")
        XCTAssertEqual(name("a/b\\c"), "a-b-c")
        XCTAssertEqual(name("tab\there\nnew\u{1B}[2J line"), "tab here new [2J line")
        XCTAssertEqual(name("..hidden"), "hidden")
        XCTAssertEqual(name(""), "photo")
        XCTAssertEqual(name(" \u{7} "), "photo")
        XCTAssertEqual(name("/"), "-")
    }

    func testASlashAndDotDotNeverLeaveTheFolder() {
        XCTAssertEqual(name("../../etc/passwd"), "-..-etc-passwd")
        XCTAssertEqual(name(".."), "photo")
        XCTAssertEqual(name("a/../b"), "a-..-b")
        XCTAssertFalse(name("../x").contains("/"))
    }

    func testOnlyDotsIsTheFallback() {
        XCTAssertEqual(name("."), "photo")
        XCTAssertEqual(name("....."), "photo")
        XCTAssertEqual(name(" . . "), "photo")
        XCTAssertEqual(SafeFileName.make("...", fallback: "Pin 3"), "Pin 3")
    }

    func testControlAndFormatCharactersAreSpaces() {
        XCTAssertEqual(name("a\u{0}b\u{7F}c\u{202E}d\u{2028}e"), "a b c d e")
        XCTAssertEqual(name("\u{1B}]0;pwned\u{7}Bay"), "]0;pwned Bay")
    }

    func testCharactersAFATStickRefusesAreDashes() {
        XCTAssertEqual(name("Naples: the bay? <\"yes\"> | *"), "Naples- the bay- --yes-- - -")
    }

    func testALongTitleIsCutToEightyCharactersAndTwoHundredBytes() {
        XCTAssertEqual(name(String(repeating: "é", count: 300)).count, SafeFileName.maxCharacters)
        XCTAssertEqual(name(String(repeating: "a", count: 300)), String(repeating: "a", count: 80))
        // Four bytes a character: 80 of them would be 320 bytes, past the file system's 255 with `NN-` and `.jpg`.
        let emoji = name(String(repeating: "🗺", count: 300))
        XCTAssertLessThanOrEqual(emoji.utf8.count, SafeFileName.maxBytes)
        XCTAssertEqual(emoji, String(repeating: "🗺", count: 50))
        // A cut that ends on a dot or a space drops it.
        XCTAssertEqual(name(String(repeating: "a", count: 79) + " b"), String(repeating: "a", count: 79))
    }
}
