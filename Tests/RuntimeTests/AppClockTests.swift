import Dispatch
import Foundation
import TouristRuntime
import XCTest

/// The live clock's sleep ends at its deadline or when its alarm rings, whichever comes first.
final class AppClockTests: XCTestCase {
    /// Sleeps on the live clock on a thread of its own, runs `meanwhile` once the thread is about to
    /// sleep, and says whether the sleep ended (the limit only ends a hang).
    func sleepEnds(until deadline: Double, _ alarm: ClockAlarm, meanwhile: () -> Void = {}) -> Bool {
        let starting = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        Thread {
            starting.signal()
            AppClock.live.sleep(deadline, alarm)
            ended.signal()
        }.start()
        starting.wait()
        meanwhile()
        return ended.wait(timeout: .now() + TestTerminal.hangLimit) == .success
    }

    func testAnAlarmRungFromAnotherThreadEndsAnHoursSleep() {
        let alarm = ClockAlarm()
        XCTAssertTrue(sleepEnds(until: AppClock.live.now() + 3600, alarm, meanwhile: alarm.ring))
        XCTAssertTrue(alarm.isRung)
    }

    func testASleepWithAnAlarmAlreadyRungEndsAtOnce() {
        let alarm = ClockAlarm()
        alarm.ring()
        XCTAssertTrue(sleepEnds(until: AppClock.live.now() + 3600, alarm))
    }

    func testASleepWhoseDeadlineHasPassedEndsAtOnce() {
        let alarm = ClockAlarm()
        XCTAssertTrue(sleepEnds(until: AppClock.live.now() - 1, alarm))
        XCTAssertFalse(alarm.isRung, "nothing rang it")
    }
}
