extension String {
    /// Cells the text takes on screen: one per scalar (the app draws no wide glyphs).
    public var displayWidth: Int { unicodeScalars.count }

    /// The text cut to a number of cells, with `…` marking the cut.
    public func truncated(to width: Int) -> String {
        let scalars = unicodeScalars
        guard scalars.count > width else { return self }
        guard width > 1 else { return "" }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars.prefix(width - 1))
        view.append("\u{2026}")
        return String(view)
    }
}
