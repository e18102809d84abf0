import AlbumMachine
import Foundation
import Model
import Terminal
import TextSafety

/// The network as the screens say it: the map's `offline`, the album's wait and its countdown.
/// The words and the second each countdown moves live here only; views and the loop read them.
public enum NetworkStatus {
    /// The word the map's status line shows while the album service finds the network down.
    public static let offlineWord = "offline"

    /// An album's line while it waits. Online, one server failed and the network is fine:
    /// `the photo service is failing (<reason>), next try in 8 s` (a long reason after the countdown);
    /// only while the app is offline (or the wait has no next try) `waiting for the network (offline): <reason>`.
    public static func waitLine(_ wait: AlbumWait, report: NetworkReport, now: Double) -> String {
        guard !report.isOffline, let next = wait.nextTry else {
            let reason = (report.isOffline ? report.reason : nil) ?? wait.reason
            return "waiting for the network (offline): \(clean(reason))"
        }
        let reason = clean(wait.reason), retry = "next try in \(countdown(next - now))"
        // A long reason goes last, so that a row too narrow for it cuts the reason and keeps the countdown.
        guard reason.displayWidth > shortReason else { return "the photo service is failing (\(reason)), \(retry)" }
        return "the photo service is failing, \(retry): \(reason)"
    }

    /// The longest reason said in parentheses before the countdown: the whole line then fits on 80 columns.
    static let shortReason = 24

    /// Seconds left as the countdown shows them: whole seconds rounded up, minutes from two minutes on.
    public static func countdown(_ left: Double) -> String {
        let seconds = wholeSeconds(left)
        return seconds >= minutesFrom ? "\(minutes(seconds)) min" : "\(seconds) s"
    }

    /// Seconds left from which the countdown shows minutes.
    static let minutesFrom = 120

    static func minutes(_ seconds: Int) -> Int { (seconds + 59) / 60 }

    /// When the countdown to `nextTry`, shown at `now`, shows its next number; nil once it shows 0.
    /// A millisecond late, so that the number has surely moved when the loop wakes for it.
    public static func countdownDue(nextTry: Double, now: Double) -> Double? {
        let seconds = wholeSeconds(nextTry - now)
        guard seconds > 0 else { return nil }
        // The most seconds left that show another number: one less, or a minute less (or seconds again).
        let next = seconds >= minutesFrom ? max(60 * (minutes(seconds) - 1), minutesFrom - 1) : seconds - 1
        return nextTry - Double(next) + 0.001
    }

    static func wholeSeconds(_ left: Double) -> Int {
        guard left.isFinite, left > 0 else { return 0 }
        return Int(min(left, 1e9).rounded(.up))
    }

    /// A reason from the network (a server's words among them) as one line that obeys no escape.
    static func clean(_ reason: String) -> String {
        reason.strippingTerminalControls.trimmingCharacters(in: .whitespaces)
    }
}

extension AppState {
    /// What the open album waits for, while the album screen shows it downloading: nil otherwise
    /// (a report older than the album's last load does not bring back a wait that is over).
    public var shownWait: AlbumWait? {
        guard let album, album.snapshot?.status == .downloading else { return nil }
        return network.waits[album.pinID]
    }

    /// The open album's wait line, as its header shows it.
    public var shownWaitLine: String? {
        shownWait.map { NetworkStatus.waitLine($0, report: network, now: networkClock) }
    }

    /// When the countdown on screen moves next (the loop wakes then); nil when none is shown.
    public var countdownDue: Double? {
        guard !network.isOffline, let next = shownWait?.nextTry else { return nil }
        return NetworkStatus.countdownDue(nextTry: next, now: networkClock)
    }
}
