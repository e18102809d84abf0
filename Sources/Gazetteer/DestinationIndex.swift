import Foundation
import Locking

/// Folded names without spaces ("Machu Picchu" → "machupicchu"), each with
/// what it names, sorted for prefix search.
struct CompactKeys: Sendable {
    struct Key: Sendable {
        var key: [UInt8]
        /// A destination's index, or a place's rank.
        var id: Int32
        var isAlias: Bool
    }

    let keys: [Key]

    init(_ keys: [Key]) {
        self.keys = keys.sorted { a, b in
            a.key.lexicographicallyPrecedes(b.key) || (a.key == b.key && a.id < b.id)
        }
    }

    /// The range of `keys` that start with `prefix`; those equal to it come first.
    func range(startingWith prefix: [UInt8]) -> Range<Int> {
        func firstIndex(_ isAtOrAfter: (Key) -> Bool) -> Int {
            var low = 0, high = keys.count
            while low < high {
                let mid = (low + high) / 2
                if isAtOrAfter(keys[mid]) { high = mid } else { low = mid + 1 }
            }
            return low
        }
        let low = firstIndex { !$0.key.lexicographicallyPrecedes(prefix) }
        let high = firstIndex { comparePrefix($0.key, prefix) > 0 }
        return low..<max(low, high)
    }
}

/// The destinations in memory: heaviest first, and their names and alternates as `CompactKeys`.
struct DestinationIndex: Sendable {
    let all: [Destination]
    let names: CompactKeys

    static let empty = DestinationIndex([])

    init(_ destinations: [Destination]) {
        all = destinations
        var keys: [CompactKeys.Key] = []
        for (i, d) in destinations.enumerated() {
            let own = compactFold(d.name)
            keys.append(.init(key: own, id: Int32(i), isAlias: false))
            var seen: Set<[UInt8]> = [own]
            for alternate in d.alternates {
                let folded = compactFold(alternate)
                guard !folded.isEmpty, seen.insert(folded).inserted else { continue }
                keys.append(.init(key: folded, id: Int32(i), isAlias: true))
            }
        }
        names = CompactKeys(keys)
    }

    /// Destinations inside `box` of at least `minWeight`, heaviest first.
    func inside(_ box: GeoBox, minWeight: Int, limit: Int) -> [Destination] {
        var out: [Destination] = []
        for d in all {
            if d.weight < minWeight || out.count >= limit { break }
            if box.contains(d.coordinate) { out.append(d) }
        }
        return out
    }
}

/// −1, 0 (the key starts with the prefix) or 1, comparing the key cut to the prefix's length.
private func comparePrefix(_ key: [UInt8], _ prefix: [UInt8]) -> Int {
    let n = min(key.count, prefix.count)
    for i in 0..<n where key[i] != prefix[i] {
        return key[i] < prefix[i] ? -1 : 1
    }
    return key.count < prefix.count ? -1 : 0
}

/// The search form of a name with its spaces taken out: "Machu Picchu" and "Machupicchu" meet.
func compactFold(_ text: String) -> [UInt8] {
    searchFold(text).utf8.filter { $0 != 0x20 }
}

/// The destinations file, read at its first use so that starting the app never waits for it.
final class LazyDestinations: Sendable {
    let url: URL?
    private let loaded = Locked<Result<DestinationIndex, GazetteerError>?>(nil)

    init(url: URL?) { self.url = url }

    init(_ destinations: [Destination]) {
        url = nil
        loaded.withLock { $0 = .success(DestinationIndex(destinations)) }
    }

    /// The index, or why the file could not be used.
    var result: Result<DestinationIndex, GazetteerError> {
        loaded.withLock { state in
            if let state { return state }
            let read: Result<DestinationIndex, GazetteerError>
            if let url {
                do throws(GazetteerError) {
                    read = .success(DestinationIndex(try DestinationsFile.load(from: url)))
                } catch {
                    read = .failure(error)
                }
            } else {
                read = .success(.empty)
            }
            state = read
            return read
        }
    }

    /// The index; empty when the file is missing or damaged (`result` says why).
    var index: DestinationIndex {
        (try? result.get()) ?? .empty
    }
}
