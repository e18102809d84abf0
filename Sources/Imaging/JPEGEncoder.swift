import CTurboJPEG
import Foundation

/// TurboJPEG's compressor: a decoded picture back to JPEG bytes (iTerm2 is sent a zoomed part of
/// a photo this way, at its own resolution).
public enum JPEGEncoder {
    /// The JPEG file of `image` at `quality` (1–100), 4:2:0; nil when TurboJPEG fails.
    public static func encode(_ image: RGBImage, quality: Int = 85) -> [UInt8]? {
        guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height * 3,
              image.width <= Int(Int32.max) / 3, image.height <= Int(Int32.max),
              let handle = tjInitCompress() else { return nil }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, Int32(image.width), Int32(image.width * 3), Int32(image.height),
                        Int32(TJPF_RGB.rawValue), &output, &size, Int32(TJSAMP_420.rawValue),
                        Int32(min(max(quality, 1), 100)), 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { return nil }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
