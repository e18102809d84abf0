import CChafa

extension RGBImage {
    /// Hands the pixels to a chafa canvas. chafa 1.12 misreads packed RGB rows
    /// whose length is not a multiple of 4 bytes (a 90-pixel-wide picture comes
    /// out as coloured noise; measured), so such rows are padded first.
    func draw(on canvas: OpaquePointer) {
        let rowBytes = width * 3
        let stride = (rowBytes + 3) / 4 * 4
        var padded: [UInt8] = []
        if stride != rowBytes {
            padded = [UInt8](repeating: 0, count: stride * height)
            for y in 0..<height {
                padded.replaceSubrange(y * stride..<(y * stride + rowBytes), with: pixels[(y * rowBytes)..<((y + 1) * rowBytes)])
            }
        }
        (stride == rowBytes ? pixels : padded).withUnsafeBufferPointer { bytes in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGB8, bytes.baseAddress,
                                         Int32(width), Int32(height), Int32(stride))
        }
    }
}
