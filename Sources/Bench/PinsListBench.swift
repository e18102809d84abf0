import Dispatch
import Foundation
import Geo
import Model
import Terminal
import TouristCore

/// `vtourist-bench pins-list [RUNS]`: the pins list over 10,000 pins at 200x60: `P` on the map to the
/// frame with the list drawn (the names folded and ordered on the way), and one keystroke in the filter
/// field to the frame with the rows narrowed. Medians of RUNS runs.
enum PinsListBench {
    static let width = 200, height = 60
    static let openTargetMs = 50.0
    static let keystrokeTargetMs = 10.0

    /// Names with accents, spaces and hyphens, as the gazetteer gives them, numbered so each is its own.
    static let names = ["São Paulo", "Zürich", "Kraków", "Reykjavík", "Oslo", "Naples", "Saint-Étienne", "Łódź",
                        "Ra's al Khaymah", "Göteborg", "Córdoba", "Montréal", "Ålesund", "Tromsø", "Düsseldorf", "Lyon"]

    static func pins(count: Int) -> [Pin] {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        return benchmarkPins(count: count).enumerated().map { i, pin in
            var pin = pin
            pin.name = i % 7 == 0 ? nil : "\(names[i % names.count]) \(i)"
            pin.createdAt = start.addingTimeInterval(Double((i * 7919) % count) * 60)
            pin.photoCount = (i * 31) % 22
            pin.downloadedCount = pin.photoCount - (i % 3 == 0 ? 1 : 0)
            return pin
        }
    }

    static func fail(_ why: String) -> Never {
        StandardStream.error.write("vtourist-bench pins-list: \(why)\n")
        exit(1)
    }

    static func run(runs: Int) {
        let reducer = AppReducer(places: .none)
        var state = AppState(camera: MapCamera(centerX: 0.5, centerY: 0.5, zoom: 2, cursorX: 0.5, cursorY: 0.5),
                             width: width, height: height)
        state.capabilities = TerminalCapabilities(unicode: true, colors: .trueColor)
        state.pins = pins(count: 10_000)
        var opens: [Double] = []
        var keystrokes: [Double] = []
        let typed: [Character] = ["o", "s", "l"]
        for run in 0..<runs {
            // A fresh array each run, as a reload brings: nothing folded before is reused.
            state.pins = state.pins.map { $0 }
            var frame = CellBuffer(width: 1, height: 1)
            opens.append(milliseconds {
                _ = reducer.reduce(&state, .event(.key(.char("P")), time: 0))
                frame = AppView.render(state, raster: nil)
            })
            guard state.pinsList != nil, frame.text.contains("10000 pins") else { fail("P did not open the list") }
            _ = reducer.reduce(&state, .event(.key(.char("/")), time: 0))
            // One letter more each run, so the runs see different queries (o, os, osl, o, …).
            for letter in typed.prefix(run % typed.count + 1) {
                keystrokes.append(milliseconds {
                    _ = reducer.reduce(&state, .event(.key(.char(letter)), time: 0))
                    frame = AppView.render(state, raster: nil)
                })
            }
            guard let list = state.pinsList, list.count > 0, list.count < 10_000 else { fail("the filter did not narrow the rows") }
            _ = reducer.reduce(&state, .event(.key(.escape), time: 0))
            _ = reducer.reduce(&state, .event(.key(.escape), time: 0))
            guard state.map != nil else { fail("Esc did not close the list") }
        }
        print("Pins list: 10,000 pins, \(width)x\(height), true colour, \(runs) runs")
        report("pins list open", opens, target: openTargetMs)
        report("pins list keystroke", keystrokes, target: keystrokeTargetMs)
    }

    static func report(_ what: String, _ times: [Double], target: Double) {
        let sorted = times.sorted()
        print("  \(what) " + String(format: "median %.3f ms (min %.3f, max %.3f, n=%d)  [target < %g ms]",
                                    median(times), sorted.first ?? 0, sorted.last ?? 0, times.count, target))
    }
}
