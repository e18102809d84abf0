import Terminal
import WorldMap

/// Draws the whole screen from the state: a pure function into a cell
/// buffer. It lays the screen out, has the shown screen's feature draw it,
/// and draws the overlay on top.
public enum AppView {
    /// `raster` is the map for `state.viewport` (the runtime caches it while
    /// the view does not change); `labels`, the names that may go on it (for
    /// the same view); `pictures`, the photos rendered so far.
    public static func render(_ state: AppState, raster: MapRaster?, labels: LabelCandidates? = nil,
                              pictures: PictureShelf = PictureShelf()) -> CellBuffer {
        var buffer = CellBuffer(width: state.width, height: state.height)
        let theme = Theme.forDepth(state.capabilities.colors)
        if state.isTooSmall {
            buffer.render(TooSmallNotice(width: state.width, height: state.height, theme: theme), in: buffer.area)
            return buffer
        }
        let layout = state.layout
        let feature = state.screen.feature
        let context = RenderContext(theme: theme, layout: layout, pictures: pictures, raster: raster, labels: labels)
        feature.render(state, context, into: &buffer)
        if let overlay = state.overlay {
            switch overlay {
            case .help:
                buffer.render(HelpOverlay(for: state), in: layout.main)
            }
        }
        if !state.capabilities.unicode { buffer.makeASCII() }
        return buffer
    }
}

/// The screen's areas: everything but the last row for the screen's content
/// (its last rows double as the message line), the last row for the status line.
public struct ScreenLayout: Equatable, Sendable {
    public var main: Rect
    public var status: Rect
    /// Where a message may go: the bottom rows of `main`; one takes as many of them as it needs
    /// (`MessageLine`), counted up from the status line.
    public var message: Rect

    init(_ screen: Rect) {
        (main, status) = screen.splitBottom(1)
        message = main.splitBottom(MessageLine.maxRows).bottom
    }
}

extension AppState {
    /// The screen's areas at the terminal's size: what the views draw in and the album grid is measured by.
    var layout: ScreenLayout { ScreenLayout(Rect(x: 0, y: 0, width: width, height: height)) }
}

/// What is shown instead of everything when the terminal is below the minimum size.
struct TooSmallNotice: Widget {
    var width: Int
    var height: Int
    var theme: Theme

    func render(area: Rect, into buffer: inout CellBuffer) {
        let lines = [
            "Terminal too small",
            "\(width)x\(height); need \(AppState.minimumWidth)x\(AppState.minimumHeight)",
            "Enlarge it, or press \(TooSmallKeys.table.keyName(for: .quit)) to quit.",
        ]
        let top = area.y + max(0, (area.height - lines.count) / 2)
        for (i, line) in lines.enumerated() {
            let x = area.x + max(0, (area.width - line.displayWidth) / 2)
            buffer.put(fitting: line, x: x, y: top + i, style: i == 0 ? theme.error : .plain, width: area.right - x)
        }
    }
}
