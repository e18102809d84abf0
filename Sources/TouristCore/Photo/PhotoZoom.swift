import Foundation
import Terminal

/// How far the photo view is zoomed in and on which point of the image: the level (fit, 2×, 4×, …
/// up to 1 image pixel a screen pixel) and the image point at the middle of the view. Kept apart
/// from the image's size and the view's box, so a resize or the large image arriving keeps the view.
public struct PhotoZoom: Equatable, Sendable {
    /// 0: the whole photo fitted; each level doubles; the last one is 1 image pixel a screen pixel.
    public var level: Int
    /// The image point at the middle of the view, in ten-thousandths of its width and height.
    public var centerX: Int
    public var centerY: Int

    public init(level: Int = 0, centerX: Int = PictureCrop.unit / 2, centerY: Int = PictureCrop.unit / 2) {
        self.level = level
        self.centerX = centerX
        self.centerY = centerY
    }

    public static let fit = PhotoZoom()

    public var isZoomed: Bool { level > 0 }

    /// The screen pixels a cell stands for: cell pictures sample 8 a column, and a cell is twice as
    /// tall as wide. The zoom levels are counted in these.
    public static let cellPixels = (width: 8, height: 16)

    /// The part of the image the view shows: the one place the crop is computed (the cell picture's
    /// key and the inline picture's request both read it). The whole image when fitted.
    public func crop(imageWidth: Int, imageHeight: Int, box: PictureSize,
                     cellPixels: (width: Int, height: Int) = PhotoZoom.cellPixels) -> PictureCrop {
        guard let view = ZoomView(imageWidth: imageWidth, imageHeight: imageHeight, box: box, cellPixels: cellPixels)
        else { return .whole }
        return view.crop(self)
    }
}

/// A photo of a known size in a box of cells: the zoom levels it allows and what each shows.
struct ZoomView {
    let imageWidth: Double
    let imageHeight: Double
    /// The box in screen pixels.
    let boxWidth: Double
    let boxHeight: Double

    init?(imageWidth: Int, imageHeight: Int, box: PictureSize,
          cellPixels: (width: Int, height: Int) = PhotoZoom.cellPixels) {
        guard imageWidth > 0, imageHeight > 0, box.columns > 0, box.rows > 0, cellPixels.width > 0,
              cellPixels.height > 0 else { return nil }
        self.imageWidth = Double(imageWidth)
        self.imageHeight = Double(imageHeight)
        boxWidth = Double(box.columns * cellPixels.width)
        boxHeight = Double(box.rows * cellPixels.height)
    }

    static let unit = Double(PictureCrop.unit)
    /// A last step that would enlarge less than this is left out (the one before is then 1:1).
    static let smallestStep = 1.1

    /// Screen pixels per image pixel with the whole photo fitted.
    var fitScale: Double { min(boxWidth / imageWidth, boxHeight / imageHeight) }

    /// The deepest level: where the scale reaches 1 image pixel a screen pixel. 0 when the photo fitted
    /// is already (nearly) that sharp.
    var maxLevel: Int {
        let room = 1 / (fitScale * ZoomView.smallestStep)
        guard room >= 1 else { return 0 }
        return Int(log2(room).rounded(.down)) + 1
    }

    /// Screen pixels per image pixel at a level: doubling, the last level exactly 1.
    func scale(_ level: Int) -> Double {
        let level = min(max(0, level), maxLevel)
        if level == 0 { return fitScale }
        return level == maxLevel ? 1 : fitScale * pow(2, Double(level))
    }

    /// How many times larger than fitted a level shows the photo.
    func factor(_ level: Int) -> Double { scale(level) / fitScale }

    /// The part of the image shown at a level, in ten-thousandths of its sides.
    func visible(_ level: Int) -> (width: Int, height: Int) {
        let s = scale(level)
        let w = min(1, boxWidth / s / imageWidth), h = min(1, boxHeight / s / imageHeight)
        return (max(1, Int((w * ZoomView.unit).rounded())), max(1, Int((h * ZoomView.unit).rounded())))
    }

    /// The zoom as shown: its level within what the photo allows, its centre where the view stays on
    /// the image (fitted: the middle).
    func clamped(_ zoom: PhotoZoom) -> PhotoZoom {
        let level = min(max(0, zoom.level), maxLevel)
        guard level > 0 else { return .fit }
        let seen = visible(level)
        func centre(_ c: Int, _ side: Int) -> Int {
            let unit = PictureCrop.unit
            guard side < unit else { return unit / 2 }
            return min(max(c, side / 2), unit - (side - side / 2))
        }
        return PhotoZoom(level: level, centerX: centre(zoom.centerX, seen.width), centerY: centre(zoom.centerY, seen.height))
    }

    func crop(_ zoom: PhotoZoom) -> PictureCrop {
        let zoom = clamped(zoom)
        guard zoom.level > 0 else { return .whole }
        let seen = visible(zoom.level)
        let crop = PictureCrop(x: zoom.centerX - seen.width / 2, y: zoom.centerY - seen.height / 2,
                               width: seen.width, height: seen.height)
        return crop.isWhole ? .whole : crop
    }

    /// Moved by a quarter of the view each step, staying on the image.
    func panned(_ zoom: PhotoZoom, dx: Int, dy: Int) -> PhotoZoom {
        var zoom = clamped(zoom)
        guard zoom.level > 0 else { return zoom }
        let seen = visible(zoom.level)
        zoom.centerX += dx * max(1, seen.width / 4)
        zoom.centerY += dy * max(1, seen.height / 4)
        return clamped(zoom)
    }

    /// At another level, the image point `offset` screen pixels from the view's middle staying where
    /// it is (the wheel zooms at the pointer; the keys at the middle, offset zero).
    func zoomed(_ zoom: PhotoZoom, to level: Int, keeping offset: (x: Double, y: Double) = (0, 0)) -> PhotoZoom {
        let from = clamped(zoom)
        let to = min(max(0, level), maxLevel)
        guard to > 0 else { return .fit }
        let before = scale(from.level), after = scale(to)
        // In image pixels: the point under the offset now, and the middle that keeps it there.
        let cx = Double(from.centerX) / ZoomView.unit * imageWidth + offset.x / before - offset.x / after
        let cy = Double(from.centerY) / ZoomView.unit * imageHeight + offset.y / before - offset.y / after
        return clamped(PhotoZoom(level: to, centerX: Int((cx / imageWidth * ZoomView.unit).rounded()),
                                 centerY: Int((cy / imageHeight * ZoomView.unit).rounded())))
    }

    /// The factor as the title row shows it: `2×`, `4×`, `2.7×`.
    static func factorText(_ factor: Double, unicode: Bool) -> String {
        let sign = unicode ? "\u{00D7}" : "x"
        let rounded = factor.rounded()
        if abs(factor - rounded) < 0.05 { return "\(Int(rounded))" + sign }
        return String(format: "%.1f", factor) + sign
    }
}
