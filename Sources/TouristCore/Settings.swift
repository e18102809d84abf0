/// Names of the settings kept in the store (SPEC 2.3).
public enum SettingKey: String, CaseIterable, Sendable {
    case confirmDelete = "confirm_delete"
    case allowDrag = "allow_drag"
    case source = "source"
    case flickrAPIKey = "flickr_api_key"
    case areaHalfWidth = "area_half_width"
    case photosPerCollection = "photos_per_collection"
}

extension MapSettings {
    /// Reads the map's settings from stored text values; anything missing or
    /// unreadable keeps its default.
    public init(stored: (SettingKey) -> String?) {
        self.init()
        if let v = stored(.confirmDelete).flatMap(MapSettings.flag) { confirmDelete = v }
        if let v = stored(.allowDrag).flatMap(MapSettings.flag) { allowDrag = v }
    }

    static func flag(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "1", "true", "on", "yes": return true
        case "0", "false", "off", "no": return false
        default: return nil
        }
    }
}
