import Model

extension AppState {
    /// A pin the store saved is a drop on its way: said done (whatever the screen now), and handed
    /// back (the map opens its album when Enter asked for it).
    mutating func dropSaved(_ pin: Pin) -> PendingDrop? {
        guard let i = pendingDrops.firstIndex(where: { $0.coordinate == pin.coordinate }) else { return nil }
        let drop = pendingDrops.remove(at: i)
        message = StatusMessage(drop.ack.done)
        return drop
    }

    /// A pin the store saved at the place a move on its way asked for: said done.
    mutating func moveSaved(_ pin: Pin) {
        guard let i = pendingMoves.firstIndex(where: { $0.pin == pin.id && $0.coordinate == pin.coordinate }) else { return }
        pendingMoves.remove(at: i)
        message = StatusMessage(Acknowledgment.pinMoved(pin.displayName).done)
    }
}
