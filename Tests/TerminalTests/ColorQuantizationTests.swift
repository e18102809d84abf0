import Testing
@testable import Terminal

@Suite struct ColorQuantizationTests {
    @Test func defaultStaysDefaultAtEveryDepth() {
        for depth in [TerminalCapabilities.ColorDepth.none, .eight, .indexed256, .trueColor] {
            #expect(quantize(.default, to: depth) == .default)
        }
    }

    @Test func noColourDepthDropsColour() {
        #expect(quantize(.rgb(200, 10, 10), to: .none) == .default)
    }

    @Test func trueColourIsUnchanged() {
        #expect(quantize(.rgb(1, 2, 3), to: .trueColor) == .rgb(1, 2, 3))
    }

    @Test func cubeCornersMapExactly() {
        #expect(quantize(.rgb(0, 0, 0), to: .indexed256) == .indexed(16))
        #expect(quantize(.rgb(255, 255, 255), to: .indexed256) == .indexed(231))
        #expect(quantize(.rgb(255, 0, 0), to: .indexed256) == .indexed(196))
        #expect(quantize(.rgb(0, 255, 0), to: .indexed256) == .indexed(46))
        #expect(quantize(.rgb(0, 0, 255), to: .indexed256) == .indexed(21))
        #expect(quantize(.rgb(95, 135, 175), to: .indexed256) == .indexed(16 + 36 * 1 + 6 * 2 + 3))
    }

    @Test func greysUseTheGreyRamp() {
        #expect(quantize(.rgb(128, 128, 128), to: .indexed256) == .indexed(244)) // 128 = 8 + 10·12
        #expect(quantize(.rgb(8, 8, 8), to: .indexed256) == .indexed(232))
        #expect(quantize(.rgb(238, 238, 238), to: .indexed256) == .indexed(255))
        #expect(quantize(.rgb(30, 31, 29), to: .indexed256) == .indexed(234))
    }

    @Test func nearColoursPickTheNearestCubeEntry() {
        // Ocean blue (20, 60, 120): cube steps 0, 1 (95)? 60 → 1, 120 → 2.
        #expect(quantize(.rgb(20, 60, 120), to: .indexed256) == .indexed(16 + 0 + 6 * 1 + 2))
    }

    @Test func indexed256NeverUsesThemedColours() {
        for r in stride(from: 0, through: 255, by: 17) {
            for g in stride(from: 0, through: 255, by: 17) {
                for b in stride(from: 0, through: 255, by: 17) {
                    guard case .indexed(let i) = quantize(.rgb(UInt8(r), UInt8(g), UInt8(b)), to: .indexed256) else {
                        Issue.record("not indexed"); return
                    }
                    #expect((16...255).contains(i))
                }
            }
        }
    }

    @Test func eightColoursKeepTheHue() {
        #expect(quantize(.rgb(20, 60, 120), to: .eight) == .indexed(4))   // dark sea → blue
        #expect(quantize(.rgb(60, 120, 60), to: .eight) == .indexed(2))   // land → green
        #expect(quantize(.rgb(255, 165, 0), to: .eight) == .indexed(3))   // orange → yellow
        #expect(quantize(.rgb(200, 30, 30), to: .eight) == .indexed(1))
        #expect(quantize(.rgb(200, 30, 200), to: .eight) == .indexed(5))
        #expect(quantize(.rgb(30, 200, 200), to: .eight) == .indexed(6))
        #expect(quantize(.rgb(220, 220, 220), to: .eight) == .indexed(7))
        #expect(quantize(.rgb(60, 60, 60), to: .eight) == .indexed(0))
        #expect(quantize(.rgb(10, 10, 30), to: .eight) == .indexed(0))    // near black
    }

    @Test func colourNumbers() {
        #expect(TerminalColor.default.colorNumber == -1)
        #expect(TerminalColor.indexed(196).colorNumber == 196)
        #expect(TerminalColor.rgb(0x12, 0x34, 0x56).colorNumber == 0x123456)
        // Direct colour below 8 would be read as an ANSI colour.
        #expect(TerminalColor.rgb(0, 0, 5).colorNumber == 0x010101)
    }
}
