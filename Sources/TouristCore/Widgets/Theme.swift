import Terminal

/// The app's colours, chosen per colour depth so that each depth still tells
/// land from sea and pins from the map.
public struct Theme: Sendable {
    public var sea: Style
    public var land: Style
    public var coast: Color
    public var border: Color
    /// Rivers; without colour they are drawn dim.
    public var river: Color
    /// First-level (state, province) borders; without colour they are drawn dotted.
    public var province: Color
    public var pin: Style
    public var cluster: Style
    public var highlight: Style
    public var cursor: Style
    public var status: Style
    public var statusDim: Style
    /// `offline` on the status line: it stands out from the rest of the line.
    public var offline: Style
    public var info: Style
    public var error: Style
    public var dialog: Style
    public var dialogTitle: Style
    public var selection: Style
    public var dim: Style
    /// Place names on the map; `labelMajor` for capitals and big places.
    public var label: Style
    public var labelMajor: Style
    /// The dot at a named place.
    public var labelDot: Style
    /// Country names at world zoom.
    public var countryLabel: Style

    public static func forDepth(_ depth: TerminalCapabilities.ColorDepth) -> Theme {
        switch depth {
        case .none:
            return Theme(
                sea: .plain, land: .plain, coast: .default, border: .default, river: .default, province: .default,
                pin: Style(attributes: .bold), cluster: Style(attributes: [.bold, .reverse]),
                highlight: Style(attributes: [.reverse, .bold]), cursor: Style(attributes: .bold),
                status: Style(attributes: .reverse), statusDim: Style(attributes: .reverse),
                offline: Style(attributes: .bold),
                info: Style(attributes: .reverse), error: Style(attributes: [.reverse, .bold]),
                dialog: .plain, dialogTitle: Style(attributes: .bold), selection: Style(attributes: .reverse),
                dim: Style(attributes: .dim),
                label: .plain, labelMajor: Style(attributes: .bold), labelDot: .plain, countryLabel: .plain)
        case .eight:
            let blue = Color.rgb(0, 0, 205), white = Color.rgb(229, 229, 229), black = Color.rgb(0, 0, 0)
            let yellow = Color.rgb(205, 205, 0), red = Color.rgb(205, 0, 0)
            return Theme(
                sea: Style(fg: white, bg: blue), land: Style(fg: white, bg: black), coast: white, border: yellow,
                river: .rgb(0, 205, 205), province: .rgb(205, 0, 205),
                pin: Style(fg: red, attributes: .bold), cluster: Style(fg: white, bg: red, attributes: .bold),
                highlight: Style(fg: black, bg: yellow, attributes: .bold), cursor: Style(fg: yellow, attributes: .bold),
                status: Style(fg: black, bg: white), statusDim: Style(fg: black, bg: white),
                offline: Style(fg: white, bg: red, attributes: .bold),
                info: Style(fg: black, bg: .rgb(0, 205, 205)), error: Style(fg: white, bg: red, attributes: .bold),
                dialog: Style(fg: white, bg: black), dialogTitle: Style(fg: yellow, bg: black, attributes: .bold),
                selection: Style(fg: black, bg: white), dim: Style(fg: white, attributes: .dim),
                label: Style(fg: white), labelMajor: Style(fg: white, attributes: .bold),
                labelDot: Style(fg: yellow, attributes: .bold), countryLabel: Style(fg: .rgb(0, 205, 205)))
        case .indexed256, .trueColor:
            let ink = Color.rgb(238, 238, 238)
            let panel = Color.rgb(38, 38, 38)
            return Theme(
                sea: Style(fg: ink, bg: .rgb(0, 0, 95)), land: Style(fg: ink, bg: .rgb(48, 48, 48)),
                coast: .rgb(215, 215, 175), border: .rgb(255, 135, 95),
                river: .rgb(95, 175, 255), province: .rgb(118, 118, 118),
                pin: Style(fg: .rgb(255, 95, 95), attributes: .bold),
                cluster: Style(fg: .rgb(255, 255, 255), bg: .rgb(175, 0, 0), attributes: .bold),
                highlight: Style(fg: .rgb(0, 0, 0), bg: .rgb(255, 215, 0), attributes: .bold),
                cursor: Style(fg: .rgb(255, 215, 0), attributes: .bold),
                status: Style(fg: ink, bg: .rgb(28, 28, 28)), statusDim: Style(fg: .rgb(138, 138, 138), bg: .rgb(28, 28, 28)),
                offline: Style(fg: .rgb(0, 0, 0), bg: .rgb(255, 135, 0), attributes: .bold),
                info: Style(fg: .rgb(0, 0, 0), bg: .rgb(135, 215, 255)),
                error: Style(fg: .rgb(255, 255, 255), bg: .rgb(175, 0, 0), attributes: .bold),
                dialog: Style(fg: ink, bg: panel), dialogTitle: Style(fg: .rgb(255, 215, 0), bg: panel, attributes: .bold),
                selection: Style(fg: .rgb(0, 0, 0), bg: .rgb(135, 215, 255)),
                dim: Style(fg: .rgb(138, 138, 138), bg: panel),
                label: Style(fg: .rgb(208, 208, 208)), labelMajor: Style(fg: .rgb(255, 255, 255), attributes: .bold),
                labelDot: Style(fg: .rgb(255, 255, 175)), countryLabel: Style(fg: .rgb(175, 175, 215)))
        }
    }
}
