import CChafa
import CTurboJPEG

/// Facts about the image libraries this build links.
public enum ImageLibraries {
    /// TurboJPEG's API generation this build uses (`tj*` of 2.x; no `tj3*`).
    public static let turboJPEGAPI = "2.1"
    /// Threads libchafa may use (its own pool); 0 or less means its default.
    public static var chafaThreads: Int { Int(chafa_get_n_actual_threads()) }
    /// A TurboJPEG handle can be made: the library is there and works.
    public static var turboJPEGWorks: Bool {
        guard let handle = tjInitDecompress() else { return false }
        tjDestroy(handle)
        return true
    }
}
