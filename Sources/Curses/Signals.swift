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
        writeBracketedPaste(on: false)
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
            writeBracketedPaste(on: false)
            endwin()
        }
    }
}

/// Bracketed paste mode: the terminal marks pasted text (`ESC [ 200 ~` … `ESC [ 201 ~`), so that a
/// paste is one edit. One write of a constant, so signal handlers may call it.
func writeBracketedPaste(on: Bool) {
    if on { writeConstant("\u{1B}[?2004h") } else { writeConstant("\u{1B}[?2004l") }
}

/// Writes a literal to the terminal with one write(2): nothing allocated, so signal handlers may call it.
private func writeConstant(_ text: StaticString) {
    _ = write(STDOUT_FILENO, text.utf8Start, text.utf8CodeUnitCount)
}

nonisolated(unsafe) private var suspendWrapped = false

/// Ctrl-Z: ncurses' own handler gives the terminal back, stops, and repaints on `fg`; around it,
/// plain paste while stopped and marked paste again after.
private func suspendWithPlainPaste(_ sig: Int32) {
    let savedErrno = errno
    writeBracketedPaste(on: false)
    if let handler = previousAction(SIGTSTP).pointee.__sigaction_handler.sa_handler { handler(sig) }
    writeBracketedPaste(on: true)
    errno = savedErrno
}

/// Wraps the SIGTSTP handler ncurses installed (none: Ctrl-Z stops with the screen as it is).
func installSuspendHandler() {
    guard !suspendWrapped else { return }
    var current = sigaction()
    guard sigaction(SIGTSTP, nil, &current) == 0, current.sa_flags & SA_SIGINFO == 0,
          let handler = current.__sigaction_handler.sa_handler,
          UInt(bitPattern: unsafeBitCast(handler, to: Int.self)) > 1 else { return }  // 0, 1: default, ignored
    if vt_install_signal_handler(SIGTSTP, suspendWithPlainPaste, previousAction(SIGTSTP), 1) == 0 {
        suspendWrapped = true
    }
}

/// Puts ncurses' SIGTSTP handler back, before ncurses lets the screen go.
func removeSuspendHandler() {
    guard suspendWrapped else { return }
    suspendWrapped = false
    _ = vt_restore_signal_handler(SIGTSTP, previousAction(SIGTSTP))
}
