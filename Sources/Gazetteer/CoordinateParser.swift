import Geo

/// What the go-to prompt's text means as coordinates.
public enum CoordinateParseResult: Equatable, Sendable {
    case coordinate(GeoPoint)
    /// Looks like coordinates but cannot be; the message says why.
    case outOfRange(String)
    /// Not coordinates at all: treat it as a place name.
    case notCoordinates
}

/// Reads "40.85, 14.27", "40.85 14.27", "-33.9,151.2", "40.85N 14.27E",
/// "N 40.85 E 14.27", "40°51′N 14°16′E" and "40°51'30\"N, 14°16'E".
/// Without hemisphere letters the first number is the latitude.
public func parseCoordinates(_ text: String) -> CoordinateParseResult {
    guard let tokens = coordinateTokens(text) else { return .notCoordinates }
    var parser = CoordinateParser(tokens: tokens)
    guard let first = parser.component() else { return .notCoordinates }
    if parser.peek == .separator { parser.position += 1 }
    guard let second = parser.component(), parser.position == tokens.count else { return .notCoordinates }

    // Hemisphere letters say which is which; else latitude comes first.
    let latitude: CoordinateComponent, longitude: CoordinateComponent
    switch (first.hemisphere?.isLatitude, second.hemisphere?.isLatitude) {
    case (true, true), (false, false): return .notCoordinates
    case (false, _), (_, true): (latitude, longitude) = (second, first)
    default: (latitude, longitude) = (first, second)
    }
    for c in [latitude, longitude] where c.minutesOrSecondsTooLarge {
        return .outOfRange("Minutes and seconds must be less than 60")
    }
    guard (-90...90).contains(latitude.degrees) else { return .outOfRange("Latitude must be between -90 and 90") }
    guard (-180...180).contains(longitude.degrees) else { return .outOfRange("Longitude must be between -180 and 180") }
    return .coordinate(GeoPoint(latitude: latitude.degrees, longitude: longitude.degrees))
}

/// Reads coordinates given as command-line words, split however the shell
/// split them: `-33.9 151.2`, `"51.5, -0.12"`, `51.5N 0.12W`, `51.5 , -0.12`.
/// The words are joined with spaces and read exactly as the go-to prompt's
/// text is, so the command line and the prompt accept the same forms.
public func parseCoordinates(words: [String]) -> CoordinateParseResult {
    parseCoordinates(words.joined(separator: " "))
}

private enum Hemisphere {
    case north, south, east, west
    var isLatitude: Bool { self == .north || self == .south }
    var sign: Double { self == .south || self == .west ? -1 : 1 }
}

private enum CoordinateToken: Equatable {
    case number(Double, signed: Bool)
    case degreeMark, minuteMark, secondMark
    case hemisphere(Hemisphere)
    case separator
}

/// Splits the text into numbers, marks and letters; nil if anything else is there.
private func coordinateTokens(_ text: String) -> [CoordinateToken]? {
    let chars = Array(text.unicodeScalars)
    var tokens: [CoordinateToken] = []
    var i = 0
    while i < chars.count {
        let c = chars[i]
        switch c {
        case " ", "\t", "\u{A0}":
            i += 1
        case ",", ";":
            tokens.append(.separator)
            i += 1
        case "°", "º", "˚":
            tokens.append(.degreeMark)
            i += 1
        case "′", "'", "’", "‘":
            if i + 1 < chars.count, ["′", "'", "’"].contains(chars[i + 1]) {
                tokens.append(.secondMark)  // two primes written for a double prime
                i += 2
            } else {
                tokens.append(.minuteMark)
                i += 1
            }
        case "″", "\"", "”", "“":
            tokens.append(.secondMark)
            i += 1
        case "N", "n": tokens.append(.hemisphere(.north)); i += 1
        case "S", "s": tokens.append(.hemisphere(.south)); i += 1
        case "E", "e": tokens.append(.hemisphere(.east)); i += 1
        case "W", "w": tokens.append(.hemisphere(.west)); i += 1
        case "+", "-", "−", "0"..."9", ".":
            var j = i
            var negative = false, signed = false
            if ["+", "-", "−"].contains(chars[j]) {
                negative = chars[j] != "+"
                signed = true
                j += 1
            }
            var digits = ""
            while j < chars.count, ("0"..."9").contains(chars[j]) || chars[j] == "." {
                digits.unicodeScalars.append(chars[j])
                j += 1
            }
            guard let value = Double(digits), value.isFinite else { return nil }
            tokens.append(.number(negative ? -value : value, signed: signed))
            i = j
        default:
            return nil
        }
        // A letter glued to another letter is a word ("Naples"), not a hemisphere.
        if case .hemisphere = tokens.last, i < chars.count, chars[i].properties.isAlphabetic { return nil }
    }
    return tokens
}

private struct CoordinateComponent {
    var degrees: Double
    var hemisphere: Hemisphere?
    var minutesOrSecondsTooLarge: Bool
}

private struct CoordinateParser {
    let tokens: [CoordinateToken]
    var position = 0

    var peek: CoordinateToken? { position < tokens.count ? tokens[position] : nil }

    /// [hemisphere] number [° [number [′ [number [″]]]]] [hemisphere]
    mutating func component() -> CoordinateComponent? {
        var hemisphere: Hemisphere?
        if case .hemisphere(let h) = peek { hemisphere = h; position += 1 }
        guard case .number(let degrees, let signed) = peek else { return nil }
        position += 1
        var minutes = 0.0, seconds = 0.0
        if peek == .degreeMark {
            position += 1
            let next = position + 1 < tokens.count ? tokens[position + 1] : nil
            if case .number(let m, signed: false) = peek, next != .degreeMark {
                minutes = m
                position += 1
                if peek == .minuteMark { position += 1 }
                if case .number(let s, signed: false) = peek {
                    seconds = s
                    position += 1
                    if peek == .secondMark { position += 1 }
                }
            }
        }
        // A letter after the number is this one's, unless it had one before ("N 40 E 14").
        if hemisphere == nil, case .hemisphere(let h) = peek {
            hemisphere = h
            position += 1
        }
        // "-33 S" says south twice: refuse rather than guess.
        if signed && hemisphere != nil { return nil }
        let magnitude = abs(degrees) + minutes / 60 + seconds / 3600
        let sign = (degrees < 0 ? -1.0 : 1.0) * (hemisphere?.sign ?? 1)
        return CoordinateComponent(degrees: sign * magnitude, hemisphere: hemisphere,
                                   minutesOrSecondsTooLarge: minutes >= 60 || seconds >= 60)
    }
}
