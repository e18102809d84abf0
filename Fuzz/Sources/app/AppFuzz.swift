import Foundation
import FuzzSupport
import Gazetteer
import Model
import Terminal
import TouristCore
import Geo
import WorldMap

/// The app fed any sequence of events and store answers decoded from the bytes (keys, mouse
/// reports, pasted text, resizes down to nothing, pins and albums appearing and vanishing), each
/// step reduced and drawn: neither the reducer nor the view may trap, and every frame is the
/// terminal's size with nothing in it that moves the cursor.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzApp(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(data, size)
    var session = AppSession(&input)
    var steps = 0
    while !input.isAtEnd, steps < AppSession.maxSteps {
        session.step(&input)
        steps += 1
    }
    session.draw(withMap: true)
    return 0
}

/// One run of the app: its state, a store the effects write to, and the pictures drawn so far.
struct AppSession {
    static let maxSteps = 64
    /// The bundled places and map, read once for all runs.
    static let reducer = AppReducer(places: places)
    static let places: PlaceLookup = (try? Gazetteer.bundled()).map(PlaceLookup.live) ?? .none
    static let geometry: WorldGeometry? = try? WorldGeometry.bundled()

    static func prepare() {
        _ = reducer
        _ = geometry
    }

    var state: AppState
    var time = 0.0
    var nextPinID: Pin.ID = 1
    var pictures = PictureShelf()
    /// The frame on the terminal: the next one is written as its changes from this one.
    var shown: CellBuffer?

    init(_ input: inout FuzzBytes) {
        let colors: [TerminalCapabilities.ColorDepth] = [.indexed256, .trueColor, .eight, .none]
        let capabilities = TerminalCapabilities(unicode: !input.bool(), colors: colors[input.int(in: 0...3)])
        let width = input.int(in: 0...160), height = input.int(in: 0...60)
        state = AppState(camera: MapCamera.world(width: max(width, 1), height: max(height - 1, 1)),
                         width: width, height: height, capabilities: capabilities)
        state.pins = pins(&input, upTo: 4)
    }

    mutating func step(_ input: inout FuzzBytes) {
        let action: AppAction
        switch input.int(in: 0...31) {
        case 0...15: action = .event(.key(AppSession.key(&input)), time: time)
        case 16...17:
            // Pasted text: the terminal delivers it as characters, fast.
            for scalar in input.text(maxLength: 40).unicodeScalars {
                apply(.event(.key(.char(Character(scalar))), time: time))
            }
            return
        case 18...21: action = .event(.mouse(mouse(&input)), time: time)
        case 22:
            // Mostly usable sizes, now and then tiny or none at all.
            let tiny = input.bool()
            action = .event(.resize(width: tiny ? input.int(in: 0...12) : input.int(in: 0...180),
                                    height: tiny ? input.int(in: 0...4) : input.int(in: 0...60)), time: time)
        case 23: time += Double(input.int(in: 0...2000)) / 1000; return
        case 24: action = .tick
        case 25: action = .pinsLoaded(pins(&input, upTo: 5))
        case 26: action = input.bool() ? .pinSaved(pin(&input)) : .pinRemoved(Pin.ID(input.int(in: 0...6)))
        case 27: action = .albumLoaded(snapshot(&input, pin: Pin.ID(input.int(in: 0...6))))
        case 28: action = .storeFailed(input.text(maxLength: 80), pin: input.bool() ? Pin.ID(input.int(in: 0...6)) : nil)
        case 29: action = .albumNotice(Pin.ID(input.int(in: 0...6)), input.text(maxLength: 80))
        case 30: action = input.bool() ? .message(StatusMessage(input.text(maxLength: 120), kind: input.bool() ? .info : .error))
                                       : .settingsLoaded(Settings())
        default:
            draw(withMap: input.bool())
            return
        }
        apply(action, &input)
    }

    mutating func apply(_ action: AppAction, _ input: inout FuzzBytes) {
        let effects = AppSession.reducer.reduce(&state, action)
        answer(effects, &input)
        draw(withMap: false)
    }

    mutating func apply(_ action: AppAction) {
        var none = FuzzBytes([])
        apply(action, &none)
    }

