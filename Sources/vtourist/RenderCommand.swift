import ArgumentParser
import Curses
import Foundation
import Imaging
import Terminal

/// `vtourist render IMAGE [--size COLSxROWS]` (SPEC 4): a JPEG printed with the album's renderer.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a JPEG picture to the terminal with the renderer the album uses.",
        discussion: """
            The picture keeps its aspect inside the box: --size, else the terminal's width and height \
            (less one row), else 80x24. Colours and symbols follow the terminal: true colour where \
            COLORTERM says so, 256, 8, none with NO_COLOR; ASCII without a UTF-8 locale.
            """)

    @Argument(help: ArgumentHelp("A JPEG file.", valueName: "image")) var image: String

    @Option(name: .long, help: ArgumentHelp("The box to fit the picture in, e.g. 80x40.", valueName: "COLSxROWS"))
    var size: String?

    func validate() throws {
        if let size, Render.box(size) == nil {
            throw ValidationError("--size takes COLSxROWS with each from 1 to 1000, e.g. 80x40 (got \u{201C}\(size)\u{201D})")
        }
    }

    /// `COLSxROWS` with both sides 1…1000, or nil.
    static func box(_ text: String) -> (columns: Int, rows: Int)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let c = Int(parts[0]), let r = Int(parts[1]),
              (1...1000).contains(c), (1...1000).contains(r) else { return nil }
        return (c, r)
    }

    func run() throws {
        try reportingFailures { try Render.print(image: image, size: size.flatMap(Render.box)) }
    }

    /// The arguments of the plain form `render IMAGE [--size COLSxROWS]` (in any order, the size
    /// valid), read without the argument parser; nil for anything else, which the parser handles with
    /// its messages and help. Start-up is a good part of a render's time, and the parser's first run
    /// costs about a millisecond of Swift runtime type lookups.
    static func plainArguments(_ arguments: [String]) -> (image: String, size: (columns: Int, rows: Int)?)? {
        guard arguments.first == "render" else { return nil }
        var image: String?
        var size: (columns: Int, rows: Int)?
        var rest = arguments.dropFirst()
        while let word = rest.popFirst() {
            if word == "--size", let value = rest.popFirst(), size == nil, let box = box(value) {
                size = box
            } else if word.hasPrefix("--size="), size == nil, let box = box(String(word.dropFirst(7))) {
                size = box
            } else if !word.hasPrefix("-"), image == nil {
                image = word
            } else {
                return nil
            }
        }
        return image.map { ($0, size) }
    }

    /// Prints the picture fitted to `size`, else to the terminal.
    static func print(image: String, size: (columns: Int, rows: Int)?) throws {
        let data = try Render.read(image)
        let box: (columns: Int, rows: Int)
        if let size { box = size } else { box = Render.terminalBox() }
        do throws(ImageError) {
            let source = try JPEGDecoder.dimensions(data)
            // Only the fitted box is printed: no blank margin lines.
            let fit = PictureRenderer.fitted(imageWidth: source.width, imageHeight: source.height,
                                             columns: box.columns, rows: box.rows)
            // Decoded on a thread of its own at the renderer's pixels a cell (PictureRenderer.decodeBox);
            // meanwhile the terminal's capabilities and chafa's tables, which the decode does not need.
            let decodeBox = PictureRenderer.decodeBox(fit)
            let decoding = BackgroundDecode(data, fitting: decodeBox.width, decodeBox.height)
            let capabilities = TerminalProbe.capabilities()
            let renderer = PictureRenderer(capabilities: capabilities)
            renderer.warmUp()
            let picture = try decoding.picture()
            let cells = renderer.render(picture, columns: fit.columns, rows: fit.rows)
            StandardStream.output.write(cells.ansiBytes(depth: capabilities.colors))
        } catch {
            throw CommandFailure("\(image): \(error)", kind: CommandFailure.Kind(error))
        }
    }

    /// The file's bytes, read with plain system calls (Foundation's file APIs cost this short-lived
    /// command a few hundred microseconds of runtime type lookups), or a one-line reason.
    static func read(_ path: String) throws -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            let reason = code == ENOENT ? "no such file" : code == EACCES ? "permission denied" : String(cString: strerror(code))
            throw CommandFailure("cannot read \(path): \(reason)", kind: CommandFailure.Kind(openingFileErrno: code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw CommandFailure("cannot read \(path): \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw CommandFailure.badInput("cannot read \(path): it is a folder") }
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: max(1 << 16, Int(info.st_size) + 1))
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return Data(bytes)
    }

    /// The terminal's size less a row for the prompt, or 80×24 when stdout is not a terminal.
    static func terminalBox() -> (columns: Int, rows: Int) {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 1 {
            return (Int(size.ws_col), Int(size.ws_row) - 1)
        }
        return (80, 24)
    }
}

/// A JPEG decoded on a thread of its own while the caller does other work.
private final class BackgroundDecode: @unchecked Sendable {
    // Written once by the decoding thread before `done` is signalled, read only after waiting on it.
    private var result: Result<RGBImage, ImageError> = .failure(.empty)
    private let done = DispatchSemaphore(value: 0)

    init(_ data: Data, fitting width: Int, _ height: Int) {
        Thread { [self] in
            result = Result { () throws(ImageError) -> RGBImage in try JPEGDecoder.decode(data, fitting: width, height) }
            done.signal()
        }.start()
    }

    /// The decoded picture, waiting for the decode to end.
    func picture() throws(ImageError) -> RGBImage {
        done.wait()
        return try result.get()
    }
}
