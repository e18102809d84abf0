import Dispatch
import Foundation
import Terminal
import TouristRuntime

/// A scripted in-memory terminal for the album benchmark: events are handed over the moment the
/// loop asks, and every drawn frame is kept with the time it was handed to the terminal.
// @unchecked: the bench's thread and the UI loop share it; every var is touched only under `condition`.
final class BenchTerminal: AppTerminal, @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [Event] = []
    private var woken = false
    private var isShutDown = false
    /// Uptime in nanoseconds when the last event was handed to the loop.
    private var handedOver: UInt64 = 0
    private var frames: [(buffer: CellBuffer, time: UInt64)] = []
    let size: (width: Int, height: Int)
    let capabilities = TerminalCapabilities(unicode: true, colors: .trueColor)

    init(width: Int, height: Int) {
        size = (width, height)
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    // MARK: The runtime's side

    func nextEvent(timeoutMs: Int) -> Event? {
        locked {
            let deadline = Date(timeIntervalSinceNow: Double(max(0, timeoutMs)) / 1000)
            while events.isEmpty && !woken && timeoutMs != 0 {
                if timeoutMs < 0 {
                    condition.wait()
                } else if !condition.wait(until: deadline) {
                    break
                }
            }
            if !events.isEmpty {
                handedOver = BenchTerminal.now()
                return events.removeFirst()
            }
            woken = false
            return nil
        }
    }

    func draw(_ buffer: CellBuffer) {
        let time = BenchTerminal.now()
        locked {
            frames.append((buffer, time))
            condition.broadcast()
        }
    }

    func showInline(_ picture: InlinePicture?) {}

    var wakeUp: @Sendable () -> Void {
        { [weak self] in self?.wake() }
    }

    func shutdown() {
        locked {
            isShutDown = true
            condition.broadcast()
        }
    }

    private func wake() {
        locked {
            woken = true
            condition.broadcast()
        }
    }

    // MARK: The bench's side

    func press(_ keys: Key...) {
        locked {
            events += keys.map { .key($0) }
            condition.broadcast()
        }
    }

    var frameCount: Int { locked { frames.count } }

    /// When the last event was handed to the loop (uptime ns).
    var lastHandedOver: UInt64 { locked { handedOver } }

    /// Waits until every event sent was handed over.
    func waitUntilEventsAreTaken() {
        locked {
            while !events.isEmpty && !isShutDown { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.01)) }
        }
    }

    /// The first frame from index `mark` on that `matches` (checked off the lock, so the loop is
    /// never held up), with its time; nil after 30 s or a shutdown.
    func frame(after mark: Int, where matches: (CellBuffer) -> Bool) -> (index: Int, buffer: CellBuffer, time: UInt64)? {
        let giveUp = Date().addingTimeInterval(30)
        var next = mark
        while true {
            let (fresh, ended) = locked { () -> ([(buffer: CellBuffer, time: UInt64)], Bool) in
                if next >= frames.count && !isShutDown { _ = condition.wait(until: giveUp) }
                return (next < frames.count ? Array(frames[next...]) : [], isShutDown)
            }
            for (offset, frame) in fresh.enumerated() where matches(frame.buffer) {
                return (next + offset, frame.buffer, frame.time)
            }
            next += fresh.count
            if ended || Date() > giveUp { return nil }
        }
    }
}
