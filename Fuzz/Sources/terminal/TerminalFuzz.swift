import Curses
import FuzzSupport
import PhotoSources
import Terminal

/// The terminal's side of bad input: bytes the terminal sends (a device attributes reply mixed
/// with typed keys, characters `get_wch` returns) and text from outside drawn into cells (cleaned
/// titles, wrapped and cut text). Nothing traps, nothing drawn can move the cursor. The same bytes
/// as frames drawn one after another: the changes between them give each frame (`CellDiffRoundTrip`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTerminal(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []

    // The reply to the device attributes request, found among other input.
    if let reply = TerminalProbe.deviceAttributes(in: bytes) {
        let r = reply.range
        FuzzCheck.that(r.lowerBound >= 0 && r.upperBound <= bytes.count && r.count >= 4, "reply at \(r) of \(bytes.count)")
        FuzzCheck.that(bytes[r.lowerBound] == 0x1B && bytes[r.upperBound - 1] == UInt8(ascii: "c"), "reply \(bytes[r])")
        FuzzCheck.that(!reply.attributes.isEmpty && reply.attributes.allSatisfy { (0...99_999).contains($0) },
                       "attributes \(reply.attributes)")
    }
    _ = TerminalProbe.inlineProtocol(environment: ["TERM": "xterm-256color"], query: { _, _ in bytes })

    // Characters as `get_wch` returns them: every byte, and every four bytes as one value.
    for byte in bytes { _ = NcursesTerminal.key(forCharacter: UInt32(byte)) }
    var input = FuzzBytes(bytes)
    while !input.isAtEnd {
        let value = UInt32(input.byte()) << 24 | UInt32(input.byte()) << 16 | UInt32(input.byte()) << 8 | UInt32(input.byte())
        _ = NcursesTerminal.key(forCharacter: value)
    }

    // The same bytes as keys typed and pasted: through the decoder, as characters and as keys ncurses
    // decoded (a byte 0xFF stands for one). A paste stays bounded and clean; without an Esc, the
    // decoder gives exactly the keys the characters mean.
    let units: [InputUnit] = String(decoding: bytes, as: UTF8.self).unicodeScalars.map {
        $0.value == 0xFFFD ? .decoded(.key(.up)) : .character($0.value)
    }
    let decoded = InputDecoder.events(in: units)
    for case .paste(let text) in decoded {
        FuzzCheck.that(!text.isEmpty && text.unicodeScalars.count <= InputDecoder.pasteLimit, "paste of \(text.unicodeScalars.count)")
        FuzzCheck.that(text.unicodeScalars.allSatisfy { $0 == "\n" || $0 == "\t" || ($0.value >= 0x20 && !(0x7F..<0xA0).contains($0.value)) },
                       "a control in a paste: \(text.debugDescription)")
    }
    if !bytes.contains(0x1B) {
        let plain: [Event] = units.compactMap { unit in
            switch unit {
            case .character(let ch): NcursesTerminal.key(forCharacter: ch).map { .key($0) }
            case .decoded(let event): event
            }
        }
        FuzzCheck.that(decoded == plain, "keys without an Esc changed: \(decoded) for \(plain)")
    }

    // Text from outside, as titles and HTML descriptions are cleaned.
    let text = String(decoding: bytes, as: UTF8.self)
    let maxLength = size % 40
    FuzzCheck.terminalSafe(TextCleaner.clean(text, maxLength: maxLength), "cleaned text")
    FuzzCheck.terminalSafe(TextCleaner.plainText(fromHTML: text, maxLength: maxLength), "text from HTML")
    if maxLength > 0 {
        FuzzCheck.that(TextCleaner.clean(text, maxLength: maxLength).count <= maxLength, "cleaned text longer than \(maxLength)")
    }

    // Drawn into cells at odd places and widths, wrapped, cut, written out as ANSI.
    var place = FuzzBytes(Array(bytes.prefix(8)))
    var buffer = CellBuffer(width: 1 + size % 20, height: 1 + size % 5)
    // Widgets place text within the screen's few hundred cells; `put` also takes an unbounded width.
    buffer.put(text, x: place.int(in: -300...300), y: place.int(in: -1...5), maxWidth: place.edgyInt())
    buffer.putCentered(text, y: place.int(in: -1...5), x: place.int(in: -300...300), width: place.int(in: -300...300))
    for (i, line) in text.wrapped(to: place.int(in: -2...30), limit: place.int(in: 0...4)).enumerated() {
        buffer.put(line.truncated(to: place.edgyInt()), x: 0, y: i)
    }
    FuzzCheck.cellsShowable(buffer, "text drawn")
    _ = buffer.ansiBytes(depth: [.none, .eight, .indexed256, .trueColor][size % 4])

    var frames = FuzzBytes(bytes)
    CellDiffRoundTrip.check(&frames)
    Acceptance.note(TerminalProbe.deviceAttributes(in: bytes) != nil)
    return 0
}

