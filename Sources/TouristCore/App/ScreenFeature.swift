import Model
import Terminal

/// One screen as a feature: everything the router, the view, the picture loader and the help
/// overlay need from it. The router looks the shown screen's feature up (`Screen.feature`) instead
/// of switching over the screens; a new screen is a value of this protocol.
public protocol ScreenFeature: Equatable, Sendable {
    /// The help overlay's rows for the screen, written from its key table.
    func helpRows(_ state: AppState, unicode: Bool) -> [HelpRow]
    /// A key while the screen has the keyboard (no overlay shown).
    func key(_ key: Key, _ state: inout AppState) -> [AppEffect]
    /// A mouse report on the screen.
    func mouse(_ mouse: MouseEvent, time: Double, _ state: inout AppState) -> [AppEffect]
    /// Pasted text; ignored unless the screen has a text field being typed into.
    func paste(_ text: String, _ state: inout AppState)
    /// Draws the screen into the layout's areas.
    func render(_ state: AppState, pictures: PictureShelf, theme: Theme, layout: ScreenLayout, into buffer: inout CellBuffer)
    /// The photos the screen shows now, most wanted first.
    func wantedPictures(_ state: AppState) -> [PictureKey]
    /// Whether something on the screen moves while it waits.
    func isAnimating(_ state: AppState) -> Bool
}

extension ScreenFeature {
    public func mouse(_ mouse: MouseEvent, time: Double, _ state: inout AppState) -> [AppEffect] { [] }
    public func paste(_ text: String, _ state: inout AppState) {}
    public func wantedPictures(_ state: AppState) -> [PictureKey] { [] }
    public func isAnimating(_ state: AppState) -> Bool { false }

    /// Whether another feature is this same value (a screen's state kept in its feature).
    func isEqual(to other: any ScreenFeature) -> Bool { (other as? Self) == self }
}

/// A screen that keeps its state in its feature value: it needs no case of its own in `Screen`.
public struct PluggedScreen: Equatable, Sendable {
    public var feature: any ScreenFeature

    public init(_ feature: any ScreenFeature) {
        self.feature = feature
    }

    public static func == (lhs: PluggedScreen, rhs: PluggedScreen) -> Bool { lhs.feature.isEqual(to: rhs.feature) }

    /// Whether both are the same screen, whatever their state.
    func isSameScreen(as other: PluggedScreen) -> Bool { type(of: feature) == type(of: other.feature) }
}

/// Where a screen asks to go; the router builds the target screen, so no screen builds another's state.
public enum Destination: Equatable, Sendable {
    case map
    /// A pin's album, opened afresh (its photos come with `albumLoaded`).
    case album(of: Pin.ID)
    /// Back to an album already open, its selection scrolled into view.
    case backToAlbum(AlbumScreen)
    /// The album's selected photo, with the album kept underneath.
    case photo(of: AlbumScreen)
    case settings
    /// A screen that keeps its state in its feature.
    case plugged(PluggedScreen)
}

extension Screen {
    /// The registry: the feature that serves this screen, for the screens on the feature path.
    /// The map and the album are still routed by the router's own switches.
    var feature: (any ScreenFeature)? {
        switch self {
        case .photo: return PhotoFeature()
        case .settings: return SettingsFeature()
        case let .plugged(plugged): return plugged.feature
        case .map, .album: return nil
        }
    }
}

extension AppState {
    /// Goes where a screen asked: the one place that builds a screen for another.
    public mutating func go(to destination: Destination) {
        switch destination {
        case .map:
            screen = .map(MapScreen())
        case let .album(pinID):
            screen = .album(AlbumScreen(pinID: pinID))
        case let .backToAlbum(album):
            var album = album
            album.keepSelectionVisible(AlbumGrid(area: layout.main))
            screen = .album(album)
        case let .photo(album):
            guard let photo = album.selectedPhoto else {
                message = StatusMessage("No photo to open.")
                return
            }
            screen = .photo(PhotoScreen(album: album, photoID: photo.id))
        case .settings:
            screen = .settings(SettingsScreen())
        case let .plugged(plugged):
            screen = .plugged(plugged)
        }
    }
}

/// The photo screen as a feature.
struct PhotoFeature: ScreenFeature {
    func helpRows(_ state: AppState, unicode: Bool) -> [HelpRow] { PhotoKeys.table.helpRows(unicode: unicode) }
    func key(_ key: Key, _ state: inout AppState) -> [AppEffect] { PhotoReducer().key(key, &state) }
    func mouse(_ mouse: MouseEvent, time: Double, _ state: inout AppState) -> [AppEffect] { PhotoReducer().mouse(mouse, &state) }
    func render(_ state: AppState, pictures: PictureShelf, theme: Theme, layout: ScreenLayout, into buffer: inout CellBuffer) {
        guard let photo = state.photo else { return }
        PhotoView.render(photo, state: state, pictures: pictures, theme: theme, layout: layout, into: &buffer)
    }
    /// The photo shown, then the one after and the one before.
    func wantedPictures(_ state: AppState) -> [PictureKey] {
        guard let photo = state.photo, let index = photo.index else { return [] }
        let photos = photo.album.photos
        let size = PhotoView.pictureSize(state.layout)
        return [index, index + 1, index - 1].compactMap { i in
            guard photos.indices.contains(i), photos[i].state == .stored else { return nil }
            return PictureKey(photoID: photos[i].id, size: size)
        }
    }
}

/// The settings screen as a feature.
struct SettingsFeature: ScreenFeature {
    func helpRows(_ state: AppState, unicode: Bool) -> [HelpRow] { SettingsKeys.table.helpRows(unicode: unicode) }
    func key(_ key: Key, _ state: inout AppState) -> [AppEffect] { SettingsReducer().key(key, &state) }
    func paste(_ text: String, _ state: inout AppState) {
        guard case let .settings(screen) = state.screen, screen.editing != nil else { return }
        state.message = nil
        SettingsReducer().paste(text, &state)
    }
    func render(_ state: AppState, pictures: PictureShelf, theme: Theme, layout: ScreenLayout, into buffer: inout CellBuffer) {
        guard case let .settings(screen) = state.screen else { return }
        SettingsView.render(screen, state: state, theme: theme, layout: layout, into: &buffer)
    }
}
