import Foundation
import Gazetteer
import Geo
import Model
import WorldMap

/// How the pins list is ordered; Tab steps through them in this order.
public enum PinsSort: String, CaseIterable, Sendable {
    /// Newest first.
    case dropped
    /// By the name shown, A to Z (accents and case folded).
    case name
    /// Most photos first.
    case photos
    /// Nearest the map's centre first.
    case distance

    public var next: PinsSort {
        let all = PinsSort.allCases
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }

    /// The header's words for it.
    public var label: String {
        switch self {
        case .dropped: "newest first"
        case .name: "by name"
        case .photos: "most photos first"
        case .distance: "nearest the map's centre first"
        }
    }
}

/// The pins folded for searching and put in one order, worked out once for a pins array, an order and
/// (for distance) a centre: a keystroke only scans the folded names. Immutable, so shared freely; two are
/// equal when made from the same pins, order and centre.
public final class PinsIndex: Equatable, Sendable {
    public let pins: [Pin]
    public let sort: PinsSort
    public let centre: GeoPoint
    /// Each pin's searchable text, folded (`SearchFolder`): the name shown and the nearest place, by index in `pins`.
    let keys: [[UInt8]]
    /// Indices into `pins`, in `sort`'s order.
    public let order: [Int]

    public init(pins: [Pin], sort: PinsSort, centre: GeoPoint) {
        self.pins = pins
        self.sort = sort
        self.centre = centre
        var folder = SearchFolder()
        var keys: [[UInt8]] = []
        keys.reserveCapacity(pins.count)
        for pin in pins { keys.append(PinsIndex.searchKey(pin, folder: &folder)) }
        self.keys = keys
        order = PinsIndex.ordered(pins, keys: keys, sort: sort, centre: centre)
    }

    /// What a pin is found by: the name shown and the nearest place's name, folded, with a
    /// separator no query can hold (a match never spans the two).
    static func searchKey(_ pin: Pin, folder: inout SearchFolder) -> [UInt8] {
        var key = folder.foldBytes(pin.displayName)
        if let place = pin.name, place != pin.displayName {
            key.append(0)
            key += folder.foldBytes(place)
        }
        return key
    }

    static func ordered(_ pins: [Pin], keys: [[UInt8]], sort: PinsSort, centre: GeoPoint) -> [Int] {
        var order = Array(pins.indices)
        switch sort {
        case .dropped:
            // Newest first; the same moment by id, newest first too.
            order.sort { (pins[$0].createdAt, pins[$0].id) > (pins[$1].createdAt, pins[$1].id) }
        case .name:
            order.sort { keys[$0].lexicographicallyPrecedes(keys[$1]) || (keys[$0] == keys[$1] && pins[$0].id < pins[$1].id) }
        case .photos:
            order.sort { (pins[$0].photoCount, pins[$1].id) > (pins[$1].photoCount, pins[$0].id) }
        case .distance:
            let km = pins.map { distanceKm($0.coordinate, centre) }
            order.sort { (km[$0], pins[$0].id) < (km[$1], pins[$1].id) }
        }
        return order
    }

    /// The indices into `pins`, in order, whose key holds `query` (folded); all of them for an empty query.
    public func matching(_ query: [UInt8]) -> [Int] {
        guard !query.isEmpty else { return order }
        return order.filter { PinsIndex.contains(keys[$0], query) }
    }

