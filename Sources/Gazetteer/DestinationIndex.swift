import Foundation
import Locking

/// Folded names without spaces ("Machu Picchu" → "machupicchu"), each with
/// what it names, sorted for prefix search. The keys lie end to end in one
/// buffer, so a scan over all of them touches no reference counts.
struct CompactKeys: Sendable {
    struct Entry: Sendable {
        var key: [UInt8]
        /// A destination's index, or a place's rank.
        var id: Int32
        var isAlias: Bool
        /// The name had spaces before they were taken out.
        var hadSpaces = false
    }

    private let bytes: [UInt8]
    /// Key `i` is `bytes[starts[i]..<starts[i + 1]]`.
    private let starts: [Int32]
    let ids: [Int32]
    let aliases: [Bool]
    let spaced: [Bool]

    var count: Int { ids.count }

    init(_ entries: [Entry]) {
        // Laid end to end first, so that sorting compares bytes in place (memcmp), not arrays.
        var flat: [UInt8] = [], flatStarts: [Int] = [0]
        flat.reserveCapacity(entries.reduce(0) { $0 + $1.key.count })
        flatStarts.reserveCapacity(entries.count + 1)
        for entry in entries {
            flat += entry.key
            flatStarts.append(flat.count)
        }
        let order: [Int] = flat.withUnsafeBytes { all in
            flatStarts.withUnsafeBufferPointer { starts in
                entries.indices.sorted { a, b in
                    let lengthA = starts[a + 1] - starts[a], lengthB = starts[b + 1] - starts[b]
                    let order = memcmp(all.baseAddress! + starts[a], all.baseAddress! + starts[b], min(lengthA, lengthB))
                    if order != 0 { return order < 0 }
                    if lengthA != lengthB { return lengthA < lengthB }
                    return entries[a].id < entries[b].id
                }
            }
        }
        var bytes: [UInt8] = [], starts: [Int32] = [0], ids: [Int32] = [], aliases: [Bool] = [], spaced: [Bool] = []
        bytes.reserveCapacity(flat.count)
        starts.reserveCapacity(entries.count + 1)
        ids.reserveCapacity(entries.count)
        aliases.reserveCapacity(entries.count)
        spaced.reserveCapacity(entries.count)
        for i in order {
            bytes += flat[flatStarts[i]..<flatStarts[i + 1]]
            starts.append(Int32(bytes.count))
            ids.append(entries[i].id)
            aliases.append(entries[i].isAlias)
            spaced.append(entries[i].hadSpaces)
        }
        self.bytes = bytes
        self.starts = starts
        self.ids = ids
        self.aliases = aliases
        self.spaced = spaced
    }

    /// The length of key `i`.
    func length(_ i: Int) -> Int { Int(starts[i + 1] - starts[i]) }

    /// Calls `body` with each key's index and bytes, in key order.
    func scan(_ body: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        bytes.withUnsafeBufferPointer { all in
            starts.withUnsafeBufferPointer { starts in
                for i in 0..<(starts.count - 1) {
                    let start = Int(starts[i])
                    body(i, UnsafeBufferPointer(rebasing: all[start..<Int(starts[i + 1])]))
                }
            }
        }
    }

    /// The range of keys that start with `prefix`; those equal to it come first.
    func range(startingWith prefix: [UInt8]) -> Range<Int> {
        bytes.withUnsafeBufferPointer { all in
            func key(_ i: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: all[Int(starts[i])..<Int(starts[i + 1])])
            }
            func firstIndex(_ isAtOrAfter: (UnsafeBufferPointer<UInt8>) -> Bool) -> Int {
                var low = 0, high = count
                while low < high {
                    let mid = (low + high) / 2
                    if isAtOrAfter(key(mid)) { high = mid } else { low = mid + 1 }
                }
                return low
            }
            let low = firstIndex { !$0.lexicographicallyPrecedes(prefix) }
            let high = firstIndex { comparePrefix($0, prefix) > 0 }
            return low..<max(low, high)
        }
    }
}

/// −1, 0 (the key starts with the prefix) or 1, comparing the key cut to the prefix's length.
private func comparePrefix(_ key: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Int {
    let n = min(key.count, prefix.count)
    for i in 0..<n where key[i] != prefix[i] {
        return key[i] < prefix[i] ? -1 : 1
    }
    return key.count < prefix.count ? -1 : 0
}

/// The destinations in memory: heaviest first, and their names and alternates as `CompactKeys`.
struct DestinationIndex: Sendable {
    let all: [Destination]
    let names: CompactKeys

    static let empty = DestinationIndex([])

    init(_ destinations: [Destination]) {
        all = destinations
        var keys: [CompactKeys.Entry] = []
        var folder = SearchFolder()
        func compactFold(_ text: String) -> [UInt8] { folder.foldBytes(text).filter { $0 != 0x20 } }
        for (i, d) in destinations.enumerated() {
            let own = compactFold(d.name)
            keys.append(.init(key: own, id: Int32(i), isAlias: false))
            var seen = [own]  // a few names each: a list is quicker than a set
            for alternate in d.alternates {
                let folded = compactFold(alternate)
                guard !folded.isEmpty, !seen.contains(folded) else { continue }
                seen.append(folded)
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

/// The destinations file, read at its first use so that starting the app never waits for it.
final class LazyDestinations: Sendable {
    let url: URL?
    private let loaded = Locked<Result<DestinationIndex, GazetteerError>?>(nil)
    /// The index once read (empty if it could not be), behind a lock never held while reading.
    private let ready = Locked<DestinationIndex?>(nil)

    init(url: URL?) {
        self.url = url
        if url == nil {
            // No file: nothing to read, ready at once.
            loaded.withLock { $0 = .success(.empty) }
            ready.withLock { $0 = .empty }
        }
    }

    init(_ destinations: [Destination]) {
        url = nil
        let index = DestinationIndex(destinations)
        loaded.withLock { $0 = .success(index) }
        ready.withLock { $0 = index }
    }

    /// The index if it has been read, without waiting.
    var indexIfReady: DestinationIndex? { ready.withLock { $0 } }

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
            ready.withLock { $0 = (try? read.get()) ?? .empty }
            return read
        }
    }

    /// The index; empty when the file is missing or damaged (`result` says why).
    var index: DestinationIndex {
        (try? result.get()) ?? .empty
    }
}
