import Model

/// A change the user made, as the message line speaks of it: on its way from the key on, done only
/// once the store's answer says it is committed (what the screen says is done is stored). The one
/// place for each text.
public enum Acknowledgment: Equatable, Sendable {
    /// A pin dropped at a place (its name, or its coordinates when it has none).
    case pinDropped(String)
    /// A pin moved, by its name as stored.
    case pinMoved(String)
    case pinDeleted(String)
    case pinRenamed(from: String, to: String)
    /// A pin's own name removed: it goes by this place name again.
    case pinNamedByPlace(String)
    /// Photos deleted, by their titles.
    case photosDeleted([String])
    /// A setting changed: its label, and what the message says once it is stored (`AppState.savedMessage`).
    case settingSaved(label: String, done: String)
    /// An album's filter saved (`.none`: cleared); its new collection follows.
    case filterSaved(AlbumFilter)

    /// What the message line says from the key until the store's answer.
    public var onItsWay: String {
        switch self {
        case let .pinDropped(name): return "Dropping a pin at \(name)\u{2026}"
        case let .pinMoved(name): return "Moving \u{201C}\(name)\u{201D}\u{2026}"
        case let .pinDeleted(name): return "Deleting pin \u{201C}\(name)\u{201D}\u{2026}"
        case let .pinRenamed(from, to): return "Renaming \u{201C}\(from)\u{201D} to \u{201C}\(to)\u{201D}\u{2026}"
        case let .pinNamedByPlace(name): return "Giving the pin its place's name, \u{201C}\(name)\u{201D}\u{2026}"
        case let .photosDeleted(titles):
            guard titles.count == 1, let title = titles.first else { return "Deleting \(titles.count) photos\u{2026}" }
            return "Deleting \u{201C}\(title)\u{201D}\u{2026}"
        case let .settingSaved(label, _): return "Saving \(label)\u{2026}"
        case let .filterSaved(filter):
            return filter.isEmpty ? "Clearing the filter\u{2026}" : "Saving the filter \u{201C}\(filter.summary)\u{201D}\u{2026}"
        }
    }

    /// What the message line says once the store has committed it.
    public var done: String {
        switch self {
        case let .pinDropped(name): return "Pin dropped at \(name)."
        case let .pinMoved(name): return "Moved; a new album is on its way for \u{201C}\(name)\u{201D}."
        case let .pinDeleted(name): return "Deleted pin \u{201C}\(name)\u{201D}."
        case let .pinRenamed(from, to): return "Renamed \u{201C}\(from)\u{201D} to \u{201C}\(to)\u{201D}."
        case let .pinNamedByPlace(name): return "\u{201C}\(name)\u{201D} goes by its place's name again."
        case let .photosDeleted(titles):
            guard titles.count == 1, let title = titles.first else { return "Deleted \(titles.count) photos." }
            return "Deleted \u{201C}\(title)\u{201D}."
        case let .settingSaved(_, done): return done
        case let .filterSaved(filter):
            return filter.isEmpty ? "Filter cleared: fetching a new collection\u{2026}"
                : "Fetching a new collection for \u{201C}\(filter.summary)\u{201D}\u{2026}"
        }
    }
}

/// A pin renamed here whose rename the store has not answered yet.
public struct PendingRename: Equatable, Sendable {
    public var pin: Pin.ID
    public var ownName: String?
    public var ack: Acknowledgment
}

/// A setting changed here whose write the store has not answered yet.
public struct PendingSetting: Equatable, Sendable {
    public var key: SettingKey
    public var ack: Acknowledgment
}

/// Photos deleted here whose deletion the store has not answered yet.
public struct PendingPhotoDeletion: Equatable, Sendable {
    public var ids: [PhotoRecord.ID]
    public var ack: Acknowledgment
}