    /// What the runtime and the store would send back for the effects.
    mutating func answer(_ effects: [AppEffect], _ input: inout FuzzBytes) {
        for effect in effects {
            switch effect {
            case let .insertPin(point, name):
                checkOnGlobe(point)
                let pin = Pin(id: nextPinID, coordinate: point, name: name)
                nextPinID += 1
                _ = AppSession.reducer.reduce(&state, .pinSaved(pin))
            case let .movePin(id, point, name):
                checkOnGlobe(point)
                _ = AppSession.reducer.reduce(&state, .pinSaved(Pin(id: id, coordinate: point, name: name)))
            case let .deletePin(id):
                _ = AppSession.reducer.reduce(&state, .pinRemoved(id))
            case let .renamePin(id, name):
                // What the store would take: the rule's own answer, never a name it would change.
                if let name { FuzzCheck.that((try? PinName.checked(name)) == name, "renaming to \(name.debugDescription)") }
                if var pin = state.pin(id) {
                    pin.ownName = name
                    _ = AppSession.reducer.reduce(&state, .pinSaved(pin))
                }
            case let .openAlbum(id):
                _ = AppSession.reducer.reduce(&state, .albumLoaded(snapshot(&input, pin: id)))
            case let .openPage(url):
                let lower = url.lowercased()
                FuzzCheck.that(lower.hasPrefix("https://") || lower.hasPrefix("http://"), "opening \(url.debugDescription)")
            case let .saveMapView(view):
                checkOnGlobe(view.center)
                checkOnGlobe(view.cursor)
            case .album, .savePhoto, .saveAlbum, .saveSetting, .testFlickrKey, .quit:
                break
            }
        }
    }

    func checkOnGlobe(_ p: GeoPoint) {
        FuzzCheck.that(p.latitude.isFinite && p.longitude.isFinite && abs(p.latitude) <= 90 && abs(p.longitude) <= 180,
                       "a point off the globe: \(p)")
    }

    /// A frame, as the runtime draws it: the map when asked for (it costs), the pictures wanted.
    mutating func draw(withMap: Bool) {
        for key in state.wantedPictures where pictures[key] == nil {
            pictures[key] = key.photoID % 3 == 0
                ? .failed("not a JPEG (a web page)")
                : .cells(CellBuffer(width: key.size.columns, height: key.size.rows, fill: Cell("▚")))
        }
        var raster: MapRaster?
        var labels: LabelCandidates?
        if withMap, state.map != nil, !state.isTooSmall {
            (raster, labels) = AppSession.map(for: state.viewport)
        }
        let frame = AppView.render(state, raster: raster, labels: labels, pictures: pictures)
        FuzzCheck.that(frame.width == state.width && frame.height == state.height,
                       "a \(frame.width)x\(frame.height) frame for a \(state.width)x\(state.height) terminal")
        FuzzCheck.cellsShowable(frame, "the frame")
        checkChanges(to: frame)
        if let spot = state.inlinePictureSpot {
            let a = spot.area
            FuzzCheck.that(a.x >= 0 && a.y >= 0 && a.x + a.width <= state.width && a.y + a.height <= state.height,
                           "a picture at \(a) on a \(state.width)x\(state.height) screen")
        }
        _ = state.isAnimating
    }

    /// The terminal writes only what changed: the runs over the frame shown must give the new one.
    mutating func checkChanges(to frame: CellBuffer) {
        let runs = frame.changes(from: shown)
        var screen = shown.flatMap { $0.width == frame.width && $0.height == frame.height ? $0 : nil }
            ?? CellBuffer(width: frame.width, height: frame.height, fill: Cell("?"))
        for run in runs {
            FuzzCheck.that(run.y >= 0 && run.y < frame.height && run.x >= 0 && run.x + run.symbols.count <= frame.width,
                           "a run at \(run.x),\(run.y) of \(run.symbols.count) on \(frame.width)x\(frame.height)")
            // Each character as the terminal gets it: with its marks (a combining accent on its
            // cell), a wide one over its continuation.
            for (i, symbol) in run.symbols.enumerated() where symbol != Cell.continuation {
                var text = String.UnicodeScalarView([symbol])
                text.append(contentsOf: run.marks[i] ?? [])
                _ = screen.put(String(text), x: run.x + i, y: run.y, style: run.style, maxWidth: run.isWide(i) ? 2 : 1)
            }
        }
        FuzzCheck.that(screen == frame, "the changes do not give the frame")
        shown = frame
    }

    /// Maps drawn so far, by view, as the runtime keeps the last one: most runs revisit a few views.
    nonisolated(unsafe) static var maps: [Viewport: (MapRaster, LabelCandidates)] = [:]

    static func map(for viewport: Viewport) -> (MapRaster?, LabelCandidates?) {
        if let known = maps[viewport] { return known }
        guard let geometry else { return (nil, nil) }
        if maps.count >= 32 { maps.removeAll() }
        let drawn = (rasterize(geometry, viewport: viewport), places.labels(viewport))
        maps[viewport] = drawn
        return drawn
    }

