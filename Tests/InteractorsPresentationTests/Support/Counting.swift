import InteractorsPresentation

/// A screen state for the tests: a list of the actions translated, in order.
struct Log: Sendable, Equatable {
    var entries: [String] = []
}

/// Appends each action's description to the log.
struct LogTranslator<Action: Sendable>: Translator {
    func translate(_ action: Action, state: inout Log) {
        state.entries.append("\(action)")
    }
}
