import Foundation
import Gazetteer
import Terminal
import Geo
import WorldMap

/// The go-to prompt over the map: a place name (with completion) or `LAT, LON`.
struct GoToReducer: Sendable {
    var places: PlaceLookup

    /// Zoom the go-to prompt takes the map to, at least.
    static let goToZoom = 10
    /// Completions shown under the prompt.
    static let suggestionCount = 6

    func key(_ key: Key, _ prompt: GoToPrompt, _ state: inout AppState) -> [AppEffect] {
        var prompt = prompt
        switch GoToKeys.table.command(for: key) {
        case .cancel:
            state.setMapMode(.browsing)
            return []
        case .go:
            return goTo(prompt, &state)
        case .next:
            if let index = prompt.historyIndex {
                recall(index - 1, &prompt, history: state.goToHistory)
            } else if !prompt.suggestions.isEmpty {
                prompt.selected = (prompt.selected + 1) % prompt.suggestions.count
            }
        case .previous:
            if prompt.historyIndex != nil || prompt.field.isEmpty {
                recall((prompt.historyIndex ?? -1) + 1, &prompt, history: state.goToHistory)
            } else if !prompt.suggestions.isEmpty {
                prompt.selected = (prompt.selected + prompt.suggestions.count - 1) % prompt.suggestions.count
            }
        case .complete:
            if let pick = prompt.highlighted {
                prompt.field.replace(with: pick.name)
                refreshSuggestions(&prompt)
                prompt.selected = prompt.suggestions.firstIndex(of: pick) ?? 0
            }
        case let .edit(edit):
            changed(prompt.field.apply(edit), &prompt)
        case nil:
            // Every other character is typed.
            guard case .char = key, let outcome = prompt.field.handle(key) else { break }
            changed(outcome, &prompt)
        }
        state.setMapMode(.goTo(prompt))
        return []
    }

    /// Pasted text: one edit at the cursor.
    func paste(_ text: String, _ prompt: GoToPrompt, _ state: inout AppState) {
        var prompt = prompt
        changed(prompt.field.insert(text), &prompt)
        state.setMapMode(.goTo(prompt))
    }

    private func changed(_ outcome: TextField.Outcome, _ prompt: inout GoToPrompt) {
        switch outcome {
        case .unchanged, .moved:
            return
        case .edited:
            prompt.historyIndex = nil
            refreshSuggestions(&prompt)
        case .cut:
            prompt.historyIndex = nil
            refreshSuggestions(&prompt)
            prompt.error = prompt.field.cutMessage
        }
    }

    /// Shows the history's entry `index` (0: the most recent); below 0, the empty field again.
    private func recall(_ index: Int, _ prompt: inout GoToPrompt, history: [String]) {
        guard index < history.count else { return }
        prompt.field.replace(with: index >= 0 ? history[index] : "")
        refreshSuggestions(&prompt)
        prompt.historyIndex = index >= 0 ? index : nil
    }

    private func refreshSuggestions(_ prompt: inout GoToPrompt) {
        prompt.error = nil
        prompt.selected = 0
        let text = prompt.text.trimmingCharacters(in: .whitespaces)
        if text.isEmpty || parseCoordinates(text) != .notCoordinates {
            prompt.suggestions = []
        } else {
            prompt.suggestions = places.complete(text, GoToReducer.suggestionCount)
            // A damaged destinations file is said where the traveller looks; places still answer.
            prompt.error = places.problem()
        }
    }

