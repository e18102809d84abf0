/// What an album's contact sheet (`index.html`) points at, read back from its text for the tests of
/// the album saving and of `album --save`.
public enum ContactSheetLinks {
    /// Every `src` and `href` value of the sheet.
    public static func attributes(_ html: String) -> [String] {
        var found: [String] = []
        for attribute in ["src=\"", "href=\""] {
            var rest = Substring(html)
            while let start = rest.range(of: attribute) {
                rest = rest[start.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { break }
                found.append(String(rest[..<end]))
            }
        }
        return found
    }

    /// The addresses the photos' page links go to.
    public static func pageLinks(_ html: String) -> [String] {
        html.components(separatedBy: "<a class=\"page\" rel=\"noreferrer\" href=\"").dropFirst()
            .compactMap { $0.split(separator: "\"", maxSplits: 1).first.map(String.init) }
    }

    /// Every `src` and `href` value of the sheet but the photos' page links: the files beside it.
    public static func files(_ html: String) -> [String] {
        let pages = Set(pageLinks(html))
        return attributes(html).filter { !pages.contains($0) }
    }
}
