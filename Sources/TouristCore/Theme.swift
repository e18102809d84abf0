import Terminal

/// The app's colours, chosen per colour depth so that each depth still tells
/// land from sea and pins from the map.
public struct Theme: Sendable {
    public var sea: Style
    public var land: Style
    public var coast: Color
    public var border: Color
    public var pin: Style
    public var cluster: Style
    public var highlight: Style
    public var cursor: Style
    public var status: Style
    public var statusDim: Style
    public var info: Style
    public var error: Style
    public var dialog: Style
    public var dialogTitle: Style
    public var selection: Style
    public var dim: Style

    public static func forDepth(_ depth: TerminalCapabilities.ColorDepth) -> Theme {
        switch depth {
        case .none:
            return Theme(
                sea: .plain, land: .plain, coast: .default, border: .default,
                pin: Style(attributes: .bold), cluster: Style(attributes: [.bold, .reverse]),
                highlight: Style(attributes: [.reverse, .bold]), cursor: Style(attributes: .bold),
                status: Style(attributes: .reverse), statusDim: Style(attributes: .reverse),
                info: Style(attributes: .reverse), error: Style(attributes: [.reverse, .bold]),
                dialog: .plain, dialogTitle: Style(attributes: .bold), selection: Style(attributes: .reverse),
                dim: Style(attributes: .dim))
        case .eight:
            let blue = Color.rgb(0, 0, 205), white = Color.rgb(229, 229, 229), black = Color.rgb(0, 0, 0)
            let yellow = Color.rgb(205, 205, 0), red = Color.rgb(205, 0, 0)
            return Theme(
                sea: Style(fg: white, bg: blue), land: Style(fg: white, bg: black), coast: white, border: yellow,
                pin: Style(fg: red, attributes: .bold), cluster: Style(fg: white, bg: red, attributes: .bold),
                highlight: Style(fg: black, bg: yellow, attributes: .bold), cursor: Style(fg: yellow, attributes: .bold),
                status: Style(fg: black, bg: white), statusDim: Style(fg: black, bg: white),
                info: Style(fg: black, bg: .rgb(0, 205, 205)), error: Style(fg: white, bg: red, attributes: .bold),
                dialog: Style(fg: white, bg: black), dialogTitle: Style(fg: yellow, bg: black, attributes: .bold),
                selection: Style(fg: black, bg: white), dim: Style(fg: white, attributes: .dim))
        case .indexed256, .trueColor:
            let ink = Color.rgb(238, 238, 238)
            let panel = Color.rgb(38, 38, 38)
            return Theme(
                sea: Style(fg: ink, bg: .rgb(0, 0, 95)), land: Style(fg: ink, bg: .rgb(48, 48, 48)),
                coast: .rgb(215, 215, 175), border: .rgb(215, 135, 95),
                pin: Style(fg: .rgb(255, 95, 95), attributes: .bold),
                cluster: Style(fg: .rgb(255, 255, 255), bg: .rgb(175, 0, 0), attributes: .bold),
                highlight: Style(fg: .rgb(0, 0, 0), bg: .rgb(255, 215, 0), attributes: .bold),
                cursor: Style(fg: .rgb(255, 215, 0), attributes: .bold),
                status: Style(fg: ink, bg: .rgb(28, 28, 28)), statusDim: Style(fg: .rgb(138, 138, 138), bg: .rgb(28, 28, 28)),
                info: Style(fg: .rgb(0, 0, 0), bg: .rgb(135, 215, 255)),
                error: Style(fg: .rgb(255, 255, 255), bg: .rgb(175, 0, 0), attributes: .bold),
                dialog: Style(fg: ink, bg: panel), dialogTitle: Style(fg: .rgb(255, 215, 0), bg: panel, attributes: .bold),
                selection: Style(fg: .rgb(0, 0, 0), bg: .rgb(135, 215, 255)),
                dim: Style(fg: .rgb(138, 138, 138), bg: panel))
        }
    }
}
