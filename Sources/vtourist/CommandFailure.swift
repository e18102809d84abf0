import ArgumentParser
import Foundation
import Imaging
import PinFiles
import Store
import Terminal
import TextSafety

/// A failure reported as one line on stderr with a non-zero exit. The message often holds a
/// path or a stored name: it is kept to one line and obeys no escape sequence.
struct CommandFailure: Error, CustomStringConvertible {
    /// What went wrong, and so the exit status (SPEC 4). This is the one place a status is chosen.
    enum Kind: Sendable {
        /// The command line or what it names is wrong: bad usage, a value out of range, an unknown
        /// setting, a place that matches nothing, a file that is missing or not what it should be.
        case badInput
        /// Anything else: the database cannot be read or written, the disk is full, a search
        /// failed, no such pin.
        case failure
        /// A wait ran out (`drop --wait --timeout`) with the work left to resume: try again later.
        case tempFail

        /// 64 (EX_USAGE) for bad input, 75 (EX_TEMPFAIL) for a wait that ran out, 1 for any other failure.
        var status: Int32 {
            switch self {
            case .badInput: 64
            case .tempFail: 75
            case .failure: 1
            }
        }
    }

    let description: String
    let kind: Kind
    /// The store's own error, when that is what failed.
    let cause: StoreError?

    init(_ message: String, kind: Kind = .failure, cause: StoreError? = nil) {
        description = message.strippingTerminalControls
        self.kind = kind
        self.cause = cause
    }

    var status: Int32 { kind.status }

    /// Bad usage or input (exit status 64).
    static func badInput(_ message: String) -> CommandFailure { CommandFailure(message, kind: .badInput) }
}

extension ParsableCommand {
    /// Runs a body, turning failures into one line on stderr and their exit status.
    func reportingFailures(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as CommandFailure {
            StandardStream.error.write("vtourist: \(error.description)\n")
            throw ExitCode(error.status)
        }
    }
}

extension CommandFailure.Kind {
    /// A pin file that names nothing readable (missing, a folder) or holds something refused is bad
    /// input; one that exists but cannot be read is a failure.
    init(_ error: PinFileError) {
        switch error {
        case .unreadable: self = .failure
        case .missing, .folder, .empty, .neitherFormat, .jsonButNotGeoJSON, .malformedJSON, .malformedXML,
             .entityDeclarations, .badPoint, .badFilter: self = .badInput
        }
    }

    /// A picture the decoder refuses (empty, not a JPEG, too large, corrupt) is bad input.
    init(_ error: ImageError) {
        switch error {
        case .empty, .notJPEG, .tooLarge, .corrupt: self = .badInput
        }
    }

    /// Why a file named on the command line could not be opened (an `errno`): it is not there, or
    /// it is a folder, is bad input; anything else (no permission, an I/O error) is a failure.
    init(openingFileErrno code: Int32) {
        self = code == ENOENT || code == ENOTDIR || code == EISDIR ? .badInput : .failure
    }
}
