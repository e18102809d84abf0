import Foundation
import Model
import Store
import Terminal

/// The photos that failed for good in the albums a `--wait` waited for (`drop --wait`, `import --wait`),
/// with their stored reasons: how every such wait ends once nothing is downloading.
struct PhotoFailures {
    /// Photos whose download failed for good, of `total` in the albums.
    var failed: Int
    var total: Int
    /// Each distinct reason with how many photos it failed, the most common first.
    var reasons: [(reason: String, count: Int)]

    /// How many reasons the line names; the rest are counted.
    static let reasonsNamed = 3

    init(_ photos: some Sequence<PhotoRecord>) {
        var total = 0
        var counts: [String: Int] = [:]
        for photo in photos {
            total += 1
            if let reason = photo.error { counts[reason, default: 0] += 1 }
        }
        self.total = total
        failed = counts.values.reduce(0, +)
        reasons = counts.map { ($0.key, $0.value) }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.reason < $1.reason }
    }

    /// The photos of these pins' albums as stored.
    init(albumsOf ids: [Pin.ID], in store: AppDatabase) throws {
        var photos: [PhotoRecord] = []
        for id in ids {
            do { photos += try store.album(pinID: id)?.photos ?? [] } catch { throw CommandFailure("\(error)") }
        }
        self.init(photos)
    }

    /// Every photo failed: the wait brought nothing in.
    var allFailed: Bool { total > 0 && failed == total }

    /// "21 of 21 photos could not be downloaded: HTTP 404", the reasons counted when there are
    /// several ("HTTP 404 (18), HTTP 403 (3)"); nil when none failed.
    var line: String? {
        guard failed > 0 else { return nil }
        let why: String
        if reasons.count == 1, let only = reasons.first {
            why = only.reason
        } else {
            let named = reasons.prefix(Self.reasonsNamed).map { "\($0.reason) (\($0.count))" }
            let others = reasons.count - named.count
            why = named.joined(separator: ", ") + (others > 0 ? ", and \(others) other \(others == 1 ? "reason" : "reasons")" : "")
        }
        return PinTable.sanitized("\(failed) of \(total) \(total == 1 ? "photo" : "photos") could not be downloaded: \(why)")
    }

    /// Ends the wait: the line on stderr when some photos failed, and a failure (exit 1) when all did,
    /// what is `kept` ("pin 3 is kept") said after it then, since no id is printed on stdout.
    func finish(kept: String? = nil) throws {
        guard let line else { return }
        if allFailed { throw CommandFailure(line + (kept.map { " (\($0))" } ?? "")) }
        StandardStream.error.write(line + "\n")
    }

}
