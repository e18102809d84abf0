import Model

/// The albums' searches and downloads waiting for a turn: at most `limit` run at once, the album on
/// screen's first, then every other album's in the order asked. When every turn is taken, by
/// transfers that may hang for as long as the network lets them, the album on screen's search still
/// gets one of `reserve` turns more: its New Collection or Add more is never queued behind stalled
/// downloads (its photos then wait for ordinary turns, first in line).
/// Pure: the service starts what `next` hands out and says `finished` when each ends, so libcurl
/// never holds more than `limit + reserve` of them and a transfer of the album the user opens is never
/// queued behind thousands of others.
/// Each call costs the same with ten albums waiting as with ten thousand (amortised).
struct TransferQueue<Job> {
    /// What a transfer is for: an album's search, or one of its photos.
    enum Target: Hashable {
        case search(Pin.ID)
        case photo(Int64)
    }

    /// Transfers allowed at once.
    let limit: Int
    /// Turns beyond `limit` for the focused album's search alone (each album has one search at most,
    /// so a few cover the album on screen and those just left).
    let reserve: Int
    /// The tickets handed out and not yet finished.
    private(set) var running: Set<Int> = []
    /// Those of `running` handed out beyond `limit`.
    private var beyond: Set<Int> = []
    private var nextTicket = 0
    /// Waiting jobs by ticket; a ticket no longer here was taken or withdrawn.
    private var jobs: [Int: (pin: Pin.ID, target: Target, job: Job)] = [:]
    private var tickets: [Target: Int] = [:]
    /// Every ticket in the order asked (`head` is the first not yet looked at).
    private var line: [Int] = []
    private var head = 0
    /// Each album's tickets in the order asked (`heads` as `head`).
    private var byAlbum: [Pin.ID: [Int]] = [:]
    private var heads: [Pin.ID: Int] = [:]

    init(limit: Int, reserve: Int = 0) {
        self.limit = max(1, limit)
        self.reserve = max(0, reserve)
    }

    /// Jobs waiting for a turn.
    var waiting: Int { jobs.count }

    /// Queues a job; one waiting for the same target is replaced (a search asked again).
    mutating func add(_ job: Job, for target: Target, of pin: Pin.ID) {
        withdraw(target)
        let ticket = nextTicket
        nextTicket += 1
        jobs[ticket] = (pin, target, job)
        tickets[target] = ticket
        line.append(ticket)
        byAlbum[pin, default: []].append(ticket)
    }

    /// Takes a waiting job out of the queue (its search or download was cancelled); true when one waited.
    @discardableResult
    mutating func withdraw(_ target: Target) -> Bool {
        guard let ticket = tickets.removeValue(forKey: target) else { return false }
        jobs.removeValue(forKey: ticket)
        return true
    }

    /// Takes every waiting job of an album out of the queue.
    mutating func withdraw(album pin: Pin.ID) {
        guard let mine = byAlbum.removeValue(forKey: pin) else { return }
        for ticket in mine[(heads.removeValue(forKey: pin) ?? 0)...] {
            if let entry = jobs.removeValue(forKey: ticket) { tickets.removeValue(forKey: entry.target) }
        }
    }

    /// The next job to start, when a turn is free: the focused album's oldest, else the oldest of all;
    /// with every turn taken, the focused album's search on a reserved turn.
    /// Its ticket is running until `finished`.
    mutating func next(focus: Pin.ID?) -> (ticket: Int, job: Job)? {
        let reserved = running.count - beyond.count >= limit
        var ticket: Int?
        if reserved {
            guard let focus, beyond.count < reserve else { return nil }
            ticket = tickets[.search(focus)]
        } else {
            if let focus { ticket = oldest(of: focus) }
            if ticket == nil { ticket = oldest() }
        }
        guard let ticket, let entry = jobs.removeValue(forKey: ticket) else { return nil }
        tickets.removeValue(forKey: entry.target)
        // The album's own list is in ticket order too: its front drops what was taken (a search taken
        // on the reserve from further in is skipped later, as a withdrawn one is).
        _ = oldest(of: entry.pin)
        running.insert(ticket)
        if reserved { beyond.insert(ticket) }
        return (ticket, entry.job)
    }

    /// A job handed out has ended (answered, failed or cancelled): its turn is free.
    mutating func finished(_ ticket: Int) {
        running.remove(ticket)
        beyond.remove(ticket)
    }

    /// The oldest waiting ticket, dropping those taken or withdrawn from the front of the line.
    private mutating func oldest() -> Int? {
        while head < line.count, jobs[line[head]] == nil { head += 1 }
        // The part looked at goes once it is most of the line.
        if head > 64, head * 2 > line.count {
            line.removeFirst(head)
            head = 0
        }
        return head < line.count ? line[head] : nil
    }

    /// The album's oldest waiting ticket; an album with none left is forgotten.
    private mutating func oldest(of pin: Pin.ID) -> Int? {
        guard var mine = byAlbum[pin] else { return nil }
        var start = heads[pin] ?? 0
        while start < mine.count, jobs[mine[start]] == nil { start += 1 }
        guard start < mine.count else {
            byAlbum.removeValue(forKey: pin)
            heads.removeValue(forKey: pin)
            return nil
        }
        if start > 16, start * 2 > mine.count {
            byAlbum[pin] = nil
            mine.removeFirst(start)
            byAlbum[pin] = mine
            start = 0
        }
        heads[pin] = start
        return mine[start]
    }
}
