import Model
import Terminal
import TouristCore

/// What the loop knows of the terminal when it decides on pictures.
struct TerminalFacts: Equatable, Sendable {
    /// The inline image protocol the terminal speaks, if any.
    var inlineImages: InlineProtocol?
    /// A cell's size in pixels, where the terminal reports it.
    var cellPixelSize: (width: Int, height: Int)?

    static func == (lhs: TerminalFacts, rhs: TerminalFacts) -> Bool {
        lhs.inlineImages == rhs.inlineImages && lhs.cellPixelSize?.width == rhs.cellPixelSize?.width
            && lhs.cellPixelSize?.height == rhs.cellPixelSize?.height
    }
}

extension LoopState {
    /// Asks for the pictures the screen wants and has not got; forgets those it will not want soon.
    mutating func requestPictures(_ state: AppState, terminal: TerminalFacts) -> [Work] {
        var work = requestInline(state, terminal: terminal)
        let wanted = state.wantedPictures
        guard wanted != lastWanted else { return work }
        lastWanted = wanted
        pictures.prune(keeping: state.picturesToKeep(wanted: wanted))
        work.append(.wantPictures(wanted.filter { pictures[$0] == nil }))
        return work
    }

    /// The photo screen's photo for the terminal's inline image protocol, when it speaks one; the
    /// cells stay underneath as the fallback.
    private mutating func requestInline(_ state: AppState, terminal: TerminalFacts) -> [Work] {
        guard let imageProtocol = terminal.inlineImages, let spot = state.inlinePictureSpot else {
            inlineKey = nil
            return []
        }
        let cell = terminal.cellPixelSize ?? (10, 20)
        // The large image once it is ready, the thumbnail until then.
        let image: PictureImage = state.photo?.largeSize(spot.photoID) != nil ? .large : .thumbnail
        // The part zoomed in on, at the terminal's own pixels.
        let crop = state.photo?.crop(box: PictureSize(columns: spot.area.width, rows: spot.area.height), cellPixels: cell) ?? .whole
        let request = InlineRequest(photoID: spot.photoID, area: spot.area, imageProtocol: imageProtocol,
                                    cellWidth: cell.width, cellHeight: cell.height, image: image, crop: crop)
        guard request.key != inlineKey else { return [] }
        inlineKey = request.key
        if inlinePicture?.key == request.key { return [] }
        return [.encodeInline(request)]
    }

    /// The inline picture to show over the frame: the one the screen wants, once encoded.
    var shownInline: InlinePicture? {
        inlinePicture.flatMap { $0.key == inlineKey ? $0 : nil }
    }
}
