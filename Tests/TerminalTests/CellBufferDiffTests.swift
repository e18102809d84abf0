import Testing
@testable import Terminal

@Suite struct CellBufferDiffTests {
    let red = Style(fg: .rgb(255, 0, 0))

    @Test func nilPreviousRepaintsEverythingInStyleRuns() {
        var b = CellBuffer(width: 4, height: 2)
        b.put("ab", x: 1, y: 0, style: red)
        let runs = b.changes(from: nil)
        #expect(runs == [
            CellRun(x: 0, y: 0, style: .plain, symbols: [" "]),
            CellRun(x: 1, y: 0, style: red, symbols: ["a", "b"]),
            CellRun(x: 3, y: 0, style: .plain, symbols: [" "]),
            CellRun(x: 0, y: 1, style: .plain, symbols: [" ", " ", " ", " "]),
        ])
    }

    @Test func identicalBuffersHaveNoChanges() {
        var b = CellBuffer(width: 10, height: 3)
        b.put("hello", x: 2, y: 1, style: red)
        #expect(b.changes(from: b).isEmpty)
    }

    @Test func oneChangedCellIsOneRun() {
        let old = CellBuffer(width: 10, height: 3)
        var new = old
        new[4, 2] = Cell("x")
        #expect(new.changes(from: old) == [CellRun(x: 4, y: 2, style: .plain, symbols: ["x"])])
    }

    @Test func runsBreakAtUnchangedCellsAndStyleChanges() {
        let old = CellBuffer(width: 8, height: 1)
        var new = old
        new.put("ab", x: 0, y: 0)
        new.put("cd", x: 2, y: 0, style: red)
        new.put("e", x: 5, y: 0, style: red)
        #expect(new.changes(from: old) == [
            CellRun(x: 0, y: 0, style: .plain, symbols: ["a", "b"]),
            CellRun(x: 2, y: 0, style: red, symbols: ["c", "d"]),
            CellRun(x: 5, y: 0, style: red, symbols: ["e"]),
        ])
    }

    @Test func styleOnlyChangeIsReported() {
        let old = CellBuffer(width: 3, height: 1)
        var new = old
        new[1, 0] = Cell(" ", style: Style(attributes: .reverse))
        #expect(new.changes(from: old).map(\.x) == [1])
    }

    @Test func runsDoNotWrapAcrossRows() {
        let old = CellBuffer(width: 3, height: 2)
        var new = old
        new.put("xyz", x: 0, y: 0)
        new.put("uvw", x: 0, y: 1)
        #expect(new.changes(from: old).map(\.text) == ["xyz", "uvw"])
    }

    @Test func sizeChangeRepaintsEverything() {
        let old = CellBuffer(width: 3, height: 2)
        let new = CellBuffer(width: 4, height: 2)
        let runs = new.changes(from: old)
        #expect(runs.reduce(0) { $0 + $1.symbols.count } == 8)
    }

    @Test func emptyBufferHasNoRuns() {
        #expect(CellBuffer(width: 0, height: 0).changes(from: nil).isEmpty)
    }
}
