import Model
import PhotoSources

extension FuzzCheck {
    /// What a photo source's parser gives must be safe to show and to fetch: no control
    /// characters in any text, every URL absolute http(s), sane page numbers.
    public static func searchPage(_ page: SearchPage) {
        that(page.page >= 1 && page.pageCount >= 1 && page.total >= 0, "page \(page.page)/\(page.pageCount), total \(page.total)")
        for photo in page.photos {
            for (text, what) in [(photo.sourceID, "sourceID"), (photo.title, "title"), (photo.author, "author"),
                                 (photo.dateTaken, "dateTaken"), (photo.license, "license")] {
                terminalSafe(text, what)
            }
            for url in [photo.url, photo.largeURL, photo.pageURL].compactMap({ $0 }) {
                let lower = url.lowercased()
                that(lower.hasPrefix("https://") || lower.hasPrefix("http://"), "not an http(s) URL: \(url.debugDescription)")
                terminalSafe(url, "URL")
                that(!url.contains(" "), "a space in a URL: \(url.debugDescription)")
            }
        }
    }

    /// An error's message goes to the message line.
    public static func photoSourceError(_ error: PhotoSourceError) {
        terminalSafe(error.description, "error message")
    }
}
