import Foundation
import XCTest

/// A colour as tmux reports it in `capture-pane -e`.
enum Pen: Hashable, CustomStringConvertible {
    case standard
    /// 30–37 / 90–97 (and 40–47 / 100–107): the terminal's 16 themed colours.
    case ansi(Int)
    /// `38;5;N` / `48;5;N`.
    case indexed(Int)
    /// `38;2;R;G;B` / `48;2;R;G;B`.
    case rgb(Int, Int, Int)

    var description: String {
        switch self {
        case .standard: return "default"
        case let .ansi(n): return "ansi \(n)"
        case let .indexed(n): return "pen \(n)"
        case let .rgb(r, g, b): return "rgb(\(r),\(g),\(b))"
        }
    }
}

/// One cell of a captured screen: its character, colours and attributes.
struct ScreenCell: Equatable {
    var character: Character = " "
    var fg = Pen.standard
    var bg = Pen.standard
    /// SGR attribute numbers in force (1 bold, 2 dim, 7 reverse…).
    var attributes: Set<Int> = []
    /// Drawn in the alternate (line-drawing) character set: tmux marks it with SO/SI.
    var alternateCharset = false
}

/// A screen as `tmux capture-pane -p -e -N` gives it, read back into cells:
/// every SGR sequence applied as a terminal would (tmux writes only what
/// changes from one cell to the next, across line ends too).
struct CapturedScreen {
    var rows: [[ScreenCell]]
    /// Every distinct SGR sequence met ("38;2;1;2;3"…), as written.
    var sequences: Set<String>

    init(_ text: String) {
        rows = []
        sequences = []
        var row: [ScreenCell] = []
        var pen = ScreenCell()
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\n":
                rows.append(row)
                row = []
            case "\u{0E}": pen.alternateCharset = true
            case "\u{0F}": pen.alternateCharset = false
            case "\u{1B}":
                guard scalars.first == "[" else {
                    _ = scalars.popFirst()
                    continue
                }
                scalars.removeFirst()
                var body = ""
                while let next = scalars.popFirst() {
                    if (0x40...0x7E).contains(next.value) {
                        if next == "m" {
                            sequences.insert(body)
                            CapturedScreen.apply(body, to: &pen)
                        }
                        break
                    }
                    body.unicodeScalars.append(next)
                }
            default:
                var cell = pen
                cell.character = Character(scalar)
                row.append(cell)
            }
        }
        if !row.isEmpty { rows.append(row) }
    }

    /// Applies one SGR sequence's parameters (`;` or `:` separated) to the pen.
    static func apply(_ body: String, to pen: inout ScreenCell) {
        var params = body.split(separator: ";", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: ":", omittingEmptySubsequences: false) }
            .map { Int($0) ?? 0 }[...]
        if params.isEmpty { params = [0] }
        while let p = params.popFirst() {
            switch p {
            case 0:
                pen = ScreenCell(alternateCharset: pen.alternateCharset)
            case 30...37: pen.fg = .ansi(p - 30)
            case 90...97: pen.fg = .ansi(p - 90 + 8)
            case 39: pen.fg = .standard
            case 40...47: pen.bg = .ansi(p - 40)
            case 100...107: pen.bg = .ansi(p - 100 + 8)
            case 49: pen.bg = .standard
            case 38, 48, 58:
                var colour = Pen.standard
                switch params.popFirst() {
                case 5: colour = .indexed(params.popFirst() ?? 0)
                case 2: colour = .rgb(params.popFirst() ?? 0, params.popFirst() ?? 0, params.popFirst() ?? 0)
                default: break
                }
                if p == 38 { pen.fg = colour } else if p == 48 { pen.bg = colour }
            case 22: pen.attributes.subtract([1, 2])
            case 23...29: pen.attributes.remove(p - 20)
            default: pen.attributes.insert(p)
            }
        }
    }

    /// The cell at a column and row, or a blank one off the captured text.
    subscript(x: Int, y: Int) -> ScreenCell {
        guard rows.indices.contains(y), rows[y].indices.contains(x) else { return ScreenCell() }
        return rows[y][x]
    }

    /// The cells of a rectangle, row by row.
    func cells(x: Int, y: Int, width: Int, height: Int) -> [ScreenCell] {
        (y..<(y + height)).flatMap { row in (x..<(x + width)).map { self[$0, row] } }
    }

    /// The text of one row from a column, `width` cells long.
    func text(x: Int, y: Int, width: Int) -> String {
        String((x..<(x + width)).map { self[$0, y].character })
    }

    /// The whole screen as plain text, for failure messages.
    var plain: String {
        rows.map { String($0.map(\.character)) }.joined(separator: "\n")
    }
}

extension TmuxSession {
    /// The screen read into cells, trailing blanks included (`-N`).
    func cells() -> CapturedScreen {
        capturedCells() ?? CapturedScreen("")
    }

    /// The cells, or nil when tmux did not answer (see `capturedScreen`).
    func capturedCells() -> CapturedScreen? {
        (try? tmux(["capture-pane", "-p", "-e", "-N", "-t", name])).map(CapturedScreen.init)
    }

    /// Waits until the screen's cells satisfy `check` in a whole frame (see `waitForFrame`); the
    /// limit only ends a hang.
    @discardableResult
    func waitForCells(_ description: String, timeout: Double = 15, file: StaticString = #filePath, line: UInt = #line,
                      _ check: (CapturedScreen) -> Bool) -> CapturedScreen {
        let (frame, last) = waitForFrame(timeout: timeout, capture: capturedCells, same: { $0.rows == $1.rows },
                                         blank: CapturedScreen(""), check)
        if let frame { return frame }
        XCTFail("timed out waiting for \(description); screen was:\n\(last.plain)", file: file, line: line)
        return last
    }
}