/// The terminal writes only what changed between frames: the runs `changes(from:)` gives, written
/// over the screen shown, make the new frame; with frames of one size, they cover exactly the cells
/// that differ, each once, in one style per run. Frames made from the bytes: a few symbols and
/// styles (so runs meet and split), each frame a few changes from the last, now and then resized.
enum CellDiffRoundTrip {
    static let symbols: [Unicode.Scalar] = [" ", "a", "b", "▀", "█", "é", "\u{2588}"]
    static let styles: [Style] = [
        .plain, Style(fg: .rgb(255, 0, 0)), Style(bg: .rgb(0, 0, 255)), Style(attributes: .bold),
        Style(fg: .rgb(255, 0, 0), attributes: [.reverse, .underline]),
    ]

    static func check(_ input: inout FuzzBytes) {
        var shown: CellBuffer?
        var screen = CellBuffer(width: 1, height: 1)
        var frame = CellBuffer(width: 1 + input.int(in: 0...15), height: 1 + input.int(in: 0...4))
        for _ in 0..<input.int(in: 1...6) {
            if input.int(in: 0...7) == 0 {
                frame = CellBuffer(width: 1 + input.int(in: 0...15), height: 1 + input.int(in: 0...4),
                                   fill: cell(&input))
            }
            for _ in 0..<input.int(in: 0...12) {
                let x = input.int(in: 0...(frame.width - 1)), y = input.int(in: 0...(frame.height - 1))
                let count = input.int(in: 1...frame.width)
                let drawn = cell(&input)
                for i in 0..<count where x + i < frame.width { frame[x + i, y] = drawn }
            }
            let runs = frame.changes(from: shown)
            let sameSize = shown.map { $0.width == frame.width && $0.height == frame.height } ?? false
            // After a resize the terminal's picture is unknown: anything at all.
            if !sameSize { screen = CellBuffer(width: frame.width, height: frame.height, fill: Cell("?", style: styles[3])) }
            var written = Set<Int>()
            for run in runs {
                FuzzCheck.that(!run.symbols.isEmpty && run.y >= 0 && run.y < frame.height && run.x >= 0
                               && run.x + run.symbols.count <= frame.width,
                               "a run at \(run.x),\(run.y) of \(run.symbols.count) on \(frame.width)x\(frame.height)")
                for (i, symbol) in run.symbols.enumerated() {
                    let x = run.x + i
                    FuzzCheck.that(written.insert(run.y * frame.width + x).inserted, "cell \(x),\(run.y) written twice")
                    if sameSize, let shown {
                        FuzzCheck.that(shown[x, run.y] != frame[x, run.y], "cell \(x),\(run.y) written unchanged")
                    }
                    screen[x, run.y] = Cell(symbol, style: run.style)
                }
            }
            FuzzCheck.that(screen == frame, "the changes do not give the frame:\n\(screen.text)\nfor\n\(frame.text)")
            shown = frame
        }
    }

    static func cell(_ input: inout FuzzBytes) -> Cell {
        Cell(symbols[input.int(in: 0...(symbols.count - 1))], style: styles[input.int(in: 0...(styles.count - 1))])
    }
}
