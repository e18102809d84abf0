import Foundation
import InlineReaders
import TestSupport
import XCTest

/// Real pictures inside tmux: kitty's Unicode placeholders, read back from the pane. The image goes
/// through tmux's passthrough to the terminal outside (none here: the cells and their colour are
/// what is checked, and the bytes the app wrote).
final class TmuxPictureTests: EndToEndTestCase {
    private let placeholder: Character = "\u{10EEEE}"

    /// A database whose one pin has its album stored.
    private func storedAlbum() throws -> String {
        let db = try temporaryDirectory().appendingPathComponent("photos.sqlite").path
        let dropped = try cli(["drop", "40.85", "14.27", "--wait", "--db", db], environment: ["FLICKR_API_KEY": "good-key"])
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        return db
    }

    /// The app in tmux as a program in tmux runs: TMUX and TMUX_PANE set, tmux's options `options`.
    private func appInTmux(_ db: String, options: [[String]], recording: Bool = false,
                           width: Int = 100, height: Int = 32) throws -> TmuxSession {
        try TmuxSession(command: [try vtouristBinary(), "--db", db], width: width, height: height,
                        environment: environment(["FLICKR_API_KEY": "good-key", "VTOURIST_IMAGES": "kitty-unicode"],
                                                 terminal: "tmux-256color"),
                        recording: recording, serverOptions: options, tmuxVariables: true)
    }

