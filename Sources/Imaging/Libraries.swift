import CChafa
import CTurboJPEG

/// Facts about the image libraries this build links.
public enum ImageLibraries {
    /// TurboJPEG's API generation this build uses (`tj*` of 2.x; no `tj3*`).
    public static let turboJPEGAPI = "2.1"
    /// Threads libchafa may use (its own pool); 0 or less means its default.
    public static var chafaThreads: Int { Int(chafa_get_n_actual_threads()) }

    /// Makes libchafa draw each picture on the calling thread alone, for the whole process: for
    /// callers that render several pictures at once on threads of their own (the album), where
    /// chafa's pool only adds hand-offs (a 25x9 album cell: 2.3 → 1.8 ms; docs/imaging.md).
    public static func drawEachPictureOnItsCallersThread() {
        chafa_set_n_threads(1)
    }
    /// A TurboJPEG handle can be made: the library is there and works.
    public static var turboJPEGWorks: Bool {
        guard let handle = tjInitDecompress() else { return false }
        tjDestroy(handle)
        return true
    }
}
