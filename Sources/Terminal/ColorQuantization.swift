/// A colour as the terminal can take it, after quantisation to its depth.
public enum TerminalColor: Hashable, Sendable {
    /// The terminal's own default foreground or background.
    case `default`
    /// A palette index: 0–7 in eight-colour mode, 16–255 in 256-colour mode.
    case indexed(Int)
    /// A direct (24-bit) colour.
    case rgb(UInt8, UInt8, UInt8)

    /// The colour number a curses-style library expects: -1 for the default,
    /// the palette index, or 0xRRGGBB for direct colour.
    public var colorNumber: Int {
        switch self {
        case .default: return -1
        case .indexed(let i): return i
        case .rgb(let r, let g, let b):
            let n = Int(r) << 16 | Int(g) << 8 | Int(b)
            // Direct-colour terminfo sends values 0–7 as the themed ANSI colours.
            return n < 8 ? 0x010101 : n
        }
    }
}

/// Maps a colour onto what a terminal of the given depth can show.
/// - `.trueColor`: unchanged.
/// - `.indexed256`: the nearest entry of the 6×6×6 cube or the grey ramp
///   (16–255); 0–15 are left out because terminals theme them.
/// - `.eight`: one of the ANSI colours 0–7, chosen by hue so that a dark blue
///   sea stays blue rather than turning black.
/// - `.none`: the default colour.
public func quantize(_ color: Color, to depth: TerminalCapabilities.ColorDepth) -> TerminalColor {
    guard case .rgb(let r, let g, let b) = color else { return .default }
    switch depth {
    case .none: return .default
    case .trueColor: return .rgb(r, g, b)
    case .indexed256: return .indexed(xterm256Index(r: Int(r), g: Int(g), b: Int(b)))
    case .eight: return .indexed(ansi8Index(r: Int(r), g: Int(g), b: Int(b)))
    }
}

/// The levels of each axis of the xterm colour cube.
private let cubeLevels = [0, 95, 135, 175, 215, 255]

private func nearestCubeStep(_ v: Int) -> Int {
    // Midpoints between the levels above.
    if v < 48 { return 0 }
    if v < 115 { return 1 }
    return min(5, (v - 35) / 40)
}

private func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
    // Weighted like the eye: green matters most, blue least.
    let dr = a.0 - b.0, dg = a.1 - b.1, db = a.2 - b.2
    return 2 * dr * dr + 4 * dg * dg + 3 * db * db
}

func xterm256Index(r: Int, g: Int, b: Int) -> Int {
    let ri = nearestCubeStep(r), gi = nearestCubeStep(g), bi = nearestCubeStep(b)
    let cube = (cubeLevels[ri], cubeLevels[gi], cubeLevels[bi])
    let cubeIndex = 16 + 36 * ri + 6 * gi + bi
    // Grey ramp 232–255 is 8, 18, …, 238.
    let mean = (r + g + b) / 3
    let greyStep = max(0, min(23, (mean - 3) / 10))
    let greyLevel = 8 + 10 * greyStep
    let grey = (greyLevel, greyLevel, greyLevel)
    let target = (r, g, b)
    return distance(target, grey) < distance(target, cube) ? 232 + greyStep : cubeIndex
}

func ansi8Index(r: Int, g: Int, b: Int) -> Int {
    let hi = max(r, g, b), lo = min(r, g, b)
    // Near-black and unsaturated colours go to black or white by brightness.
    if hi < 40 { return 0 }
    if (hi - lo) * 5 < hi {
        return (r * 3 + g * 6 + b) / 10 >= 128 ? 7 : 0
    }
    // A channel counts when it carries at least 60 % of the strongest one.
    func on(_ c: Int) -> Bool { c * 5 >= hi * 3 }
    return (on(r) ? 1 : 0) | (on(g) ? 2 : 0) | (on(b) ? 4 : 0)
}
