@preconcurrency import CNcursesw
#if canImport(Glibc)
import Glibc
#endif

// Signal handlers cannot capture context, so the little state they need is
// global. It is written only by the UI thread before handlers are installed
// and after they are removed.

/// True while ncurses owns the screen; read by the handlers and at exit.
nonisolated(unsafe) var cursesActive = false
/// The write end of the wake-up pipe, or -1; SIGWINCH writes "R" into it.
nonisolated(unsafe) var resizeNotifyFD: Int32 = -1
/// The dispositions found before ours, indexed by signal number.
nonisolated(unsafe) let previousActions: UnsafeMutableRawPointer =
    .allocate(byteCount: vt_sigaction_size() * 65, alignment: 16)

private func previousAction(_ sig: Int32) -> UnsafeMutablePointer<sigaction> {
    (previousActions + Int(sig) * vt_sigaction_size()).assumingMemoryBound(to: sigaction.self)
}

/// Signals that end the program: restore the terminal, then let the
/// previous disposition (default, or Swift's backtracer) do its work.
let terminatingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT,
                                   SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

private func restoreTerminalAndReraise(_ sig: Int32) {
    if cursesActive {
        cursesActive = false
        endwin()
    }
    _ = vt_restore_signal_handler(sig, previousAction(sig))
    // Delivered again once this handler returns, now with the old disposition.
    raise(sig)
}

private func notifyResize(_ sig: Int32) {
    let savedErrno = errno
    let fd = resizeNotifyFD
    if fd >= 0 {
        var byte = WakeReason.resize.rawValue
        _ = write(fd, &byte, 1)
    }
    errno = savedErrno
}

nonisolated(unsafe) private var installed = false

/// Installs the handlers. Called before ncurses starts, so ncurses keeps
/// its hands off SIGINT, SIGTERM and SIGWINCH (it only claims defaults).
func installSignalHandlers(resizeFD: Int32) {
    guard !installed else { return }
    installed = true
    resizeNotifyFD = resizeFD
    _ = vt_install_alternate_stack()
    for sig in terminatingSignals {
        // Crashes are always caught; ignored INT/TERM/HUP/QUIT stay ignored.
        let crash = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP].contains(sig)
        _ = vt_install_signal_handler(sig, restoreTerminalAndReraise, previousAction(sig), crash ? 0 : 1)
    }
    _ = vt_install_signal_handler(SIGWINCH, notifyResize, previousAction(SIGWINCH), 0)
}

/// Puts back the dispositions found at install time.
func removeSignalHandlers() {
    guard installed else { return }
    installed = false
    for sig in terminatingSignals + [SIGWINCH] {
        _ = vt_restore_signal_handler(sig, previousAction(sig))
    }
    resizeNotifyFD = -1
}

nonisolated(unsafe) private var exitHookRegistered = false

/// A program that calls exit() without shutting the terminal down still
/// gets its terminal back.
func registerExitHook() {
    guard !exitHookRegistered else { return }
    exitHookRegistered = true
    atexit {
        if cursesActive {
            cursesActive = false
            endwin()
        }
    }
}