    /// Whether `needle` occurs in `haystack` (bytes of folded text).
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        let n = needle.count, h = haystack.count
        guard n <= h else { return false }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { nee in
                let first = nee[0]
                var i = 0
                while i <= h - n {
                    if hay[i] == first {
                        var j = 1
                        while j < n, hay[i + j] == nee[j] { j += 1 }
                        if j == n { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }

    public static func == (lhs: PinsIndex, rhs: PinsIndex) -> Bool {
        lhs === rhs || (lhs.sort == rhs.sort && lhs.centre == rhs.centre && lhs.pins == rhs.pins)
    }

    /// Whether this index serves these pins in this order from this centre (the centre counts only for distance).
    func serves(_ pins: [Pin], sort: PinsSort, centre: GeoPoint) -> Bool {
        self.sort == sort && (sort != .distance || self.centre == centre) && self.pins == pins
    }
}

/// A question the list is asking or a prompt it shows over its rows.
public enum PinsListMode: Equatable, Sendable {
    case browsing
    /// Delete this pin? (the confirm-delete setting)
    case confirmDelete(Pin.ID)
    /// A pin's name being typed.
    case rename(RenamePrompt)
}

/// A click on a row: which pin, and when (for a double click).
public struct PinsClick: Equatable, Sendable {
    public var pinID: Pin.ID
    public var time: Double
}

/// The pins list's own state: the filter, the order, the selection and its scroll, and the rows they make
/// from the pins (worked out in the reducer, read by the view).
public struct PinsList: Equatable, Sendable {
    /// The longest filter typed.
    public static let maxFilterLength = 100

    public var filter = TextField(maxLength: PinsList.maxFilterLength)
    /// Whether the filter field has the keyboard.
    public var typing = false
    public var sort: PinsSort = .dropped
    /// The selected pin, by identity: a reload that moves it keeps it selected.
    public var selectedID: Pin.ID?
    /// The row the selection was last seen on: where it goes when its pin is deleted (to the neighbour
    /// that takes its place).
    public var selectedRow = 0
    /// The first row shown.
    public var topRow = 0
    public var mode: PinsListMode = .browsing
    public var lastClick: PinsClick?
    /// The pins folded and ordered (rebuilt when the pins, the order or the centre change).
    public private(set) var index: PinsIndex
    /// The filter's text the rows were made with (folded only when it changes).
    public private(set) var queryText = ""
    /// The rows shown: indices into `index.pins`, in order.
    public private(set) var rows: [Int]

    /// The list over these pins, newest first, the first selected.
    public init(pins: [Pin], centre: GeoPoint, sort: PinsSort = .dropped) {
        self.sort = sort
        index = PinsIndex(pins: pins, sort: sort, centre: centre)
        rows = index.order
        selectedID = rows.first.map { index.pins[$0].id }
    }

    /// The filter as folded for matching: the same rule as the pins' names (`SearchFolder`).
    public static func folded(_ text: String) -> [UInt8] {
        var folder = SearchFolder()
        return folder.foldBytes(text)
    }

    /// The pins shown, in order.
    public var shown: LazyMapSequence<[Int], Pin> {
        let pins = index.pins
        return rows.lazy.map { pins[$0] }
    }

    public var count: Int { rows.count }

    public func pin(atRow row: Int) -> Pin? {
        rows.indices.contains(row) ? index.pins[rows[row]] : nil
    }

    /// Where the selection is: its pin's row, else (its pin gone) the row it was on, kept within the rows.
    public var selected: Int {
        if let id = selectedID, selectedRow < rows.count, index.pins[rows[selectedRow]].id == id { return selectedRow }
        if let id = selectedID, let row = rows.firstIndex(where: { index.pins[$0].id == id }) { return row }
        return max(0, min(selectedRow, rows.count - 1))
    }

    public var selectedPin: Pin? { pin(atRow: selected) }

    /// Selects a row (kept within the rows).
    public mutating func select(row: Int) {
        let row = max(0, min(row, rows.count - 1))
        selectedRow = max(0, row)
        selectedID = pin(atRow: row)?.id
    }

    /// Brings the rows up to date with the pins, the order and the filter: the index is rebuilt only
    /// when the pins, the order or (for distance) the centre changed; the selection stays on its pin, or
    /// goes to the neighbour that took its row.
    public mutating func refresh(pins: [Pin], centre: GeoPoint) {
        let row = selected
        let rebuilt = !index.serves(pins, sort: sort, centre: centre)
        if rebuilt { index = PinsIndex(pins: pins, sort: sort, centre: centre) }
        guard rebuilt || filter.text != queryText else { return }
        queryText = filter.text
        rows = index.matching(PinsList.folded(queryText))
        if let id = selectedID, let at = rows.firstIndex(where: { index.pins[$0].id == id }) {
            select(row: at)
        } else {
            select(row: row)
        }
    }

    /// A new filter: the rows narrowed, the first match selected (as fzf does).
    mutating func filterChanged(pins: [Pin], centre: GeoPoint) {
        refresh(pins: pins, centre: centre)
        select(row: 0)
        topRow = 0
    }

    /// Keeps the selected row inside the `visible` rows shown, scrolling as little as it can.
    public mutating func keepSelectionVisible(rows visible: Int) {
        let visible = max(1, visible)
        let row = selected
        if row < topRow { topRow = row }
        if row >= topRow + visible { topRow = row - visible + 1 }
        topRow = max(0, min(topRow, max(0, rows.count - visible)))
    }
}

extension AppState {
    /// The map's centre: what the list's distance order measures from.
    var mapCentre: GeoPoint { Mercator.unproject(x: camera.centerX, y: camera.centerY) }
}
