import Terminal

/// The screen and keyboard the runtime drives: ncurses in the app, a scripted
/// terminal in tests. Used from the UI loop's thread only, except `wakeUp`.
public protocol AppTerminal: AnyObject {
    /// The screen's size in cells.
    var size: (width: Int, height: Int) { get }
    /// What the terminal can show: decided at start, but for `inlineImages` (`detectInlinePictures`).
    var capabilities: TerminalCapabilities { get }
    /// Waits up to `timeoutMs` milliseconds (negative: for ever) for a key, a
    /// mouse report or a resize; nil on timeout or after `wakeUp`.
    func nextEvent(timeoutMs: Int) -> Event?
    /// Shows a whole frame (the terminal writes only what changed).
    func draw(_ buffer: CellBuffer)
    /// Shows a real picture over the cells by the terminal's inline image
    /// protocol (`capabilities.inlineImages`), or none with nil; called after
    /// every `draw`. Showing the picture already shown writes nothing.
    func showInline(_ picture: InlinePicture?)
    /// A cell's size in pixels where the terminal reports it (inline pictures are drawn to it).
    var cellPixelSize: (width: Int, height: Int)? { get }
    /// Settles `capabilities.inlineImages`, asking the terminal where the
    /// environment does not tell; called once, after the first frame is shown,
    /// so that the answer (or its timeout) never delays the start.
    func detectInlinePictures()
    /// A line for the user that detection left (how to let pictures through tmux), nil when none.
    var inlineHint: String? { get }
    /// Puts text on the system clipboard where the terminal allows it (OSC 52); false where it
    /// certainly cannot. From the UI loop's thread.
    func copyToClipboard(_ text: String) -> Bool
    /// Makes a waiting (or the next) `nextEvent` return nil; callable from any thread.
    var wakeUp: @Sendable () -> Void { get }
    /// Gives the terminal back; safe to call more than once.
    func shutdown()
}

extension AppTerminal {
    public var cellPixelSize: (width: Int, height: Int)? { nil }
    public func detectInlinePictures() {}
    public var inlineHint: String? { nil }
    public func copyToClipboard(_ text: String) -> Bool { false }
}
