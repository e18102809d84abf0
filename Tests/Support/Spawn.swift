import Foundation

/// Starts a program with exactly `environment` (nothing of the caller's), its
/// standard output and error going to files (or /dev/null) and standard input
/// from /dev/null. posix_spawn rather than Foundation's Process: Process can
/// miss the exit of a child whose own child (a tmux server) lives on, and
/// pipes can be held open by such daemons.
public func spawnProgram(_ executable: String, _ arguments: [String], environment: [String: String],
                         stdout: String = "/dev/null", stderr: String = "/dev/null") throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let env = environment.map { "\($0.key)=\($0.value)" }
    var cArgs = ([executable] + arguments).map { strdup($0) } + [nil]
    var cEnv = env.map { strdup($0) } + [nil]
    defer {
        cArgs.forEach { free($0) }
        cEnv.forEach { free($0) }
    }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, executable, &actions, nil, &cArgs, &cEnv)
    guard rc == 0 else { throw SpawnError(message: "cannot start \(executable): \(String(cString: strerror(rc)))") }
    return pid
}

/// Waits for a child; its exit status, or 128+N after signal N.
@discardableResult
public func waitForExit(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
}

public struct SpawnError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
