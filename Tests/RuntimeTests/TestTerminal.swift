import Locking
import Foundation
import Terminal
import TouristRuntime
import XCTest

/// A terminal the test scripts: events go in, every drawn frame is kept, and
/// a test can wait for a frame that shows what it expects.
// @unchecked: XCTest's threads and the UI loop share it; every var is touched only under `condition`.
final class TestTerminal: AppTerminal, @unchecked Sendable {
    private let condition = NSCondition()
    private var width: Int
    private var height: Int
    private var events: [Event] = []
    private var woken = false
    /// How often the runtime woke the loop (every message posted to it does).
    private var wakeUps = 0
    private var frames: [CellBuffer] = []
    private var inlinePictures: [InlinePicture?] = []
    private var isShutDown = false
    private var clipboard: [String] = []
    private var clipboardWorks = true
    let capabilities: TerminalCapabilities

    init(width: Int = 100, height: Int = 30,
         capabilities: TerminalCapabilities = TerminalCapabilities(unicode: true, colors: .trueColor)) {
        self.width = width
        self.height = height
        self.capabilities = capabilities
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    // MARK: The runtime's side

    var size: (width: Int, height: Int) { locked { (width, height) } }

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
                defer { condition.broadcast() }  // for `waitUntilEventsAreTaken`
                return events.removeFirst()
            }
            woken = false
            return nil
        }
    }

    func draw(_ buffer: CellBuffer) {
        locked {
            frames.append(buffer)
            condition.broadcast()
        }
    }

    func showInline(_ picture: InlinePicture?) {
        locked {
            inlinePictures.append(picture)
            condition.broadcast()
        }
    }

    func copyToClipboard(_ text: String) -> Bool {
        locked {
            guard clipboardWorks else { return false }
            clipboard.append(text)
            return true
        }
    }

    /// What was put on the clipboard, in order.
    var copied: [String] { locked { clipboard } }

    /// Whether the scripted terminal takes OSC 52 (most do; the Linux console does not).
    var takesClipboard: Bool {
        get { locked { clipboardWorks } }
        set { locked { clipboardWorks = newValue } }
    }

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
            wakeUps += 1
            woken = true
            condition.broadcast()
        }
    }

    // MARK: The test's side

    func send(_ scripted: Event...) {
        locked {
            events += scripted
            condition.broadcast()
        }
    }

    func press(_ keys: Key...) {
        for key in keys { send(.key(key)) }
    }

    /// Changes the size the way a terminal window does, and reports it.
    func resize(width: Int, height: Int) {
        locked {
            self.width = width
            self.height = height
            events.append(.resize(width: width, height: height))
            condition.broadcast()
        }
    }

    /// Makes the loop look round at once (a waiting `nextEvent` returns nil), as after a
    /// message, without counting as one of the runtime's wake-ups.
    func nudge() {
        locked {
            woken = true
            condition.broadcast()
        }
    }

    /// How often the runtime has woken the loop so far (a mark for `waitForWakeUp(after:)`).
    var wakeUpCount: Int { locked { wakeUps } }

    /// Waits until the runtime wakes the loop after `mark` wake-ups, i.e. until something (a
    /// poll, an album, a store write) has posted it a message; false if it never does.
    func waitForWakeUp(after mark: Int) -> Bool {
        locked {
            let giveUp = Date().addingTimeInterval(TestTerminal.hangLimit)
            while wakeUps <= mark {
                if !condition.wait(until: giveUp) { return false }
            }
            return true
        }
    }

    /// How many frames were drawn so far (a mark for `frame(after:where:)`).
    var frameCount: Int { locked { frames.count } }

    var lastFrame: CellBuffer? { locked { frames.last } }

    /// Every `showInline` call so far, in order (nil: the picture was taken away).
    var inlineShown: [InlinePicture?] { locked { inlinePictures } }

    var wasShutDown: Bool { locked { isShutDown } }

    /// The first frame drawn at index `mark` or later that satisfies `matches`, waiting for
    /// frames as they are drawn; nil if the terminal was shut down without one.
    func frame(after mark: Int = 0, where matches: (CellBuffer) -> Bool) -> CellBuffer? {
        // The wait only ends a hang (a frame that never comes fails the test instead of stalling the suite).
        frameIndex(after: mark, where: matches).map { index in locked { frames[index] } }
    }

    /// The index of the first frame from `mark` on that satisfies `matches`, waiting as `frame` does.
    func frameIndex(after mark: Int = 0, where matches: (CellBuffer) -> Bool) -> Int? {
        let giveUp = Date().addingTimeInterval(TestTerminal.hangLimit)
        return locked {
            var next = mark
            while true {
                while next < frames.count {
                    if matches(frames[next]) { return next }
                    next += 1
                }
                if isShutDown || !condition.wait(until: giveUp) { return nil }
            }
        }
    }

    /// The frames drawn from index `mark` on, as they are now (no wait).
    func frames(from mark: Int) -> [CellBuffer] {
        locked { Array(frames[min(mark, frames.count)...]) }
    }

    /// How long a wait goes on before it is taken for a hang.
    static let hangLimit: TimeInterval = 60

    /// The first frame from `mark` on whose text contains every one of `texts`.
    func frame(after mark: Int = 0, showing texts: String...) -> CellBuffer? {
        frame(after: mark) { buffer in
            let text = buffer.text
            return texts.allSatisfy(text.contains)
        }
    }

    /// Waits until the loop has taken every event sent (it acts on them before it asks for more).
    func waitUntilEventsAreTaken() {
        locked {
            let giveUp = Date().addingTimeInterval(TestTerminal.hangLimit)
            while !events.isEmpty && !isShutDown && condition.wait(until: giveUp) {}
        }
    }

    /// Waits until the runtime gave the terminal back.
    func waitForShutdown() {
        locked {
            let giveUp = Date().addingTimeInterval(TestTerminal.hangLimit)
            while !isShutDown && condition.wait(until: giveUp) {}
        }
    }
}

