import Interactors

/// Runs `body`, taking the library's diagnostics meanwhile instead of letting them reach standard error; answers
/// its result and the lines taken (the test kit's `withCapturedDiagnostics`, for a target without the test kit).
/// Process-wide: lines other tests provoke meanwhile are taken too, so assert that yours is among them.
func capturingDiagnostics<T>(_ body: () throws -> T) rethrows -> (result: T, diagnostics: [String]) {
    let capture = DiagnosticCapture()
    defer { capture.close() }
    let result = try body()
    return (result, capture.lines)
}
