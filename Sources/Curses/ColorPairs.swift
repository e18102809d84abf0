import Terminal

/// A foreground and background as curses colour numbers (-1 = the default).
struct ColorKey: Hashable {
    var fg: Int
    var bg: Int

    static let defaults = ColorKey(fg: -1, bg: -1)
}

/// Which colour pair number each (foreground, background) gets, with the
/// terminal's `init_extended_pair` behind `define`, so the bookkeeping can be
/// tested without a screen.
///
/// The terminal draws whole frames, so the frame being drawn is exactly what
/// the screen will show. Numbers are handed out 1, 2, 3 … and kept while their
/// colours stay on screen. When none is left, `sweep(keeping:)` frees every
/// number that no cell of the new frame uses: the cells that still show such a
/// number are all overwritten by this frame, so redefining it cannot recolour
/// a cell that stays (ncurses repaints every cell of a redefined pair). A number
/// used by the frame is never redefined while that frame is drawn. (ncurses'
/// `alloc_pair` recycles the least recently allocated pair instead, which
/// may still be on screen; knowing the frame, we need no guess.)
///
/// Only a frame with more distinct colours than the terminal has pairs (64
/// under `TERM=screen`, 256 on some terminals) gets `fit(_:)`: the frame's
/// text colours (cells with letters, digits or punctuation, or with
/// attributes) get exact pairs first, then the colours covering the most
/// cells; every other colour is drawn with the nearest pair defined, never
/// pair 0 by default. The caller then writes every cell of the frame, and
/// so it does for each following frame until one fits again, so no
/// approximated cell outlives the frames that need it.
struct ColorPairs {
    /// Defines a pair number as foreground and background colour numbers.
    typealias Define = (_ pair: Int32, _ fg: Int, _ bg: Int) -> Void

    let capacity: Int
    let depth: TerminalCapabilities.ColorDepth
    private let define: Define
    /// Every colour with a number: its own (`owners[n] == key`) or, after
    /// `fit`, the number of the nearest colour.
    private var numbers: [ColorKey: Int32] = [:]
    /// The colour each number is defined as (index 0 unused).
    private var owners: [ColorKey?]
    private var freeNumbers: [Int32] = []
    private var nextUnused: Int32 = 1
    /// Whether some colour on screen is drawn with another colour's pair.
    private(set) var approximating = false
    /// Pairs by style, dropped whenever numbers are freed.
    private var styleCache: [Style: Int32] = [:]

    init(capacity: Int, depth: TerminalCapabilities.ColorDepth, define: @escaping Define) {
        self.capacity = depth == .none ? 0 : max(0, capacity)
        self.depth = depth
        self.define = define
        owners = Array(repeating: nil, count: self.capacity + 1)
    }

    /// The curses colour numbers of a style at this depth.
    func key(_ style: Style) -> ColorKey {
        ColorKey(fg: quantize(style.fg, to: depth).colorNumber, bg: quantize(style.bg, to: depth).colorNumber)
    }

    /// How many numbers are defined now.
    var inUse: Int { Int(nextUnused) - 1 - freeNumbers.count }

    /// The number this colour is defined as, if any.
    func number(of key: ColorKey) -> Int32? {
        key == .defaults || capacity == 0 ? 0 : numbers[key]
    }

    /// What to write for a frame: the runs and each run's pair. Usually the
    /// runs that changed (`changes`); every cell of `frame` when it has more
    /// colours than there are pairs, or the frame before it had.
    mutating func plan(_ frame: CellBuffer, changes: [CellRun]) -> (runs: [CellRun], pairs: [Int32]) {
        var frameColors: [ColorKey: FrameColor]?
        if !approximating {
            var newColors: [ColorKey] = []
            var seen = Set<ColorKey>()
            for run in changes where styleCache[run.style] == nil {
                let key = key(run.style)
                if number(of: key) == nil, seen.insert(key).inserted { newColors.append(key) }
            }
            if newColors.count > available {
                let colors = colors(of: frame)
                frameColors = colors
                sweep(keeping: Set(colors.keys))
            }
            if newColors.count <= available {
                for key in newColors { claim(next(), for: key) }
                return (changes, changes.map { pair(for: $0.style) })
            }
        }
        // Too many colours now, or approximated cells may still be on screen: plan the whole frame.
        fit(frameColors ?? colors(of: frame))
        let all = frame.changes(from: nil)
        return (all, all.map { pair(for: $0.style) })
    }

    /// How many colours can still get a number without a sweep.
    private var available: Int { freeNumbers.count + capacity - Int(nextUnused) + 1 }

    private mutating func next() -> Int32 {
        if let reused = freeNumbers.popLast() { return reused }
        nextUnused += 1
        return nextUnused - 1
    }

    /// The pair of a style whose colour has a number.
    private mutating func pair(for style: Style) -> Int32 {
        if let cached = styleCache[style] { return cached }
        let pair = number(of: key(style)) ?? 0
        styleCache[style] = pair
        return pair
    }

