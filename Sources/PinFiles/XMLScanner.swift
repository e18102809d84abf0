import Foundation

/// A small XML reader for GPX: elements (namespace prefixes dropped), attributes, text and CDATA,
/// the five predefined entities and character references, with the line of each event. Comments,
/// processing instructions and a DOCTYPE are skipped (`GPXReader` refuses entity declarations
/// first). Written here rather than taken from libxml2, whose ICU and lzma libraries would load
/// at every start of the program, not just when a GPX file is read.
struct XMLScanner {
    enum Event {
        case start(name: String, attributes: [String: String], line: Int, selfClosing: Bool)
        case end(name: String, line: Int)
        case text(String)
    }

    struct Failure: Error {
        var line: Int
        var detail: String
        /// A problem of the reader's own (a bad waypoint, not GPX), raised from inside the loop.
        var pinFileError: PinFileError?

        init(line: Int, detail: String) {
            self.line = line
            self.detail = detail
        }
    }

    private let bytes: [UInt8]
    private var i = 0
    private(set) var line = 1
    /// The line the last tag ended on: where a truncated document is said to end.
    private(set) var lastTagLine = 1

    init(_ data: Data) {
        bytes = [UInt8](data)
    }

    var isAtEnd: Bool { i >= bytes.count }

    /// The next event, or nil at the end of the input.
    mutating func next() throws(Failure) -> Event? {
        while i < bytes.count {
            if bytes[i] != UInt8(ascii: "<") { return .text(try readText()) }
            if starts("<!--") { try skip(past: "-->", what: "a comment that is not closed"); continue }
            if starts("<![CDATA[") {
                i += 9
                let start = i
                try skip(past: "]]>", what: "a CDATA section that is not closed")
                return .text(String(decoding: bytes[start..<(i - 3)], as: UTF8.self))
            }
            if starts("<?") { try skip(past: "?>", what: "a processing instruction that is not closed"); continue }
            if starts("<!") { try skipDeclaration(); continue }
            return try readTag()
        }
        return nil
    }

    private func starts(_ text: String) -> Bool {
        let t = Array(text.utf8)
        return i + t.count <= bytes.count && Array(bytes[i..<(i + t.count)]) == t
    }

    private mutating func advance() {
        if bytes[i] == UInt8(ascii: "\n") { line += 1 }
        i += 1
    }

    private mutating func skip(past end: String, what: String) throws(Failure) {
        let startLine = line
        while i < bytes.count {
            if starts(end) { i += end.utf8.count; lastTagLine = line; return }
            advance()
        }
        throw Failure(line: startLine, detail: what)
    }

    /// `<!DOCTYPE …>`, with an internal subset in brackets.
    private mutating func skipDeclaration() throws(Failure) {
        let startLine = line
        var brackets = 0
        while i < bytes.count {
            let b = bytes[i]
            advance()
            if b == UInt8(ascii: "[") { brackets += 1 }
            if b == UInt8(ascii: "]") { brackets -= 1 }
            if b == UInt8(ascii: ">") && brackets <= 0 { lastTagLine = line; return }
        }
        throw Failure(line: startLine, detail: "a tag without its closing >")
    }

    private mutating func readText() throws(Failure) -> String {
        var out: [UInt8] = []
        while i < bytes.count, bytes[i] != UInt8(ascii: "<") {
            if bytes[i] == UInt8(ascii: "&") { out += try readEntity() } else { out.append(bytes[i]); advance() }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `&name;` or `&#N;` / `&#xH;` at `i`, as UTF-8.
    private mutating func readEntity() throws(Failure) -> [UInt8] {
        let startLine = line
        var j = i + 1
        while j < bytes.count, j - i < 12, bytes[j] != UInt8(ascii: ";") { j += 1 }
        guard j < bytes.count, bytes[j] == UInt8(ascii: ";") else {
            throw Failure(line: startLine, detail: "an & that starts no entity (write &amp;)")
        }
        let name = String(decoding: bytes[(i + 1)..<j], as: UTF8.self)
        var scalar: Unicode.Scalar?
        switch name {
        case "amp": scalar = "&"
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default:
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if name.hasPrefix("#") {
                scalar = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init)
            }
        }
        guard let scalar else {
            throw Failure(line: startLine, detail: name.hasPrefix("#") ? "a character reference that is no character"
                                                                     : "an & that starts no entity (write &amp;)")
        }
        i = j + 1
        return Array(String(Character(scalar)).utf8)
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        !(b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r")
          || b == UInt8(ascii: ">") || b == UInt8(ascii: "/") || b == UInt8(ascii: "=") || b == UInt8(ascii: "<"))
    }

    private mutating func skipSpace() {
        while i < bytes.count, [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[i]) {
            advance()
        }
    }

    private mutating func readName() -> String {
        let start = i
        while i < bytes.count, Self.isNameByte(bytes[i]) { i += 1 }
        let name = String(decoding: bytes[start..<i], as: UTF8.self)
        // Namespace prefixes are dropped: GPX elements are known by their local names.
        return name.split(separator: ":", omittingEmptySubsequences: false).last.map(String.init) ?? name
    }

    private mutating func readTag() throws(Failure) -> Event {
        let startLine = line
        let unclosed = Failure(line: startLine, detail: "a tag without its closing >")
        i += 1  // <
        if i < bytes.count, bytes[i] == UInt8(ascii: "/") {
            i += 1
            let name = readName()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else { throw unclosed }
            i += 1
            lastTagLine = line
            return .end(name: name, line: startLine)
        }
        let name = readName()
        guard !name.isEmpty else { throw Failure(line: startLine, detail: "a < that starts no tag (write &lt;)") }
        var attributes: [String: String] = [:]
        while true {
            skipSpace()
            guard i < bytes.count else { throw unclosed }
            if bytes[i] == UInt8(ascii: ">") { i += 1; lastTagLine = line; return .start(name: name, attributes: attributes, line: startLine, selfClosing: false) }
            if starts("/>") { i += 2; lastTagLine = line; return .start(name: name, attributes: attributes, line: startLine, selfClosing: true) }
            let key = readName()
            skipSpace()
            guard !key.isEmpty, i < bytes.count, bytes[i] == UInt8(ascii: "=") else {
                throw Failure(line: line, detail: "an attribute without =\"value\"")
            }
            i += 1
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                throw Failure(line: line, detail: "an attribute value without quotes")
            }
            let quote = bytes[i]
            i += 1
            var value: [UInt8] = []
            while i < bytes.count, bytes[i] != quote {
                if bytes[i] == UInt8(ascii: "&") { value += try readEntity() } else { value.append(bytes[i]); advance() }
            }
            guard i < bytes.count else { throw unclosed }
            i += 1
            attributes[key] = String(decoding: value, as: UTF8.self)
        }
    }
}
