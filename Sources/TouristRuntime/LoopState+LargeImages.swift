import Model
import TouristCore

/// What the large-image client is asked for: the photos to fetch, most wanted first (the photo
/// shown, then the next, then the previous), and those whose images it keeps. Each request
/// replaces the one before.
struct LargeImageRequest: Equatable, Sendable {
    /// Photos whose large images the screen has no word of yet.
    var fetch: [LargeImageWant] = []
    /// Photos the screen wants still: a download in flight for one of these goes on, and a copy
    /// kept in memory (not stored) stays; every other is cancelled or dropped.
    var keep: Set<PhotoRecord.ID> = []
    /// The terminal's width in pixels (Commons thumbnails are asked that wide).
    var screenWidth: Int = 0
    /// Bytes the store may hold of large images (`large_cache_mb`).
    var budgetBytes: Int = 0

    static let none = LargeImageRequest()
}

extension LoopState {
    /// A terminal that does not tell its cell size is taken to have cells this wide.
    static let assumedCellWidth = 10

    /// The terminal's width in pixels.
    static func screenPixelWidth(columns: Int, terminal: TerminalFacts) -> Int {
        max(columns, 1) * (terminal.cellPixelSize?.width ?? assumedCellWidth)
    }

    /// Asks for the large images the photo screen wants and has no word of; nothing (cancelling
    /// what is under way) once it is left.
    mutating func requestLargeImages(_ state: AppState, terminal: TerminalFacts) -> [Work] {
        var request = LargeImageRequest.none
        if let screen = state.photo {
            let window = screen.wantedLargeImages
            request = LargeImageRequest(
                fetch: window.filter { screen.large[$0.photoID] == nil },
                keep: Set(window.map(\.photoID)),
                screenWidth: LoopState.screenPixelWidth(columns: state.width, terminal: terminal),
                budgetBytes: max(0, state.settings.largeCacheBytes))
        }
        guard request != lastLargeRequest else { return [] }
        lastLargeRequest = request
        return [.wantLargeImages(request)]
    }
}
