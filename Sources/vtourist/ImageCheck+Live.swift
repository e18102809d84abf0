import AlbumService
import Imaging

extension ImageCheck {
    /// What the app and `drop` store: the JPEG decoder's own word on downloaded bytes.
    static let live = ImageCheck(JPEGDecoder.downloadProblem)
}
