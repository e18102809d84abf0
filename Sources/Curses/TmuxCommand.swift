import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a short command and reads what it prints, with posix_spawn and a pipe rather than
/// Foundation's Process, whose objects outlive a run (LeakSanitizer counts them at every start
/// inside tmux).
enum ShortCommand {
    /// Runs `program` (found on the PATH, the caller's environment) with `arguments` and returns
    /// its standard output; nil when it could not start, failed, or took longer than `timeoutMs`
    /// (then it is killed).
    static func output(_ program: String, _ arguments: [String], timeoutMs: Int) -> String? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        // Close-on-exec: no other child inherits the pipe (the child's standard output is a dup2 of it).
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let cArgs = ([program] + arguments).map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        let started = posix_spawnp(&pid, program, &actions, nil, cArgs, environ)
        close(writeEnd)
        guard started == 0 else { return nil }

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let deadline = monotonicMilliseconds() + timeoutMs
        var timedOut = false
        while true {
            let left = deadline - monotonicMilliseconds()
            if left <= 0 {
                timedOut = true
                break
            }
            var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(left))
            if ready < 0 {
                if errno == EINTR { continue }
                timedOut = true
                break
            }
            if ready == 0 { continue }
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output += chunk[0..<count]
        }
        if timedOut { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard !timedOut, status == 0 else { return nil }
        return String(decoding: output, as: UTF8.self)
    }
}
