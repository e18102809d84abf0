/// The go-to prompt: the text field, the completions with one highlighted, and where the
/// history stands.
public struct GoToPrompt: Equatable, Sendable {
    public var field: TextField
    /// Best match first, as the gazetteer ranks them.
    public var suggestions: [PlaceSuggestion]
    /// The highlighted suggestion, where Enter goes: the first until ↑/↓ pick another.
    public var selected: Int
    /// Why the last Enter did nothing, or why text was left out.
    public var error: String?
    /// The earlier entry shown (0: the most recent) while ↑/↓ walk the history; nil once the text is edited.
    public var historyIndex: Int?

    public init(text: String = "", suggestions: [PlaceSuggestion] = [], selected: Int = 0, error: String? = nil,
                historyIndex: Int? = nil) {
        field = TextField(text, maxLength: GoToPrompt.maxLength)
        self.suggestions = suggestions
        self.selected = selected
        self.error = error
        self.historyIndex = historyIndex
    }

    /// The longest text the prompt takes.
    public static let maxLength = 80
    /// Entries the history keeps.
    public static let historyLength = 50

    public var text: String { field.text }

    /// The suggestion Enter goes to, if there is one.
    public var highlighted: PlaceSuggestion? {
        suggestions.indices.contains(selected) ? suggestions[selected] : nil
    }
}
