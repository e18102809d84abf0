import Foundation
import Gazetteer
import Terminal
import WorldMap

/// The go-to prompt over the map: a place name (with completion) or `LAT, LON`.
struct GoToReducer: Sendable {
    var places: PlaceLookup

    /// Zoom the go-to prompt takes the map to, at least.
    static let goToZoom = 10
    /// Completions shown under the prompt.
    static let suggestionCount = 6
    /// The longest text the prompt takes.
    static let maxLength = 80

    func key(_ key: Key, _ prompt: GoToPrompt, _ state: inout AppState) -> [AppEffect] {
        var prompt = prompt
        switch GoToKeys.table.command(for: key) {
        case .cancel:
            state.setMapMode(.browsing)
            return []
        case .go:
            return goTo(prompt, &state)
        case .erase:
            if !prompt.text.isEmpty { prompt.text.removeLast() }
            refreshSuggestions(&prompt)
        case .clear:
            prompt.text = ""
            refreshSuggestions(&prompt)
        case .next:
            if !prompt.suggestions.isEmpty {
                prompt.selected = min((prompt.selected ?? -1) + 1, prompt.suggestions.count - 1)
            }
        case .previous:
            if let s = prompt.selected { prompt.selected = s > 0 ? s - 1 : nil }
        case .complete:
            if let pick = prompt.selected.map({ prompt.suggestions[$0] }) ?? prompt.suggestions.first {
                prompt.text = pick.name
                refreshSuggestions(&prompt)
                prompt.selected = prompt.suggestions.firstIndex(of: pick)
            }
        case nil:
            // Every other character is typed.
            guard case let .char(c) = key, prompt.text.count < GoToReducer.maxLength else { break }
            prompt.text.append(c)
            refreshSuggestions(&prompt)
        }
        state.setMapMode(.goTo(prompt))
        return []
    }

    private func refreshSuggestions(_ prompt: inout GoToPrompt) {
        prompt.error = nil
        prompt.selected = nil
        let text = prompt.text.trimmingCharacters(in: .whitespaces)
        if text.isEmpty || parseCoordinates(text) != .notCoordinates {
            prompt.suggestions = []
        } else {
            prompt.suggestions = places.complete(text, GoToReducer.suggestionCount)
        }
    }

    private func goTo(_ prompt: GoToPrompt, _ state: inout AppState) -> [AppEffect] {
        var prompt = prompt
        let text = prompt.text.trimmingCharacters(in: .whitespaces)
        let target: GeoPoint
        let arrived: String
        switch parseCoordinates(text) {
        case let .coordinate(point):
            target = point
            arrived = point.formatted()
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
            guard let place = prompt.selected.map({ prompt.suggestions[$0] }) ?? places.named(text) else {
                prompt.error = "No place called \u{201C}\(text)\u{201D}."
                state.setMapMode(.goTo(prompt))
                return []
            }
            target = place.coordinate
            arrived = place.displayName
        }
        state.setMapMode(.browsing)
        if state.camera.zoom < GoToReducer.goToZoom {
            state.camera.zoom = GoToReducer.goToZoom
        }
        state.camera.jump(to: target, width: state.width, height: state.mapHeight, recenter: true)
        state.message = StatusMessage("Went to \(arrived).")
        return []
    }
}

/// What a key does in the go-to prompt; any other character is typed.
public enum GoToCommand: Equatable, Sendable {
    case cancel
    case go
    case erase
    case clear
    case next
    case previous
    case complete
}

/// The go-to prompt's keys; its hint line is written from them.
public enum GoToKeys {
    public static let table = KeyTable<GoToCommand>([
        KeyBinding([[KeyEntry(.up, .previous), KeyEntry(.down, .next)]], help: "pick a suggestion", hint: "pick"),
        KeyBinding([[.tab]], .complete, help: "complete the name", hint: "completes"),
        KeyBinding([[.escape]], .cancel, help: "cancel", hint: "cancels"),
        KeyBinding([[.enter]], .go, help: "go there"),
        KeyBinding([[.backspace]], .erase, help: "erase a character"),
        KeyBinding([[.control("u")]], .clear, help: "clear the text"),
    ])
}
