import Model

/// Drives one album: applies `action` to `album` and returns the effects the runtime must run, in order.
///
/// After any change to the album's stored summary (status, page, page count), and whenever a new
/// collection begins, the last effect is `.saveStatus`. Whenever the earliest due retry changes (and
/// after every `.retryDue`), `.scheduleRetry` comes just before it. An ended album (pin deleted)
/// ignores everything.
public func reduce(_ album: inout Album, _ action: AlbumAction, _ environment: AlbumEnvironment) -> [AlbumEffect] {
    guard !album.isEnded else { return [] }
    let before = album.summary
    let timerBefore = album.nextRetry
    var effects: [AlbumEffect]
    // A new collection's search must show as downloading with its page, and a resume repairs a stale
    // stored summary, so these always save.
    var alwaysSaves = false
    // The timer that rang is spent: the next one is always set again.
    var timerRang = false

    switch action {
    case .start:
        guard !album.hasBegun else { return [] }
        album.pageCount = 0
        effects = [album.beginCollection(page: 1, environment)]
        alwaysSaves = true

    case .resume:
        // Everything waiting starts now, with a fresh retry window.
        album.searchPlan = nil
        album.photoPlans = [:]
        effects = []
        if case .waiting(let page) = album.search {
            album.search = .inFlight(page: page)
            effects.append(album.searchEffect(page: page, environment))
        }
        effects += album.download(album.photos.filter { $0.state == .pending && !album.inFlight.contains($0.id) })
        alwaysSaves = true

    case .searchAnswered(let generation, let reportedPages, let found):
        guard generation == album.generation, case .inFlight(let page) = album.search else {
            // Late answers were saved by the store all the same; drop their rows unless they are ours.
            let orphans = unique(found.map(\.id)).filter { album.index(of: $0) == nil }
            return orphans.isEmpty ? [] : [.deletePhotos(orphans)]
        }
        let hadPhotos = !album.photos.isEmpty
        album.search = .idle
        album.searchPlan = nil
        album.page = page
        album.pageCount = min(max(reportedPages, 0), max(1, Album.maxResults / album.collectionPerPage(environment)))
        var seen = Set(album.photos.map(\.id))
        let added = found.filter { seen.insert($0.id).inserted }.map { AlbumPhoto(id: $0.id, url: $0.url) }
        album.photos += added
        effects = album.download(added)
        if added.isEmpty && hadPhotos { effects.append(.notify("No more photos around this place")) }

    case .searchFailed(let generation, let failure):
        let reason = failure.reason
        guard generation == album.generation, case .inFlight(let page) = album.search else { return [] }
        album.searchPlan = Album.plan(album.searchPlan, after: failure, environment)
        if album.searchPlan != nil {
            // Passing: the search waits (with the photos shown, for Add more) and is sent again when due.
            album.search = .waiting(page: page)
            effects = []
        } else if album.photos.isEmpty {
            album.search = .failed(page: page, reason: reason)
            effects = []
        } else {
            // Add more failed: the photos on screen stay, so this is a notice, not the album's state.
            album.search = .idle
            effects = [.notify("Could not add photos: \(reason)")]
        }

    case .photoDownloaded(let generation, let id):
        guard generation == album.generation, album.inFlight.contains(id), let i = album.index(of: id) else { return [] }
        album.inFlight.remove(id)
        album.photoPlans[id] = nil
        album.photos[i].state = .stored
        effects = []

    case .photoFailed(let generation, let id, let failure):
        guard generation == album.generation, album.inFlight.contains(id), let i = album.index(of: id) else { return [] }
        album.inFlight.remove(id)
        album.photoPlans[id] = Album.plan(album.photoPlans[id], after: failure, environment)
        if album.photoPlans[id] != nil {
            // Passing: the photo stays pending and is fetched again when its plan is due.
            effects = []
        } else {
            album.photos[i].state = .failed(reason: failure.reason)
            effects = [.markPhotoFailed(photo: id, reason: failure.reason, generation: generation)]
        }

    case .retryDue(let now):
        timerRang = true
        effects = album.startDue({ $0 <= now }, environment)

    case .networkReturned(.searches):
        // A fresh window: the plan goes, and the search starts now if it waits.
        let waits = album.searchPlan?.due != nil
        album.searchPlan = nil
        effects = []
        if waits, case .waiting(let page) = album.search {
            album.search = .inFlight(page: page)
            effects.append(album.searchEffect(page: page, environment))
        }

    case .networkReturned(.photos):
        let planned = album.photos.filter { album.photoPlans[$0.id] != nil }
        let waiting = planned.filter { !album.inFlight.contains($0.id) }
        effects = album.download(waiting)
        // Those already being tried again get a fresh window too.
        album.photoPlans = [:]

    case .newCollection, .newCollectionFromAnotherSource:
        guard album.isNewCollectionEnabled else { return [.notify(Album.newCollectionRefusal)] }
        let page = action == .newCollection ? album.pageForNewCollection(environment) : 1
        let search = album.beginCollection(page: page, environment)
        effects = [album.clearEffect, search]
        alwaysSaves = true

    case .setFilter(let filter):
        guard album.isNewCollectionEnabled else { return [.notify(Album.filterRefusal)] }
        // The old filter's page count says nothing of the new one's pages: the collection starts at 1.
        album.filter = filter
        album.pageCount = 0
        let search = album.beginCollection(page: 1, environment)
        effects = [album.clearEffect, search]
        alwaysSaves = true

    case .addMore:
        switch album.search {
        case .waiting, .inFlight: return [.notify("Still searching for photos")]
        case .failed: return [.notify("The search failed: retry it first")]
        case .idle: break
        }
        guard let next = album.nextPage else { return [.notify("No more photos around this place")] }
        album.search = .inFlight(page: next)
        effects = [album.searchEffect(page: next, environment)]

    case .deletePhotos(let ids):
        let doomed = Set(ids)
        let removed = album.photos.filter { doomed.contains($0.id) }.map(\.id)
        guard !removed.isEmpty else { return [] }
        let cancelled = removed.filter { album.inFlight.contains($0) }
        album.photos.removeAll { doomed.contains($0.id) }
        album.inFlight.subtract(removed)
        for id in removed { album.photoPlans[id] = nil }
        effects = cancelled.isEmpty ? [] : [.cancelDownloads(cancelled)]
        effects.append(.deletePhotos(removed))

    case .retry(let photo):
        // The search first (failed, interrupted or waiting), then the photos asked for: failed ones,
        // and pending ones not being fetched (waiting for a retry); each starts now with a fresh window.
        effects = []
        switch album.search {
        case .waiting(let page), .failed(let page, _):
            album.search = .inFlight(page: page)
            album.searchPlan = nil
            effects = [album.searchEffect(page: page, environment)]
        case .idle, .inFlight:
            break
        }
        let retryable = album.photos.filter { candidate in
            guard photo == nil || candidate.id == photo else { return false }
            switch candidate.state {
            case .failed: return true
            case .pending: return !album.inFlight.contains(candidate.id)
            case .stored: return false
            }
        }
        guard !effects.isEmpty || !retryable.isEmpty else { return [.notify("Nothing to retry")] }
        effects += album.download(retryable)

    case .pinMoved(let place):
        effects = album.cancelEverything()
        album.place = place
        album.pageCount = 0
        let search = album.beginCollection(page: 1, environment)
        effects += [album.clearEffect, search]
        alwaysSaves = true

    case .pinDeleted:
        // The store's cascade removes the photos; only work under way, and the retry timer, need stopping.
        effects = album.cancelEverything()
        album.photos = []
        album.search = .idle
        album.searchPlan = nil
        album.photoPlans = [:]
        album.isEnded = true
        if timerBefore != nil { effects.append(.scheduleRetry(pin: album.pin, at: nil)) }
        return effects
    }

    let timer = album.nextRetry
    if timer != timerBefore || (timerRang && (timer != nil || timerBefore != nil)) {
        effects.append(.scheduleRetry(pin: album.pin, at: timer))
    }
    if alwaysSaves || album.summary != before { effects.append(album.saveStatusEffect) }
    return effects
}