    /// Frees every number no colour of `frame` uses (the frame about to be
    /// drawn in full, so no remaining cell shows a freed number).
    private mutating func sweep(keeping frame: Set<ColorKey>) {
        var live = Set<Int32>()
        for key in frame { if let n = numbers[key] { live.insert(n) } }
        numbers = numbers.filter { key, n in
            live.contains(n) && (frame.contains(key) || owners[Int(n)] == key)
        }
        for n in 1..<nextUnused where !live.contains(n) && owners[Int(n)] != nil {
            owners[Int(n)] = nil
            freeNumbers.append(n)
        }
        styleCache.removeAll(keepingCapacity: true)
    }

    /// Numbers for a whole frame, every cell of which is then written: each
    /// colour its own if they fit, otherwise see the type's comment.
    /// Afterwards every colour of `frame` has a number.
    private mutating func fit(_ frame: [ColorKey: FrameColor]) {
        let ranked = frame.filter { $0.key != .defaults }.sorted { a, b in
            if a.value.text != b.value.text { return a.value.text }
            if a.value.cells != b.value.cells { return a.value.cells > b.value.cells }
            return (a.key.fg, a.key.bg) < (b.key.fg, b.key.bg)
        }.map(\.key)
        let exact = ranked.prefix(capacity)
        approximating = ranked.count > capacity
        let keep = Set(exact)
        // The whole frame is rewritten, so only the chosen colours keep their numbers.
        numbers = numbers.filter { key, n in keep.contains(key) && owners[Int(n)] == key }
        for n in 1..<nextUnused where owners[Int(n)].map({ numbers[$0] == nil }) ?? false {
            owners[Int(n)] = nil
            freeNumbers.append(n)
        }
        styleCache.removeAll(keepingCapacity: true)
        var candidates: [(key: ColorKey, pair: Int32)] = []
        for key in exact {
            if numbers[key] == nil { claim(next(), for: key) }
            candidates.append((key, numbers[key] ?? 0))
        }
        // Last, so that on a tie a colour is drawn with colours rather than the defaults.
        candidates.append((.defaults, 0))
        let palette = candidates.map { (rgb(of: $0.key.fg), rgb(of: $0.key.bg), $0.pair) }
        for key in ranked.dropFirst(capacity) {
            let fg = rgb(of: key.fg), bg = rgb(of: key.bg)
            var best = palette[0]
            var bestDistance = Int.max
            for entry in palette {
                let d = distance(fg, entry.0) + distance(bg, entry.1)
                if d < bestDistance { best = entry; bestDistance = d }
            }
            numbers[key] = best.2
        }
    }

    private mutating func claim(_ pair: Int32, for key: ColorKey) {
        owners[Int(pair)] = key
        numbers[key] = pair
        define(pair, key.fg, key.bg)
    }

    /// A colour number as red, green, blue; nil for the default colour.
    private func rgb(of number: Int) -> (Int, Int, Int)? {
        guard number >= 0 else { return nil }
        if depth == .trueColor { return (number >> 16 & 0xFF, number >> 8 & 0xFF, number & 0xFF) }
        return xtermRGB(number)
    }

    private func distance(_ a: (Int, Int, Int)?, _ b: (Int, Int, Int)?) -> Int {
        guard let a, let b else { return a == nil && b == nil ? 0 : 3 * 255 * 255 * 9 }
        let dr = a.0 - b.0, dg = a.1 - b.1, db = a.2 - b.2
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }
}

/// How a frame uses one colour: on how many cells, and whether on text.
struct FrameColor: Equatable {
    var cells = 0
    var text = false
}

extension ColorPairs {
    /// The colours of every cell of a frame. A colour counts as text when a
    /// cell shows a letter, digit or punctuation in it, or has attributes:
    /// pictures are drawn with blocks, braille and spaces in plain styles.
    func colors(of frame: CellBuffer) -> [ColorKey: FrameColor] {
        var styles: [Style: FrameColor] = [:]
        for cell in frame.cells {
            styles[cell.style, default: FrameColor()].cells += 1
            if !styles[cell.style, default: FrameColor()].text, isText(cell) {
                styles[cell.style]?.text = true
            }
        }
        var colors: [ColorKey: FrameColor] = [:]
        for (style, use) in styles {
            let key = key(style)
            colors[key, default: FrameColor()].cells += use.cells
            if use.text { colors[key]?.text = true }
        }
        return colors
    }

    private func isText(_ cell: Cell) -> Bool {
        if !cell.style.attributes.isEmpty { return true }
        let s = cell.symbol
        if s.isASCII { return s.value > 0x20 && s.value < 0x7F }
        return s.properties.isAlphabetic || s.properties.numericType != nil
    }
}

/// The xterm palette: 0–15 as xterm's defaults, the 6×6×6 cube, the grey ramp.
private func xtermRGB(_ index: Int) -> (Int, Int, Int) {
    let system = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
                  (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
                  (255, 0, 255), (0, 255, 255), (255, 255, 255)]
    switch index {
    case 0..<16: return system[index]
    case 16..<232:
        let levels = [0, 95, 135, 175, 215, 255]
        let i = index - 16
        return (levels[i / 36], levels[i / 6 % 6], levels[i % 6])
    default:
        let grey = 8 + 10 * (min(index, 255) - 232)
        return (grey, grey, grey)
    }
}
