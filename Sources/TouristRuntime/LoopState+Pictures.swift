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
        pictures.standIn = standIn(before: lastWanted, now: wanted)
        lastWanted = wanted
        pictures.prune(keeping: state.picturesToKeep(wanted: wanted))
        work.append(.wantPictures(wanted.filter { pictures[$0] == nil }))
        return work
    }

    /// What stands in for the most wanted picture until it is rendered: the picture of the same photo
    /// and box drawn until now (the part zoomed in on before a zoom step or a pan), so the box is
    /// never left empty meanwhile. Nil when the most wanted one is there, or no such picture is.
    private func standIn(before: [PictureKey], now wanted: [PictureKey]) -> PictureKey? {
        guard let first = wanted.first else { return nil }
        let same = { (key: PictureKey) in key.photoID == first.photoID && key.size == first.size }
        // The leading keys of one photo and box are what is drawn (the large picture, the thumbnail's).
        if wanted.prefix(while: same).contains(where: { pictures[$0] != nil }) { return nil }
        if let drawn = before.prefix(while: same).first(where: { pictures[$0] != nil }) { return drawn }
        // Two steps before the first was rendered: the one drawn all along stays.
        if let kept = pictures.standIn, same(kept), pictures[kept] != nil { return kept }
        return nil
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