/// What the store keeps on the pin row.
struct AlbumSummary: Equatable {
    var status: AlbumStatus
    var page: Int
    var pageCount: Int
}

extension Album {
    var summary: AlbumSummary { AlbumSummary(status: status, page: page, pageCount: pageCount) }

    var saveStatusEffect: AlbumEffect { .saveStatus(pin: pin, status: status, page: page, pageCount: pageCount) }

    /// Clears the stored album into the collection just begun: comes before its search.
    var clearEffect: AlbumEffect { .clearAlbum(pin: pin, generation: generation, filter: filter) }

    /// Anything at all has happened to this album, so `.start` is a repeat.
    var hasBegun: Bool { generation > 0 || page > 0 || search != .idle || !photos.isEmpty }

    func index(of id: Int64) -> Int? { photos.firstIndex { $0.id == id } }

    func collectionPerPage(_ environment: AlbumEnvironment) -> Int {
        perPage > 0 ? perPage : max(1, environment.perPage)
    }

    /// The page after the latest, wrapping round; nil once every page of the collection is in.
    var nextPage: Int? {
        guard pageCount > 0 else { return nil }
        let next = page % pageCount + 1
        return next == firstPage ? nil : next
    }

    /// A page other than the current one when there is more than one; a bad pick falls back to the next page.
    func pageForNewCollection(_ environment: AlbumEnvironment) -> Int {
        guard pageCount > 1 else { return 1 }
        let picked = environment.pickPage(page, pageCount)
        if (1...pageCount).contains(picked) && picked != page { return picked }
        return page % pageCount + 1
    }

