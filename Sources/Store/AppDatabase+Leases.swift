import Foundation
import GRDB
import Model

/// How long an album's lease lasts: its holder renews it every `heartbeat` seconds, and another
/// process may take it over once it is `expiry` seconds old (about three missed heartbeats).
public enum AlbumLease {
    public static let heartbeat: Double = 3
    public static let expiry: Double = 10

    /// Seconds on the wall clock, the one every process on the machine shares.
    public static let wallClock: @Sendable () -> Double = { Date().timeIntervalSince1970 }

    /// True when a heartbeat at `heartbeat` no longer holds at `now`; one from the future (the
    /// clock was set back) counts as stale too, or it could hold for ever.
    static func isStale(_ heartbeat: Double, now: Double) -> Bool {
        now - heartbeat > expiry || heartbeat - now > expiry
    }
}

extension AppDatabase {
    /// Takes the lease of a pin's album for `holder`, in one transaction: granted when nobody holds
    /// it, the holder already does, or the other holder's heartbeat is stale or `isGone` says the
    /// holder has ended (a process of this machine that is no more). False when another live
    /// process holds it, or the pin is gone.
    public func takeAlbumLease(pinID: Pin.ID, holder: String, now: Double,
                               isGone: (String) -> Bool = { _ in false }) throws(StoreError) -> Bool {
        try write { db in try Self.takeLease(db, pinID: pinID, holder: holder, now: now, isGone: isGone) }
    }

    /// `takeAlbumLease` for several albums in one transaction (the albums a start takes up, a share at
    /// a time): the ones granted.
    public func takeAlbumLeases(pinIDs: [Pin.ID], holder: String, now: Double,
                                isGone: (String) -> Bool = { _ in false }) throws(StoreError) -> Set<Pin.ID> {
        guard !pinIDs.isEmpty else { return [] }
        return try write { db in
            try Set(pinIDs.filter { try Self.takeLease(db, pinID: $0, holder: holder, now: now, isGone: isGone) })
        }
    }

    /// Takes the lease of a pin's album for `holder` whoever holds it: the holder begins a new
    /// collection, and the work of the one it takes it from is of an older generation, which the
    /// store refuses (that one lets the album go at its next renewal). False when the pin is gone.
    public func seizeAlbumLease(pinID: Pin.ID, holder: String, now: Double) throws(StoreError) -> Bool {
        try write { db in try Self.takeLease(db, pinID: pinID, holder: holder, now: now, isGone: { _ in true }) }
    }

    private static func takeLease(_ db: Database, pinID: Pin.ID, holder: String, now: Double,
                                  isGone: (String) -> Bool) throws -> Bool {
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM pin WHERE id = ?", arguments: [pinID]) != nil else { return false }
        if let row = try Row.fetchOne(db, sql: "SELECT holder, heartbeat FROM albumLease WHERE pinId = ?", arguments: [pinID]) {
            let current: String = row["holder"]
            let beat: Double = row["heartbeat"]
            guard current == holder || AlbumLease.isStale(beat, now: now) || isGone(current) else { return false }
        }
        try db.execute(sql: "INSERT OR REPLACE INTO albumLease (pinId, holder, heartbeat) VALUES (?, ?, ?)",
                       arguments: [pinID, holder, now])
        return true
    }

    /// Renews the holder's leases of these albums; returns those it still holds (one taken over
    /// after a stall is lost and must not be worked on any more).
    public func renewAlbumLeases(pinIDs: [Pin.ID], holder: String, now: Double) throws(StoreError) -> Set<Pin.ID> {
        guard !pinIDs.isEmpty else { return [] }
        return try write { db in
            var held: Set<Pin.ID> = []
            for id in pinIDs {
                try db.execute(sql: "UPDATE albumLease SET heartbeat = ? WHERE pinId = ? AND holder = ?",
                               arguments: [now, id, holder])
                if db.changesCount > 0 { held.insert(id) }
            }
            return held
        }
    }

    /// Gives up the holder's lease of one album (its album settled), or of every album (nil: shutting down).
    public func releaseAlbumLease(pinID: Pin.ID?, holder: String) throws(StoreError) {
        try write { db in
            if let pinID {
                try db.execute(sql: "DELETE FROM albumLease WHERE pinId = ? AND holder = ?", arguments: [pinID, holder])
            } else {
                try db.execute(sql: "DELETE FROM albumLease WHERE holder = ?", arguments: [holder])
            }
        }
    }

    /// The albums left downloading that no live process is fetching: what a running app takes over
    /// (a pin `vtourist drop` left, a crashed window's album).
    public func unheldInterruptedAlbums(now: Double, isGone: (String) -> Bool = { _ in false }) throws(StoreError) -> [Pin.ID] {
        try read { db in
            let waiting = try Int64.fetchAll(db, sql: "SELECT id FROM pin WHERE albumState = '\(AlbumStatusColumns.downloading)' ORDER BY id")
            guard !waiting.isEmpty else { return [] }
            var held: Set<Pin.ID> = []
            for row in try Row.fetchAll(db, sql: "SELECT pinId, holder, heartbeat FROM albumLease") {
                let beat: Double = row["heartbeat"]
                if !AlbumLease.isStale(beat, now: now) && !isGone(row["holder"]) { held.insert(row["pinId"]) }
            }
            return waiting.filter { !held.contains($0) }
        }
    }

    /// Who holds a pin's album lease and their last heartbeat, for tests and diagnostics.
    public func albumLease(pinID: Pin.ID) throws(StoreError) -> (holder: String, heartbeat: Double)? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT holder, heartbeat FROM albumLease WHERE pinId = ?", arguments: [pinID])
                .map { ($0["holder"], $0["heartbeat"]) }
        }
    }
}
