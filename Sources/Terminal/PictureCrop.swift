/// The part of an image a picture shows, in ten-thousandths of its width and height from its top
/// left corner: the whole image, or the part a zoomed photo view shows. Integers, so a crop is a
/// key that compares exactly. Here, beside the cells, so that the screens and the decoder share it.
public struct PictureCrop: Hashable, Sendable, CustomStringConvertible {
    public static let unit = 10_000
    public static let whole = PictureCrop(x: 0, y: 0, width: unit, height: unit)

    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var isWhole: Bool { self == .whole }

    public var description: String { isWhole ? "" : "[\(x),\(y) \(width)x\(height)]" }

    /// The crop in the pixels of an image of this size: the smallest whole-pixel rectangle that holds
    /// it, inside the image and at least one pixel each way. The one place fractions become pixels.
    public func pixels(width imageWidth: Int, height imageHeight: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let unit = PictureCrop.unit
        func span(_ start: Int, _ length: Int, _ side: Int) -> (Int, Int) {
            let from = min(max(0, start), unit), to = min(max(from, start + length), unit)
            let first = min(from * side / unit, max(0, side - 1))
            let end = max(first + 1, min(side, (to * side + unit - 1) / unit))
            return (first, end - first)
        }
        let (x0, w) = span(x, width, imageWidth)
        let (y0, h) = span(y, height, imageHeight)
        return (x0, y0, w, h)
    }
}
