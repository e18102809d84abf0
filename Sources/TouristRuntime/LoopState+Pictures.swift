import Model
import Terminal
import TouristCore

/// What the loop knows of the terminal when it decides on pictures.
struct TerminalFacts: Equatable, Sendable {
    /// The inline image protocol the terminal speaks, if any.
    var inlineImages: InlineProtocol?
    /// A cell's size in pixels, where the terminal reports it.
    var cellPixelSize: (width: Int, height: Int)?
    /// The colours the cells are drawn in (kitty's placeholder cells carry an image id in theirs).
    var colors: TerminalCapabilities.ColorDepth = .trueColor

    static func == (lhs: TerminalFacts, rhs: TerminalFacts) -> Bool {
        lhs.inlineImages == rhs.inlineImages && lhs.cellPixelSize?.width == rhs.cellPixelSize?.width
            && lhs.cellPixelSize?.height == rhs.cellPixelSize?.height && lhs.colors == rhs.colors
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
            inlinePlace = nil
            inlineArea = nil
            return []
        }
        let cell = terminal.cellPixelSize ?? (10, 20)
        // The large image once it is ready, the thumbnail until then.
        let image: PictureImage = state.photo?.largeSize(spot.photoID) != nil ? .large : .thumbnail
        // The part zoomed in on, at the terminal's own pixels.
        let crop = state.photo?.crop(box: PictureSize(columns: spot.area.width, rows: spot.area.height), cellPixels: cell) ?? .whole
        var request = InlineRequest(photoID: spot.photoID, area: spot.area, imageProtocol: imageProtocol,
                                    cellWidth: cell.width, cellHeight: cell.height, image: image, crop: crop)
        guard request.key != inlineKey else { return [] }
        inlineKey = request.key
        inlinePlace = request.place
        inlineArea = spot.area
        if inlinePicture?.key == request.key { return [] }
        // Each picture sent gets an id of its own, so the one it replaces can be deleted by id.
        imageSlot += 1
        guard let id = Self.imageID(slot: imageSlot, protocol: imageProtocol, colors: terminal.colors) else {
            inlineFailedKey = request.key  // no id to show it by: the cells
            return []
        }
        request.imageID = id
        request.placeholderColor = PlaceholderID.color(slot: imageSlot)
        return [.encodeInline(request)]
    }

    /// The kitty image id of picture number `slot`: the id its placeholder colour carries inside
    /// tmux (nil where the colours cannot carry one), else one of vtourist's own range.
    static func imageID(slot: Int, protocol imageProtocol: InlineProtocol, colors: TerminalCapabilities.ColorDepth) -> UInt32? {
        if imageProtocol == .kittyUnicode { return PlaceholderID.imageID(PlaceholderID.color(slot: slot), depth: colors) }
        return kittyIDBase | UInt32(truncatingIfNeeded: slot & 0xFFFF)
    }

    /// The high bits of vtourist's kitty image ids ("VT"), apart from small ids other programs pick.
    static let kittyIDBase: UInt32 = 0x5654_0000

    /// Where the photo's first real picture in its place is on its way: the area to keep blank
    /// meanwhile rather than write its cell picture for nothing (cells again if it cannot be made).
    var inlineAwaited: Rect? {
        guard inlineKey != nil, shownInline == nil, inlineFailedKey != inlineKey else { return nil }
        return inlineArea
    }

    /// The inline picture to show over the frame: the one the screen wants, once encoded; until
    /// then the one before it of the same photo in the same place (the thumbnail until the large
    /// image is encoded, the last part zoomed in on), so that it never gives way to cells between.
    var shownInline: InlinePicture? {
        guard let inlinePicture, inlineKey != nil else { return nil }
        return inlinePicture.key == inlineKey || inlinePicturePlace == inlinePlace ? inlinePicture : nil
    }
}