    private func goTo(_ prompt: GoToPrompt, _ state: inout AppState) -> [AppEffect] {
        var prompt = prompt
        let text = prompt.text.trimmingCharacters(in: .whitespaces)
        let target: GeoPoint
        var extent: GeoBox?
        var wentTo: PlaceSuggestion?
        let arrived: String
        let remembered: String
        switch parseCoordinates(text) {
        case let .coordinate(point):
            target = point
            arrived = point.formatted()
            remembered = text
        case let .outOfRange(why):
            prompt.error = why
            state.setMapMode(.goTo(prompt))
            return []
        case .notCoordinates:
            if text.isEmpty {
                prompt.error = "Type a place name or LAT, LON."
                state.setMapMode(.goTo(prompt))
                return []
            }
            // The highlighted suggestion; the gazetteer's best match when the list was never made.
            guard let place = prompt.highlighted ?? places.named(text) else {
                prompt.error = "No place called \u{201C}\(text)\u{201D}."
                state.setMapMode(.goTo(prompt))
                return []
            }
            target = place.coordinate
            wentTo = place.kind == nil ? nil : place
            extent = place.extent
            arrived = place.displayName
            // Its full name finds this very place again, whatever was typed.
            remembered = place.displayName
        }
        state.wentToDestination = wentTo
        state.goToHistory.removeAll { $0 == remembered }
        state.goToHistory.insert(remembered, at: 0)
        state.goToHistory = Array(state.goToHistory.prefix(GoToPrompt.historyLength))
        state.setMapMode(.browsing)
        if let extent {
            state.camera.show(extent, cursor: target, width: state.width, height: state.mapHeight)
        } else {
            if state.camera.zoom < GoToReducer.goToZoom {
                state.camera.zoom = GoToReducer.goToZoom
            }
            state.camera.jump(to: target, width: state.width, height: state.mapHeight, recenter: true)
        }
        state.message = StatusMessage("Went to \(arrived).")
        return []
    }
}

extension MapCamera {
    /// The largest zoom at which `box` fits a map of `width`×`height` cells
    /// (the smallest zoom when it fits at none).
    static func zoomToFit(_ box: GeoBox, width: Int, height: Int) -> Int {
        var spanLon = box.east - box.west
        if spanLon < 0 { spanLon += 360 }  // across the antimeridian
        let spanX = spanLon / 360
        let spanY = Mercator.y(latitude: box.south) - Mercator.y(latitude: box.north)
        var zoom = Viewport.minZoom
        while zoom < Viewport.maxZoom {
            let dots = Viewport.baseWorldDots * Double(1 << (zoom + 1))
            guard spanX * dots <= Double(width * Viewport.dotsPerCellX),
                  spanY * dots <= Double(height * Viewport.dotsPerCellY) else { break }
            zoom += 1
        }
        return zoom
    }

    /// Shows all of `box`, centred, as large as fits, with the cursor on `cursor`.
    mutating func show(_ box: GeoBox, cursor: GeoPoint, width: Int, height: Int) {
        zoom = MapCamera.zoomToFit(box, width: width, height: height)
        var spanLon = box.east - box.west
        if spanLon < 0 { spanLon += 360 }
        let middleX = Mercator.x(longitude: box.west + spanLon / 2)
        centerX = middleX - middleX.rounded(.down)
        centerY = (Mercator.y(latitude: box.south) + Mercator.y(latitude: box.north)) / 2
        clampCenter(height: height)
        jump(to: cursor, width: width, height: height)
    }
}

/// What a key does in the go-to prompt; any other character is typed.
public enum GoToCommand: Equatable, Sendable {
    case cancel
    case go
    case next
    case previous
    case complete
    case edit(TextEdit)
}

/// The go-to prompt's keys, the text field's among them; its hint line is written from them.
public enum GoToKeys {
    public static let table = KeyTable<GoToCommand>([
        KeyBinding([[KeyEntry(.up, .previous), KeyEntry(.down, .next)]],
                   help: "pick a suggestion; on an empty line, earlier places", hint: "pick"),
        KeyBinding([[.tab]], .complete, help: "complete the name", hint: "completes"),
        KeyBinding([[.escape]], .cancel, help: "cancel", hint: "cancels"),
        KeyBinding([[.enter]], .go, help: "go to the highlighted place, or to LAT, LON"),
    ] + TextFieldKeys.bindings(GoToCommand.edit))
}
