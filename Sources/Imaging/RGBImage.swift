/// A decoded picture: 8-bit RGB, row-major, no padding. What the decoder gives and the renderer takes.
public struct RGBImage: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// `width * height * 3` bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "RGBImage needs width × height × 3 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at (x, y) as (r, g, b).
    public func pixel(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}
