import GRDB
import Model

extension AppDatabase {
    /// Spends one request of `host`'s budget at `now` (seconds on the wall clock): 0 when granted
    /// (the token is spent), else the seconds until a token is there (nothing spent). One IMMEDIATE
    /// transaction, so two processes never both spend the last token. A host not seen yet starts
    /// with a full bucket; a clock set back refills nothing.
    public func spendRequest(host: String, now: Double, budget: RequestBudget) throws(StoreError) -> Double {
        try writeImmediate { db in
            let row = try Row.fetchOne(db, sql: "SELECT tokens, updatedAt FROM requestBudget WHERE host = ?", arguments: [host])
            let stored: (tokens: Double, updatedAt: Double)? = row.map { ($0["tokens"], $0["updatedAt"]) }
            let stamp = now.isFinite ? now : (stored?.updatedAt ?? 0)
            var tokens = budget.capacity
            if let stored {
                let elapsed = max(0, stamp - stored.updatedAt)
                let left = stored.tokens.isFinite ? max(0, stored.tokens) : 0
                tokens = min(budget.capacity, left + elapsed * budget.perSecond)
            }
            // Within a rounding error of a whole token counts as one, so a caller that waits exactly
            // the time returned is granted.
            let granted = tokens + Self.tokenTolerance >= 1
            if granted { tokens = max(0, tokens - 1) }
            try db.execute(sql: "INSERT OR REPLACE INTO requestBudget (host, tokens, updatedAt) VALUES (?, ?, ?)",
                           arguments: [host, tokens, stamp])
            return granted ? 0 : (1 - tokens) / budget.perSecond
        }
    }

    static let tokenTolerance = 1e-9
}
