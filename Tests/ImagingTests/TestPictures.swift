import Imaging

extension RGBImage {
    /// A picture whose pixel at (x, y) is `color(x, y)`.
    static func painted(width: Int, height: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = color(x, y)
                let i = (y * width + x) * 3
                pixels[i] = r
                pixels[i + 1] = g
                pixels[i + 2] = b
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
