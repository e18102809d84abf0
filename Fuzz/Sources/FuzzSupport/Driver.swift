import CLibFuzzer
import Foundation

/// Runs libFuzzer over `testOneInput` with the process's command line (`-max_total_time=60`,
/// corpus folders, a crash file to replay…) and exits with its status.
public func runFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    Acceptance.reportAtExit()
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
}
