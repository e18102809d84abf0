import AlbumMachine
import Terminal
import TouristCore
import Geo
import Model
import WorldMap

/// States the screen tests start from.
enum Sample {
    static let naples = GeoPoint(latitude: 40.85, longitude: 14.27)

    /// The map with the cursor on a pin and a second pin to Tab to.
    static func mapState() -> AppState {
        let p = Mercator.project(naples)
        var s = AppState(camera: MapCamera(centerX: p.x, centerY: p.y, zoom: 10, cursorX: p.x, cursorY: p.y),
                         width: 80, height: 24)
        s.pins = [Pin(id: 1, coordinate: naples, name: "Naples"),
                  Pin(id: 2, coordinate: GeoPoint(latitude: 41.89, longitude: 12.51), name: "Rome")]
        return s
    }

    /// The size the source gives for every sample photo's image.
    static let imageSize = (width: 2048, height: 1536)

    static func photo(_ id: Int64, _ state: PhotoState = .stored, title: String? = nil) -> PhotoRecord {
        PhotoRecord(id: id, pinID: 1, position: Int(id),
                    found: NewPhoto(source: "flickr", sourceID: "s\(id)", title: title ?? "Photo \(id)",
                                    url: "http://127.0.0.1/\(id).jpg", pageURL: "https://example.org/photos/\(id)",
                                    width: Sample.imageSize.width, height: Sample.imageSize.height),
                    state: state, byteCount: state == .stored ? 5000 : 0)
    }

    /// The album with ten photos (one failed), the selection in the middle and one photo marked.
    static func albumState() -> AppState {
        var s = Sample.mapState()
        var album = AlbumScreen(pinID: 1)
        album.apply(AlbumSnapshot(pinID: 1, photos: (1...10).map { Sample.photo($0, $0 == 7 ? .failed(reason: "HTTP 404") : .stored) },
                                  status: .ready, source: "flickr"))
        album.selected = 4
        album.marked = [2]
        s.screen = .album(album)
        return s
    }

    /// The album's selected photo (the fifth, stored) on the photo screen.
    static func photoState() -> AppState {
        var s = albumState()
        guard let album = s.album else { return s }
        s.screen = .photo(PhotoScreen(album: album, photoID: 5))
        return s
    }
}