    // MARK: - Values from bytes

    static let keys: [Key] = [
        .up, .down, .left, .right, .shiftUp, .shiftDown, .shiftLeft, .shiftRight,
        .enter, .escape, .backspace, .delete, .tab, .backTab, .home, .end, .pageUp, .pageDown,
    ]
    /// The characters the screens bind, and a few that mean something at the go-to prompt.
    static let characters = Array("qQ?hjklHJKLgGnNxXyYaArRdDmMoOpPsSt/ +-=,.;:'\"°0123456789éЖ字\u{301}")

    static func key(_ input: inout FuzzBytes) -> Key {
        switch input.int(in: 0...9) {
        case 0...3: return keys[input.int(in: 0...(keys.count - 1))]
        case 4...7: return .char(characters[input.int(in: 0...(characters.count - 1))])
        case 8: return input.bool() ? .function(input.int(in: 0...13)) : .control(Character(Unicode.Scalar(UInt8(0x61 + input.int(in: 0...25)))))
        default:
            // Any scalar at all, as `get_wch` may return it.
            let value = UInt32(input.byte()) << 16 | UInt32(input.byte()) << 8 | UInt32(input.byte())
            return .char(Character(Unicode.Scalar(value % 0x11_0000) ?? "?"))
        }
    }

    func mouse(_ input: inout FuzzBytes) -> MouseEvent {
        let kinds: [MouseEvent.Kind] = [.press, .release, .click, .wheelUp, .wheelDown, .drag]
        return MouseEvent(kinds[input.int(in: 0...5)], x: input.int(in: -2...(state.width + 2)),
                          y: input.int(in: -2...(state.height + 2)))
    }

    mutating func pin(_ input: inout FuzzBytes) -> Pin {
        let id = Pin.ID(input.int(in: 1...6))
        nextPinID = max(nextPinID, id + 1)
        let statuses: [AlbumStatus] = [.empty, .downloading, .ready, .failed(reason: "HTTP 500")]
        return Pin(id: id, coordinate: AppSession.point(&input), name: input.bool() ? input.text(maxLength: 60) : nil,
                   albumStatus: statuses[input.int(in: 0...3)], photoCount: input.int(in: 0...60),
                   downloadedCount: input.int(in: 0...60))
    }

    /// Pins as the store lists them: each id once.
    mutating func pins(_ input: inout FuzzBytes, upTo count: Int) -> [Pin] {
        var seen: Set<Pin.ID> = []
        return (0..<input.int(in: 0...count)).map { _ in pin(&input) }.filter { seen.insert($0.id).inserted }
    }

    /// A point on the globe, its edges included.
    static func point(_ input: inout FuzzBytes) -> GeoPoint {
        if input.bool() {
            let edges = [-90.0, -85.06, 0, 85.06, 90]
            return GeoPoint(latitude: edges[input.int(in: 0...4)], longitude: [-180.0, 0, 180][input.int(in: 0...2)])
        }
        return GeoPoint(latitude: Double(input.int(in: 0...18_000)) / 100 - 90,
                        longitude: Double(input.int(in: 0...36_000)) / 100 - 180)
    }

    func snapshot(_ input: inout FuzzBytes, pin: Pin.ID) -> AlbumSnapshot {
        let count = input.int(in: 0...70)
        var photos: [PhotoRecord] = []
        var position = 0
        for n in 0..<count {
            let states: [PhotoState] = [.pending, .stored, .stored, .failed(reason: "HTTP 404")]
            let state = states[input.int(in: 0...3)]
            position += input.int(in: 1...3)
            let title = input.bool() ? input.text(maxLength: 50) : "Photo \(n)"
            photos.append(PhotoRecord(
                id: PhotoRecord.ID(n + 1 + input.int(in: 0...1) * 100), pinID: pin, position: position,
                found: NewPhoto(source: input.bool() ? "flickr" : "commons", sourceID: "s\(n)", title: title,
                                author: input.bool() ? input.text(maxLength: 30) : nil,
                                url: "https://example.org/\(n).jpg",
                                pageURL: input.bool() ? "https://example.org/photos/\(n)" : nil,
                                license: input.bool() ? "CC BY-SA 4.0" : nil),
                state: state, byteCount: state == .stored ? 5000 : 0))
        }
        let statuses: [AlbumStatus] = [.downloading, .ready, .empty, .failed(reason: input.text(maxLength: 60))]
        return AlbumSnapshot(pinID: pin, photos: photos, status: statuses[input.int(in: 0...3)],
                             source: input.bool() ? "flickr" : nil)
    }
}
