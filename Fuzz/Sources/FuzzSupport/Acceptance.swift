import Foundation

/// How many inputs a target read as what it is meant to read (a page with photos, a picture, pins,
/// a coordinate, a valid setting): a parser that refused everything would trap nothing, so the
/// smoke run (`scripts/fuzz.py`) also requires the known-good seeds to be accepted.
public enum Acceptance {
    nonisolated(unsafe) private static var accepted = 0
    nonisolated(unsafe) private static var inputs = 0
    /// With VTOURIST_FUZZ_ACCEPTANCE set, each input's verdict is written to standard error, between
    /// libFuzzer's "Running: <file>" and "Executed <file>" lines.
    private static let perInput = ProcessInfo.processInfo.environment["VTOURIST_FUZZ_ACCEPTANCE"] != nil
    public static let acceptedLine = "vtourist-fuzz: accepted"
    public static let refusedLine = "vtourist-fuzz: refused"

    /// Once per input: whether the target accepted it.
    public static func note(_ wasAccepted: Bool) {
        inputs += 1
        if wasAccepted { accepted += 1 }
        if perInput { say(wasAccepted ? acceptedLine : refusedLine) }
    }

    /// The totals, when the process ends (libFuzzer ends with exit()).
    static func reportAtExit() {
        atexit {
            if Acceptance.inputs > 0 {
                Acceptance.say("vtourist-fuzz: accepted \(Acceptance.accepted) of \(Acceptance.inputs) inputs")
            }
        }
    }

    private static func say(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
