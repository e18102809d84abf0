/// A rectangle of cells on the screen: where a widget may paint.
public struct Rect: Equatable, Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var right: Int { x + width }
    public var bottom: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }

    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && py >= y && px < right && py < bottom
    }

    /// One row of the rectangle, counted from its top (negative: from its bottom).
    public func row(_ i: Int) -> Rect {
        Rect(x: x, y: i >= 0 ? y + i : bottom + i, width: width, height: 1)
    }

    /// The top `rows` rows and what is left below them.
    public func splitTop(_ rows: Int) -> (top: Rect, rest: Rect) {
        let n = min(max(0, rows), height)
        return (Rect(x: x, y: y, width: width, height: n), Rect(x: x, y: y + n, width: width, height: height - n))
    }

    /// What is left above the bottom `rows` rows, and those rows.
    public func splitBottom(_ rows: Int) -> (rest: Rect, bottom: Rect) {
        let n = min(max(0, rows), height)
        return (Rect(x: x, y: y, width: width, height: height - n), Rect(x: x, y: bottom - n, width: width, height: n))
    }

    /// A rectangle of at most this size centred horizontally in this one; centred
    /// vertically too unless `top` (an offset from this rectangle's top) is given.
    public func centered(width w: Int, height h: Int, top: Int? = nil) -> Rect {
        let cw = min(w, width), ch = min(h, height)
        return Rect(x: x + (width - cw) / 2, y: y + (top ?? max(0, (height - ch) / 2)), width: cw, height: ch)
    }

    /// The rectangle shrunk by `dx` columns on each side and `dy` rows at top and bottom.
    public func inset(dx: Int, dy: Int) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
}

/// Something that paints itself into an area of a cell buffer and nowhere
/// else (ratatui's `Widget`). Widgets never touch the terminal.
public protocol Widget {
    func render(area: Rect, into buffer: inout CellBuffer)
}

extension CellBuffer {
    /// The whole buffer as an area.
    public var area: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// Fills an area with blanks in a style.
    public mutating func clear(_ area: Rect, style: Style = .plain) {
        clear(x: area.x, y: area.y, width: area.width, height: area.height, style: style)
    }

    /// Draws a frame around an area (the border is part of it).
    public mutating func drawFrame(_ area: Rect, title: String? = nil, style: Style = .plain,
                                   titleStyle: Style? = nil, glyphs: FrameGlyphs = .unicode) {
        drawFrame(x: area.x, y: area.y, width: area.width, height: area.height, title: title, style: style,
                  titleStyle: titleStyle, glyphs: glyphs)
    }

    /// Renders a widget into an area.
    public mutating func render(_ widget: some Widget, in area: Rect) {
        widget.render(area: area, into: &self)
    }
}
