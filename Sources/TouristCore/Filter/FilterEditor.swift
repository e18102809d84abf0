import AlbumMachine
import Model

/// The filter editor's own state: the fields as typed, the sort, the row that has the focus, the
/// field being typed into, the last refusal and the question before photos are replaced.
public struct FilterEditor: Equatable, Sendable {
    /// The editor's rows, top to bottom.
    public enum Row: Int, CaseIterable, Sendable {
        case text, tags, taken, sort

        /// The row of a field of the filter (where a refusal points).
        init(_ field: AlbumFilter.Field) {
            switch field {
            case .text: self = .text
            case .tags: self = .tags
            case .taken: self = .taken
            case .sort: self = .sort
            }
        }
    }

    /// The longest text a field takes; longer text is refused by the filter's own checks, which say
    /// why (the field cuts only what no check could ever take).
    public static let maxFieldLength = 4 * AlbumFilter.maxTextLength

    public var text: String
    public var tags: String
    public var taken: String
    public var sort: AlbumSort
    public var focused: Row = .text
    /// The focused row's text being typed; nil when not editing.
    public var editing: TextField?
    /// Why the last save was refused, naming the field.
    public var problem: FilterProblem?
    /// The checked filter waiting for yes or no before the album's photos are replaced.
    public var confirming: AlbumFilter?

    /// The editor over an album's filter as stored.
    public init(_ filter: AlbumFilter) {
        text = filter.text ?? ""
        tags = filter.tagList
        taken = filter.taken.description
        sort = filter.sort
    }

    /// A row's text as typed (the sort's name for the sort row).
    public func value(_ row: Row) -> String {
        switch row {
        case .text: text
        case .tags: tags
        case .taken: taken
        case .sort: sort.rawValue
        }
    }

    mutating func set(_ row: Row, _ value: String) {
        switch row {
        case .text: text = value
        case .tags: tags = value
        case .taken: taken = value
        case .sort: break
        }
    }

    /// The filter the fields make, checked (`AlbumFilter.make`), or the first field refused.
    public func filter(today: CalendarDay) -> Result<AlbumFilter, FilterProblem> {
        do {
            return .success(try AlbumFilter.make(text: text, tags: tags.isBlank ? nil : tags, taken: taken,
                                                 sort: sort.rawValue, today: today))
        } catch {
            return .failure(error)
        }
    }

    /// What the fields ask for as far as they read, unchecked: the source's notes follow the typing
    /// even before the filter is valid.
    public var sketch: AlbumFilter {
        AlbumFilter(text: text.isBlank ? nil : text,
                    tags: (try? AlbumFilter.parseTags(tags)) ?? [],
                    taken: (try? TakenRange.parse(taken)) ?? .open,
                    sort: sort)
    }
}

extension String {
    var isBlank: Bool { allSatisfy(\.isWhitespace) }
}

extension AlbumSnapshot {
    /// Why `f` and `F` do nothing now: the same rule as New Collection (`isNewCollectionEnabled`).
    /// Nil when the filter may change.
    var filterRefusal: String? {
        isNewCollectionEnabled ? nil : Album.filterRefusal
    }
}
