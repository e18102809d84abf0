import Foundation
import TextSafety

/// What an album is narrowed to: free words, tags that must all be there, when the photos were
/// taken, and their order. The empty filter (`.none`) is the plain album: the most interesting
/// photos of the area. This type holds every limit, check and format of a filter; the store, the
/// photo sources, the screens, the command line and the pin files read them from here.
public struct AlbumFilter: Hashable, Sendable {
    /// Free words, trimmed; nil for none.
    public var text: String?
    /// Every one must be on a photo; [] for none.
    public var tags: [String]
    public var taken: TakenRange
    public var sort: AlbumSort

    public static let maxTextLength = 100
    public static let maxTags = 20
    public static let maxTagLength = 100

    public static let none = AlbumFilter()

    /// Unchecked: `make` and `validated` are the checked ways in.
    public init(text: String? = nil, tags: [String] = [], taken: TakenRange = .open, sort: AlbumSort = .interesting) {
        self.text = text
        self.tags = tags
        self.taken = taken
        self.sort = sort
    }

    /// Nothing narrows or orders the album otherwise than the plain album does.
    public var isEmpty: Bool { text == nil && tags.isEmpty && taken.isOpen && sort == .interesting }

    /// The fields of a filter, as messages and the editor name them.
    public enum Field: String, CaseIterable, Sendable {
        case text, tags, taken, sort
    }

    // MARK: Checking

    /// A filter from the words a person typed (the editor's fields, `drop`'s options): nil for a field
    /// left out (or empty, but for tags: `--tags ""` is refused as empty). `today` bounds the dates: a
    /// "to" past it is taken as today.
    public static func make(text: String?, tags: String?, taken: String?, sort: String?,
                            today: CalendarDay) throws(FilterProblem) -> AlbumFilter {
        let parsedSort: AlbumSort
        if let sort, !sort.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let known = AlbumSort(rawValue: sort.trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw FilterProblem(.sort, "unknown order \u{201C}\(shown(sort))\u{201D}: use "
                    + AlbumSort.allCases.map(\.rawValue).joined(separator: ", "))
            }
            parsedSort = known
        } else {
            parsedSort = .interesting
        }
        let filter = AlbumFilter(text: text.flatMap { $0.isEmpty ? nil : $0 },
                                 tags: try tags.map(parseTags) ?? [],
                                 taken: try taken.map { text throws(FilterProblem) in try TakenRange.parse(text) } ?? .open,
                                 sort: parsedSort)
        return try filter.validated(today: today)
    }

    /// The filter checked field by field, text trimmed and a "to" past `today` taken as today; the
    /// first problem is thrown. What every filter from outside (a file, a typed field) goes through.
    public func validated(today: CalendarDay) throws(FilterProblem) -> AlbumFilter {
        var checked = self
        if let text {
            if hasControls(text) {
                throw FilterProblem(.text, "control characters are not allowed")
            }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { throw FilterProblem(.text, "only spaces: type some words, or leave it empty") }
            // Code points, as the store's CHECK counts them: combining marks cannot stretch the limit.
            if trimmed.unicodeScalars.count > Self.maxTextLength {
                throw FilterProblem(.text, "\(trimmed.unicodeScalars.count) characters, at most \(Self.maxTextLength)")
            }
            checked.text = trimmed
        }
        checked.tags = try Self.checkTags(tags)
        checked.taken = try taken.validated(today: today)
        if sort == .relevant && checked.text == nil {
            throw FilterProblem(.sort, "relevant orders by the text: give some text, or choose interesting or recent")
        }
        return checked
    }

    /// `a, b ,c` as its tags; an empty item or list is refused.
    public static func parseTags(_ list: String) throws(FilterProblem) -> [String] {
        let items = list.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        if items.allSatisfy(\.isEmpty) { throw FilterProblem(.tags, "empty: give tags separated by commas") }
        return try checkTags(items)
    }

    static func checkTags(_ tags: [String]) throws(FilterProblem) -> [String] {
        var seen = Set<String>()
        var kept: [String] = []
        for raw in tags {
            if hasControls(raw) {
                throw FilterProblem(.tags, "control characters are not allowed")
            }
            let tag = raw.trimmingCharacters(in: .whitespaces)
            if tag.isEmpty { throw FilterProblem(.tags, "an empty tag (two commas in a row?)") }
            if tag.contains(",") { throw FilterProblem(.tags, "a tag cannot hold a comma") }
            if tag.count > maxTagLength { throw FilterProblem(.tags, "a tag of \(tag.count) characters, at most \(maxTagLength)") }
            if seen.insert(tag.lowercased()).inserted { kept.append(tag) }
        }
        if kept.count > maxTags { throw FilterProblem(.tags, "\(kept.count) tags, at most \(maxTags)") }
        return kept
    }

    // MARK: In words

    /// The tags as typed into a field or an option: `a,b`.
    public var tagList: String { tags.joined(separator: ",") }

    /// The header's words for the filter: `food · #market · 2019–2023 · recent`; "" when empty.
    /// The default order is not named.
    public var summary: String {
        var parts: [String] = []
        if let text { parts.append(text) }
        if !tags.isEmpty { parts.append(tags.map { "#" + $0 }.joined(separator: " ")) }
        if !taken.isOpen { parts.append(taken.summary) }
        if sort != .interesting { parts.append(sort.rawValue) }
        return parts.joined(separator: " \u{00B7} ")
    }

    /// What the album says when a filtered search finds nothing.
    public var noMatchMessage: String {
        "No photos match \u{201C}\(summary)\u{201D} here"
    }
}

