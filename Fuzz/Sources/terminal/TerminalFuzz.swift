import Curses
import FuzzSupport
import PhotoSources
import Terminal

/// The terminal's side of bad input: bytes the terminal sends (a device attributes reply mixed
/// with typed keys, characters `get_wch` returns) and text from outside drawn into cells (cleaned
/// titles, wrapped and cut text). Nothing traps, nothing drawn can move the cursor.
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
    for cell in buffer.cells {
        FuzzCheck.that(Cell.displayable(cell.symbol) == cell.symbol, "a cell holds U+\(String(cell.symbol.value, radix: 16))")
    }
    _ = buffer.ansiBytes(depth: [.none, .eight, .indexed256, .trueColor][size % 4])
    return 0
}