    func searchEffect(page: Int, _ environment: AlbumEnvironment) -> AlbumEffect {
        .search(pin: pin, place: place, page: page, perPage: collectionPerPage(environment), filter: filter,
                generation: generation)
    }

    /// The plan after a failure of its target: nil when the failure is permanent, or when
    /// `giveUpAfter` has passed since the first failure of the run (the target then fails for good).
    static func plan(_ plan: RetryPlan?, after failure: FetchFailure, _ environment: AlbumEnvironment) -> RetryPlan? {
        guard !failure.isPermanent else { return nil }
        let now = environment.now()
        let policy = environment.retryPolicy
        var next = plan ?? RetryPlan(attempts: 0, firstFailure: now, lastFailure: now, reason: failure.reason, due: nil)
        guard now - next.firstFailure < policy.giveUpAfter else { return nil }
        next.attempts += 1
        next.lastFailure = now
        next.reason = failure.reason
        next.due = now + policy.delay(afterFailures: next.attempts, jitter: environment.jitter(), retryAfter: failure.retryAfter)
        return next
    }

    /// Starts the waiting search and photos whose plan's due time passes `isDue`; their plans stay
    /// (attempts and window) with no due time while the try is under way.
    mutating func startDue(_ isDue: (Double) -> Bool, _ environment: AlbumEnvironment) -> [AlbumEffect] {
        var effects: [AlbumEffect] = []
        if case .waiting(let page) = search, let due = searchPlan?.due, isDue(due) {
            search = .inFlight(page: page)
            searchPlan?.due = nil
            effects.append(searchEffect(page: page, environment))
        }
        for photo in photos where photo.state == .pending && !inFlight.contains(photo.id) {
            guard let due = photoPlans[photo.id]?.due, isDue(due) else { continue }
            photoPlans[photo.id]?.due = nil
            inFlight.insert(photo.id)
            effects.append(.download(photo: photo.id, url: photo.url, generation: generation))
        }
        return effects
    }

    /// Empties the album and asks for `page` under a new generation; the caller sets `pageCount`.
    mutating func beginCollection(page: Int, _ environment: AlbumEnvironment) -> AlbumEffect {
        generation += 1
        photos = []
        inFlight = []
        searchPlan = nil
        photoPlans = [:]
        perPage = max(1, environment.perPage)
        self.page = page
        firstPage = page
        search = .inFlight(page: page)
        return searchEffect(page: page, environment)
    }

    /// Marks `photos` pending and in flight, one download each, in grid order, each with a fresh retry
    /// window. Photos that had failed are saved as pending first, so their next outcome finds them waiting.
    mutating func download(_ targets: [AlbumPhoto]) -> [AlbumEffect] {
        var retried: [Int64] = []
        let downloads: [AlbumEffect] = targets.compactMap { target in
            guard let i = index(of: target.id) else { return nil }
            photoPlans[target.id] = nil
            if photos[i].state != .pending { retried.append(target.id) }
            photos[i].state = .pending
            inFlight.insert(target.id)
            return .download(photo: target.id, url: target.url, generation: generation)
        }
        return (retried.isEmpty ? [] : [.markPending(retried)]) + downloads
    }

    /// Stops the search and every download under way.
    mutating func cancelEverything() -> [AlbumEffect] {
        var effects: [AlbumEffect] = []
        if case .inFlight = search { effects.append(.cancelSearch(pin: pin)) }
        let downloads = photos.map(\.id).filter { inFlight.contains($0) }
        if !downloads.isEmpty { effects.append(.cancelDownloads(downloads)) }
        inFlight = []
        return effects
    }
}

/// Keeps the first of each id, in order.
private func unique(_ ids: [Int64]) -> [Int64] {
    var seen = Set<Int64>()
    return ids.filter { seen.insert($0).inserted }
}