/// The order of an album's photos.
public enum AlbumSort: String, CaseIterable, Codable, Sendable {
    /// The source's best first (Flickr's interestingness); the default.
    case interesting
    /// Date taken, newest first.
    case recent
    /// Best match for the text first; only with text.
    case relevant

    /// The next order, as Tab cycles it in the editor.
    public var next: AlbumSort {
        let all = AlbumSort.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// A field of the filter was refused: which, and why, in one line.
public struct FilterProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var field: AlbumFilter.Field
    public var reason: String

    public init(_ field: AlbumFilter.Field, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    /// `taken: 2023-02-30 is not a day of the calendar`.
    public var description: String { "\(field.rawValue): \(reason)" }
}

// MARK: - Dates

/// A day of the calendar, without a time or a zone.
public struct CalendarDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Today where the user is.
    public static func today(_ now: Date = Date(), calendar: Calendar = .current) -> CalendarDay {
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        return CalendarDay(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    public static func < (a: CalendarDay, b: CalendarDay) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    /// `2023-02-28`.
    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// Days in `month` of `year` (Gregorian).
    public static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The day a photo's date text starts with (`2019:07:04 12:00:00` as Exif writes it,
    /// `2019-07-04T12:00`, `2019-07-04`), or nil when it does not start with a whole day.
    public static func leading(_ text: String) -> CalendarDay? {
        let digits = text.unicodeScalars.prefix(10).map { $0 }
        guard digits.count == 10 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard digits[i].isASCII, let d = Int(String(digits[i])) else { return nil }
                value = value * 10 + d
            }
            return value
        }
        let separators: Set<Unicode.Scalar> = ["-", ":", "/", "."]
        guard separators.contains(digits[4]), digits[7] == digits[4],
              let y = number(0..<4), let m = number(5..<7), let d = number(8..<10),
              (1...12).contains(m), (1...days(inMonth: m, of: y)).contains(d) else { return nil }
        return CalendarDay(year: y, month: m, day: d)
    }
}

/// One side of a taken range as written: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
public struct FilterDate: Hashable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int?
    public let day: Int?

    /// The first photograph was taken in 1826 or 1827: nothing earlier can match.
    public static let earliestYear = 1826

    /// Parses `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, refusing days the calendar does not have.
    public static func parse(_ text: String, side: String) throws(FilterProblem) -> FilterDate {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let shown = shown(text)
        let shapes = "write YYYY, YYYY-MM or YYYY-MM-DD"
        guard (1...3).contains(parts.count), parts[0].count == 4, parts.dropFirst().allSatisfy({ $0.count == 2 }),
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
            throw FilterProblem(.taken, "\(side) \u{201C}\(shown)\u{201D} is not a date: \(shapes)")
        }
        let year = Int(parts[0])!
        let month = parts.count > 1 ? Int(parts[1])! : nil
        let day = parts.count > 2 ? Int(parts[2])! : nil
        if let month, !(1...12).contains(month) {
            throw FilterProblem(.taken, "\(side) \(shown) has no month \(parts[1])")
        }
        if let month, let day, !(1...CalendarDay.days(inMonth: month, of: year)).contains(day) {
            throw FilterProblem(.taken, "\(side) \(shown) is not a day of the calendar")
        }
        return FilterDate(year: year, month: month, day: day)
    }

    public init(year: Int, month: Int? = nil, day: Int? = nil) {
        self.year = year
        self.month = month
        self.day = month == nil ? nil : day
    }

    public init(_ day: CalendarDay) {
        self.init(year: day.year, month: day.month, day: day.day)
    }

    /// The first day it covers: 2023 starts 2023-01-01.
    public var firstDay: CalendarDay { CalendarDay(year: year, month: month ?? 1, day: day ?? 1) }

    /// The last day it covers: 2023 reaches 2023-12-31, 2024-02 reaches 2024-02-29.
    public var lastDay: CalendarDay {
        let m = month ?? 12
        return CalendarDay(year: year, month: m, day: day ?? CalendarDay.days(inMonth: m, of: year))
    }

    /// As written: `2023`, `2023-07`, `2023-07-04`.
    public var description: String {
        var text = String(format: "%04d", year)
        if let month { text += String(format: "-%02d", month) }
        if let day { text += String(format: "-%02d", day) }
        return text
    }
}

