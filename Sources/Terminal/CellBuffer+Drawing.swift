/// The characters of a frame: corners, edges.
public struct FrameGlyphs: Equatable, Sendable {
    public var topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical: Unicode.Scalar

    public init(topLeft: Unicode.Scalar, topRight: Unicode.Scalar, bottomLeft: Unicode.Scalar,
                bottomRight: Unicode.Scalar, horizontal: Unicode.Scalar, vertical: Unicode.Scalar) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomLeft = bottomLeft
        self.bottomRight = bottomRight
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// Light box drawing: ┌─┐ │ └─┘
    public static let unicode = FrameGlyphs(topLeft: "┌", topRight: "┐", bottomLeft: "└",
                                            bottomRight: "┘", horizontal: "─", vertical: "│")
}

extension CellBuffer {
    /// Fills a rectangle with blanks in the given style (clipped to the buffer).
    public mutating func clear(x: Int, y: Int, width w: Int, height h: Int, style: Style = .plain) {
        fill(x: x, y: y, width: w, height: h, with: Cell(" ", style: style))
    }

    /// Clears the whole buffer.
    public mutating func clear(style: Style = .plain) {
        clear(x: 0, y: 0, width: width, height: height, style: style)
    }

    /// Draws a frame around a rectangle (the border is part of the rectangle),
    /// with an optional title in the top edge: `┌ Title ─┐`. The inside is
    /// left untouched. Frames smaller than 2×2 are not drawn. The title is cut
    /// to fit between the corners.
    public mutating func drawFrame(x: Int, y: Int, width w: Int, height h: Int,
                                  title: String? = nil, style: Style = .plain,
                                  titleStyle: Style? = nil, glyphs: FrameGlyphs = .unicode) {
        guard w >= 2, h >= 2 else { return }
        let right = x + w - 1, bottom = y + h - 1
        for col in (x + 1)..<right {
            self[col, y] = Cell(glyphs.horizontal, style: style)
            self[col, bottom] = Cell(glyphs.horizontal, style: style)
        }
        for row in (y + 1)..<bottom {
            self[x, row] = Cell(glyphs.vertical, style: style)
            self[right, row] = Cell(glyphs.vertical, style: style)
        }
        self[x, y] = Cell(glyphs.topLeft, style: style)
        self[right, y] = Cell(glyphs.topRight, style: style)
        self[x, bottom] = Cell(glyphs.bottomLeft, style: style)
        self[right, bottom] = Cell(glyphs.bottomRight, style: style)
        // One space either side of the title, between the corners.
        if let title, !title.isEmpty, w >= 5 {
            put(fitting: " " + title.truncated(to: w - 4) + " ", x: x + 1, y: y, style: titleStyle ?? style, width: w - 2)
        }
    }

    /// Writes one line of text centred in `width` cells starting at `x`
    /// (the whole buffer width by default). Text longer than the space is cut
    /// at the right, with `…`. Returns the column where the text starts.
    @discardableResult
    public mutating func putCentered(_ text: String, y: Int, x: Int = 0, width w: Int? = nil,
                                     style: Style = .plain) -> Int {
        let span = w ?? (width - x)
        let length = text.displayWidth
        let start = x + max(0, (span - length) / 2)
        put(fitting: text, x: start, y: y, style: style, width: max(0, x + span - start))
        return start
    }
}