/// A clock the test moves by hand. A sleep on it (a write's pause between tries) lasts until the
/// test moves the clock past its deadline, or its alarm rings: no real time passes.
final class ManualClock: Sendable {
    private struct Sleeper: Sendable {
        let number: Int
        let deadline: Double
        let alarm: ClockAlarm
    }

    private struct State: Sendable {
        var seconds: Double = 0
        var sleepers: [Sleeper] = []
        var sleeps = 0
    }

    private let state = Locked(State())
    /// Signalled whenever a sleep begins or ends, for `waitForSleep`.
    private let changed = DispatchSemaphore(value: 0)

    var clock: AppClock {
        AppClock(now: { [self] in now }, sleep: { [self] deadline, alarm in sleep(until: deadline, alarm) })
    }

    var now: Double { state.withLock { $0.seconds } }

    func advance(by interval: Double) {
        let sleeping = state.withLock { state in
            state.seconds += interval
            return state.sleepers.map(\.alarm)
        }
        for alarm in sleeping { alarm.nudge() }
    }

    private func sleep(until deadline: Double, _ alarm: ClockAlarm) {
        let number = state.withLock { state in
            state.sleeps += 1
            state.sleepers.append(Sleeper(number: state.sleeps, deadline: deadline, alarm: alarm))
            return state.sleeps
        }
        changed.signal()
        defer {
            state.withLock { $0.sleepers.removeAll { $0.number == number } }
            changed.signal()
        }
        // The limit only ends a hang: a sleep nobody moves the clock for (the loop's own thread asleep) fails.
        let giveUp = DispatchTime.now() + TestTerminal.hangLimit
        while !alarm.isRung && now < deadline {
            guard DispatchTime.now() < giveUp else { return XCTFail("a sleep on the hand-moved clock was never woken") }
            alarm.doze(seconds: TestTerminal.hangLimit)
        }
    }

    /// The deadlines of the sleeps under way.
    var sleeping: [Double] { state.withLock { $0.sleepers.map(\.deadline) } }

    /// How many sleeps have begun so far (a mark for `waitForSleep(after:)`).
    var sleepCount: Int { state.withLock { $0.sleeps } }

    /// Waits until a sleep begun after `mark` sleeps is under way, and returns its deadline; nil if
    /// none begins (the limit only ends a hang).
    func waitForSleep(after mark: Int) -> Double? {
        let giveUp = DispatchTime.now() + TestTerminal.hangLimit
        while true {
            if let sleeper = state.withLock({ $0.sleepers.first { $0.number > mark } }) { return sleeper.deadline }
            guard changed.wait(timeout: giveUp) == .success else { return nil }
        }
    }
}