/// When the photos were taken, either side open.
public struct TakenRange: Hashable, Sendable, CustomStringConvertible {
    public var from: FilterDate?
    public var to: FilterDate?

    public static let open = TakenRange()

    public init(from: FilterDate? = nil, to: FilterDate? = nil) {
        self.from = from
        self.to = to
    }

    public var isOpen: Bool { from == nil && to == nil }

    /// `2019..2023`, `2019..`, `..2023`, or one date for that whole year, month or day; "" is open.
    public static func parse(_ text: String) throws(FilterProblem) -> TakenRange {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return .open }
        guard let dots = trimmed.range(of: "..") else {
            let date = try FilterDate.parse(trimmed, side: "date")
            return TakenRange(from: date, to: date)
        }
        let fromText = trimmed[..<dots.lowerBound].trimmingCharacters(in: .whitespaces)
        let toText = trimmed[dots.upperBound...].trimmingCharacters(in: .whitespaces)
        if fromText.isEmpty && toText.isEmpty { throw FilterProblem(.taken, "give a date on at least one side of ..") }
        return TakenRange(from: fromText.isEmpty ? nil : try FilterDate.parse(fromText, side: "from"),
                          to: toText.isEmpty ? nil : try FilterDate.parse(toText, side: "to"))
    }

    /// Checked against the calendar's limits: a "from" after today or a side before 1826 is refused,
    /// as is a range that ends before it starts; a "to" wholly after today is taken as today.
    public func validated(today: CalendarDay) throws(FilterProblem) -> TakenRange {
        var checked = self
        for (side, date) in [("from", from), ("to", to)] {
            guard let date else { continue }
            if date.lastDay.year < FilterDate.earliestYear {
                throw FilterProblem(.taken, "\(side) \(date) is before \(FilterDate.earliestYear), the first photograph")
            }
        }
        if let from, from.firstDay > today {
            throw FilterProblem(.taken, "from \(from) is in the future (today is \(today))")
        }
        if let to, to.firstDay > today { checked.to = FilterDate(today) }
        if let from = checked.from, let to = checked.to, from.firstDay > to.lastDay {
            throw FilterProblem(.taken, "from \(from) comes after to \(to): swap them")
        }
        return checked
    }

    /// Whether a photo taken on `day` lies in the range.
    public func contains(_ day: CalendarDay) -> Bool {
        if let from, day < from.firstDay { return false }
        if let to, to.lastDay < day { return false }
        return true
    }

    /// As typed into the field or `--taken`: `2019..2023`, `2019..`, `..2023`, `2023`; "" when open.
    public var description: String {
        if let from, from == to { return from.description }
        if isOpen { return "" }
        return (from?.description ?? "") + ".." + (to?.description ?? "")
    }

    /// As the header shows it: `2019–2023`, `since 2019`, `until 2023`, `2023`.
    public var summary: String {
        switch (from, to) {
        case let (from?, to?) where from == to: from.description
        case let (from?, to?): "\(from)\u{2013}\(to)"
        case let (from?, nil): "since \(from)"
        case let (nil, to?): "until \(to)"
        case (nil, nil): ""
        }
    }
}

// MARK: - What each source does with a filter