    /// The pane's rows as capture-pane -e gives them, each cut into cells: the SGR colour in force
    /// and the grapheme (a placeholder with its diacritics is one Character).
    private func placeholderRows(_ capture: String) -> [[(color: Int?, cell: Character)]] {
        capture.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
            var cells: [(color: Int?, cell: Character)] = []
            var color: Int?
            var rest = Substring(line)
            while let first = rest.first {
                if first == "\u{1B}", let end = rest.firstIndex(of: "m") {
                    let codes = rest[rest.index(after: rest.startIndex)..<end].dropFirst().split(separator: ";").map { Int($0) ?? -1 }
                    var i = 0
                    while i < codes.count {
                        if codes[i] == 38, i + 2 < codes.count, codes[i + 1] == 5 { color = codes[i + 2]; i += 3; continue }
                        if codes[i] == 0 || codes[i] == 39 { color = nil }
                        i += 1
                    }
                    rest = rest[rest.index(after: end)...]
                    continue
                }
                if first.unicodeScalars.first == "\u{10EEEE}" { cells.append((color, first)) }
                rest = rest.dropFirst()
            }
            return cells.isEmpty ? nil : cells
        }
    }

    func testThePhotoIsPlacedByPlaceholderCellsWhoseColourCarriesTheImageId() throws {
        let db = try storedAlbum()
        let t = try appInTmux(db, options: [["set-option", "-g", "allow-passthrough", "on"]], recording: true)
        t.wait(forText: "1 pin ")
        try t.keys("Tab", "Enter")
        t.wait(forText: "21 photos")
        // The thumbnail's picture only: a large image arriving while the pane is read would replace it
        // under another id (that is the next test's).
        server.set(.holdLarge, true)
        try t.keys("Enter")
        t.wait(forText: "1 of 21")
        var rows: [[(color: Int?, cell: Character)]] = []
        // A whole frame: tmux may be read while it is still taking the app's output in, and the first
        // rows of a frame half taken in are a rectangle too (a slow, sanitized binary showed it). So the
        // wait is for the rectangle the app placed: as many rows and columns as the virtual placement
        // it has sent so far under the cells' colour (what the end of the test checks again).
        _ = try waitFor("the placeholder cells of the placement sent") { () -> Bool? in
            rows = placeholderRows(t.screenWithEscapes())
            guard rows.count > 5, Set(rows.map(\.count)).count == 1, Set(rows.joined().map(\.color)).count == 1,
                  let id = rows[0][0].color, let file = t.outputFile else { return nil }
            let sent = String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self)
            return sent.contains("_Ga=p,q=2,U=1,i=\(id),c=\(rows[0].count),r=\(rows.count)\u{1B}") ? true : nil
        }
        XCTAssertFalse(t.screen().contains("allow-passthrough"), "no hint while tmux lets pictures through")
        // One rectangle of cells, every one in the colour that carries the id, each with its row and column.
        let id = try XCTUnwrap(rows[0][0].color, "a 256-colour foreground")
        XCTAssertTrue((17...231).contains(id), "\(id)")
        XCTAssertEqual(Set(rows.map(\.count)).count, 1, "every row as wide")
        for (r, row) in rows.enumerated() {
            for (c, cell) in row.enumerated() {
                XCTAssertEqual(cell.color, id, "row \(r), column \(c)")
                let scalars = Array(cell.cell.unicodeScalars)
                XCTAssertEqual(scalars.count, 3, "placeholder, row and column diacritics")
                XCTAssertEqual(scalars.count == 3 ? diacriticNumber(scalars[1]) : nil, r, "row \(r), column \(c)")
                XCTAssertEqual(scalars.count == 3 ? diacriticNumber(scalars[2]) : nil, c, "row \(r), column \(c)")
            }
        }
        try t.keys("q", "q", "q")
        XCTAssertEqual(t.waitForExit(), 0)

        // The app sent the image once, through the passthrough, under the id its cells carry, with a
        // virtual placement of as many cells; and deleted it before it gave the terminal back.
        let output = String(decoding: t.recordedOutput(), as: UTF8.self)
        XCTAssertEqual(output.components(separatedBy: "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t,q=2,i=\(id),f=100").count - 1, 1, "sent once")
        XCTAssertTrue(output.contains("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=p,q=2,U=1,i=\(id),c=\(rows[0].count),r=\(rows.count)\u{1B}\u{1B}\\\u{1B}\\"),
                      "a virtual placement of the cells")
        XCTAssertTrue(output.contains("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d,d=I,q=2,i=\(id)\u{1B}\u{1B}\\\u{1B}\\"), "deleted at the end")
    }

    func testTheLargeImageIsSentAtItsOwnPixelsOnceItArrives() throws {
        let db = try storedAlbum()
        // 198 × 52 cells of 10 × 20 pixels show more than the large image's 1024 × 768.
        let t = try appInTmux(db, options: [["set-option", "-g", "allow-passthrough", "on"]], recording: true,
                              width: 200, height: 60)
        t.wait(forText: "1 pin ")
        try t.keys("Tab", "Enter")
        t.wait(forText: "21 photos")
        // The thumbnail's picture first, while the large image is held back; then the large one's
        // under an id of its own.
        server.set(.holdLarge, true)
        try t.keys("Enter")
        t.wait(forText: "1 of 21")
        let thumbnail = try waitFor("the thumbnail's cells") { placeholderRows(t.screenWithEscapes()).first?.first?.color }
        server.set(.holdLarge, false)
        let shown = try waitFor("the large picture's cells") { () -> Int? in
            placeholderRows(t.screenWithEscapes()).first?.first?.color.flatMap { $0 != thumbnail ? $0 : nil }
        }
        let ids: Set<Int> = [thumbnail, shown]
        try t.keys("q", "q", "q")
        XCTAssertEqual(t.waitForExit(), 0)
        // What went through the passthrough, read back: the large image's own 1024 × 768 pixels
        // under the id the cells show, the thumbnail's 320 × 240 under the other.
        let commands = try kittyCommands(try passthroughs(in: [UInt8](t.recordedOutput())))
        var sizes: [Int: (Int, Int)] = [:]
        var current: [UInt8] = []
        var currentID: Int?
        for command in commands {
            if command.keys["a"] == "t" {
                currentID = command.keys["i"].flatMap { Int($0) }
                current = []
            }
            guard command.keys["a"] == "t" || (command.keys["a"] == nil && command.payload != nil) else { continue }
            current += command.payload ?? []
            if command.keys["m"] == "0", let id = currentID {
                let png = try XCTUnwrap(Data(base64Encoded: Data(current)))
                let picture = try decodePNG([UInt8](png))
                sizes[id] = (picture.width, picture.height)
            }
        }
        XCTAssertTrue(sizes[shown].map { $0 == (1024, 768) } ?? false, "\(sizes)")
        XCTAssertTrue(ids.subtracting([shown]).allSatisfy { id in sizes[id].map { $0 == (320, 240) } ?? false }, "\(sizes)")
    }

    /// The strings tmux's passthrough carried, out of everything the app wrote, joined.
    private func passthroughs(in output: [UInt8]) throws -> [UInt8] {
        let opener = Array("\u{1B}Ptmux;".utf8)
        var wrapped: [UInt8] = []
        var i = 0
        while i < output.count {
            guard output[i...].starts(with: opener) else { i += 1; continue }
            var j = i + opener.count
            while j + 1 < output.count, !(output[j] == 0x1B && output[j + 1] == UInt8(ascii: "\\")) {
                j += output[j] == 0x1B ? 2 : 1
            }
            wrapped += output[i..<min(output.count, j + 2)]
            i = j + 2
        }
        return try unwrapTmux(wrapped)
    }

    func testWhileTmuxHoldsPicturesBackAHintSaysHowToLetThemThrough() throws {
        let db = try storedAlbum()
        let t = try appInTmux(db, options: [["set-option", "-g", "allow-passthrough", "off"]])
        let screen = t.wait(forText: "set -g allow-passthrough on")
        XCTAssertEqual(screen.split(separator: "\n").filter { $0.contains("Pictures in tmux need passthrough") }.count, 1, screen)
        try t.keys("q")
        XCTAssertEqual(t.waitForExit(), 0)
    }

    /// The number a row or column diacritic of kitty's placeholders stands for (the first few of
    /// its table, as kitty's documentation lists them), nil for others.
    private func diacriticNumber(_ scalar: Unicode.Scalar) -> Int? {
        let table: [UInt32] = [
            0x0305, 0x030D, 0x030E, 0x0310, 0x0312, 0x033D, 0x033E, 0x033F, 0x0346, 0x034A, 0x034B, 0x034C,
            0x0350, 0x0351, 0x0352, 0x0357, 0x035B, 0x0363, 0x0364, 0x0365, 0x0366, 0x0367, 0x0368, 0x0369,
            0x036A, 0x036B, 0x036C, 0x036D, 0x036E, 0x036F, 0x0483, 0x0484, 0x0485, 0x0486, 0x0487, 0x0592,
            0x0593, 0x0594, 0x0595, 0x0597, 0x0598, 0x0599, 0x059C, 0x059D, 0x059E, 0x059F, 0x05A0, 0x05A1,
            0x05A8, 0x05A9, 0x05AB, 0x05AC, 0x05AF, 0x05C4, 0x0610, 0x0611, 0x0612, 0x0613, 0x0614, 0x0615,
            0x0616, 0x0617, 0x0657, 0x0658, 0x0659, 0x065A, 0x065B, 0x065D, 0x065E, 0x06D6, 0x06D7, 0x06D8,
            0x06D9, 0x06DA, 0x06DB, 0x06DC, 0x06DF, 0x06E0, 0x06E1, 0x06E2, 0x06E4, 0x06E7, 0x06E8, 0x06EB,
            0x06EC, 0x0730, 0x0732, 0x0733, 0x0735, 0x0736, 0x073A, 0x073D, 0x073F, 0x0740, 0x0741, 0x0743,
            0x0745, 0x0747, 0x0749, 0x074A, 0x07EB, 0x07EC, 0x07ED, 0x07EE, 0x07EF, 0x07F0, 0x07F1, 0x07F3,
        ]
        return table.firstIndex(of: scalar.value)
    }
}
