import Testing
@testable import Terminal

@Suite struct ASCIIFallbackTests {
    func map(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars { out.append(asciiFallback(scalar)) }
        return String(out)
    }

    @Test func asciiIsUnchanged() {
        #expect(map("Hello, world! ~{}") == "Hello, world! ~{}")
    }

    @Test func boxDrawing() {
        #expect(map("┌─┬─┐") == "+-+-+")
        #expect(map("│ ┃ ║") == "| | |")
        #expect(map("╭═╮╰━╯") == "+-++-+")
    }

    @Test func brailleByDensity() {
        #expect(map("\u{2800}") == " ")
        #expect(map("\u{2801}") == ".")
        #expect(map("\u{2803}") == ":")
        #expect(map("\u{2807}") == "o")
        #expect(map("\u{283F}") == "O")
        #expect(map("\u{28FF}") == "#")
    }

    @Test func blocksByDensity() {
        #expect(map("█▓▒") == "#Oo") // 8, 6, 4 eighths
        #expect(map("▀▄▌") == "ooo")
    }

    @Test func whatTheWidgetsDrawReadsTheSameInASCII() {
        #expect(map("████░░░░") == "####----") // the album's progress bar
        #expect(map("> Na\u{2581}") == "> Na_") // the go-to prompt's cursor
        #expect(map("\u{2714}") == "*") // a marked photo, inside its frame
        #expect(map("\u{2717} failed") == "x failed")
        #expect(map("\u{00B7} \u{00B7} \u{00B7}") == ". . .")
        #expect(map("\u{25CF}\u{253C}") == "o+") // a pin, the map's cursor
        #expect(map(" \u{2502} ") == " | ")
    }

    @Test func arrowsAndBullets() {
        #expect(map("←→↑↓") == "<>^v")
        #expect(map("◀▶▲▼") == "<>^v")
        #expect(map("•●◦○") == "*ooo")
    }

    @Test func accentedLettersLoseTheirAccents() {
        #expect(map("Zürich São Paulo Łódź Ærø") == "Zurich Sao Paulo Lodz Aro")
    }

    @Test func everythingElseIsAQuestionMark() {
        #expect(map("東京") == "??")
        #expect(map("\u{1F600}") == "?")
        #expect(map("\u{FFFD}") == "?")
        #expect(map("\u{7}") == "?")
    }

    @Test func resultIsAlwaysPrintableASCII() {
        for v in UInt32(0)..<0x3000 {
            guard let s = Unicode.Scalar(v) else { continue }
            #expect((0x20..<0x7F).contains(asciiFallback(s).value))
        }
    }
}