extension PhotoSourceChoice {
    /// What this source does with each field of `filter` that it cannot send as asked: the editor
    /// shows these lines, and the source does exactly this (docs/photo-sources.md). Empty when
    /// every field set is sent as it is.
    public func filterNotes(_ filter: AlbumFilter) -> [String] {
        switch self {
        case .flickr:
            return []
        case .commons:
            var notes: [String] = []
            if !filter.tags.isEmpty {
                notes.append("Commons has categories, not tags: the tags are searched as words.")
            }
            let leftOut = Self.commonsSearchWords(filter).leftOut
            if !leftOut.isEmpty {
                notes.append("Commons searches at most \(Self.commonsMaxSearchWords) characters of words: "
                    + (leftOut.count == 1 ? "the last tag is" : "the last \(leftOut.count) tags are") + " left out.")
            }
            if !filter.taken.isOpen {
                notes.append("Commons cannot search by date: photos are kept when their recorded date taken"
                    + " lies in the range; those without one are left out.")
            }
            switch filter.sort {
            case .interesting:
                if filter.text != nil || !filter.tags.isEmpty {
                    notes.append("Commons has no interestingness: the best matches come first.")
                }
            case .recent:
                notes.append("Commons orders each page by date taken, newest first; pages come "
                    + (filter.text != nil || !filter.tags.isEmpty ? "best match first." : "nearest first."))
            case .relevant:
                break
            }
            return notes
        }
    }
}

extension PhotoSourceChoice {
    /// The most characters of words CirrusSearch takes in one search (its default
    /// `$wgCirrusSearchMaxFullTextQueryLength`, 300, less the two spaces before the keywords
    /// Commons adds; the keywords themselves do not count). Longer, it refuses the whole search.
    public static let commonsMaxSearchWords = 300 - 2

    /// The words Commons searches for `filter`: the text, then the tags in order as more words while
    /// they fit in `commonsMaxSearchWords` characters (counted as CirrusSearch does, by code point);
    /// and the tags that did not fit.
    public static func commonsSearchWords(_ filter: AlbumFilter) -> (words: String, leftOut: [String]) {
        var words = filter.text ?? ""
        var leftOut: [String] = []
        for tag in filter.tags {
            let next = words.isEmpty ? tag : words + " " + tag
            if leftOut.isEmpty && next.unicodeScalars.count <= commonsMaxSearchWords {
                words = next
            } else {
                leftOut.append(tag)
            }
        }
        return (words, leftOut)
    }
}

/// Whether typed text holds anything a terminal would obey (or a tab or line break).
func hasControls(_ text: String) -> Bool { text.strippingTerminalControls != text }

/// Typed text quoted back in a message: what a terminal shows of it, cut short.
func shown(_ text: String) -> String {
    let visible = text.strippingTerminalControls
    return visible.count > 20 ? visible.prefix(19) + "\u{2026}" : visible
}

// MARK: - As JSON

/// The filter as `album --json`, `pins --json` and GeoJSON properties write it:
/// `{"text": "food" | null, "tags": ["a"], "taken": {"from": "2019" | null, "to": null}, "sort": "recent"}`.
/// Decoding reads the same shape, every key optional, and checks the dates' shapes; the caller then
/// runs `validated(today:)` as for any filter from outside.
extension AlbumFilter: Codable {
    enum CodingKeys: String, CodingKey { case text, tags, taken, sort }
    enum TakenKeys: String, CodingKey { case from, to }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(tags, forKey: .tags)
        var range = container.nestedContainer(keyedBy: TakenKeys.self, forKey: .taken)
        try range.encode(taken.from?.description, forKey: .from)
        try range.encode(taken.to?.description, forKey: .to)
        try container.encode(sort.rawValue, forKey: .sort)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        text = try container.decodeIfPresent(String.self, forKey: .text)
        tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        if container.contains(.taken), try !container.decodeNil(forKey: .taken) {
            let range = try container.nestedContainer(keyedBy: TakenKeys.self, forKey: .taken)
            func side(_ key: TakenKeys) throws -> FilterDate? {
                guard let text = try range.decodeIfPresent(String.self, forKey: key) else { return nil }
                do {
                    return try FilterDate.parse(text, side: key.rawValue)
                } catch {
                    throw DecodingError.dataCorruptedError(forKey: key, in: range, debugDescription: error.description)
                }
            }
            taken = TakenRange(from: try side(.from), to: try side(.to))
        }
        if let name = try container.decodeIfPresent(String.self, forKey: .sort) {
            guard let known = AlbumSort(rawValue: name) else {
                throw DecodingError.dataCorruptedError(forKey: .sort, in: container,
                                                       debugDescription: "sort: unknown order \u{201C}\(shown(name))\u{201D}")
            }
            sort = known
        }
    }
}
