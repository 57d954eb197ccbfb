import Interactors

/// Runs `body` and returns its result with the diagnostics the library wrote meanwhile, which then do not reach
/// standard error: for a test that provokes one on purpose (a blocking wait that waits for held-back work, a
/// service that fails, a corrupt store moved aside) and asserts on it, so that a passing run prints nothing.
///
/// The capture is process-wide, as standard error is: what other code running at the same time reports is taken
/// too. Assert that the line you expect is among them, not that the lines are only yours.
///
/// ```swift
/// try Data("not JSON".utf8).write(to: notesURL)
/// let notes = FileDataSource<Note>(fileURL: notesURL, corruptFile: .moveAside)
/// let (all, diagnostics) = try withCapturedDiagnostics { try notes.getAll(AllObjectsQuery()).get() }
/// #expect(all.isEmpty)
/// #expect(diagnostics.contains { $0.contains("moved it aside") })
/// ```
public func withCapturedDiagnostics<T>(_ body: () throws -> T) rethrows -> (result: T, diagnostics: [String]) {
    let capture = DiagnosticCapture()
    defer { capture.close() }
    let result = try body()
    return (result, capture.lines)
}

/// Awaits `body` and returns its result with the diagnostics the library wrote meanwhile, which then do not reach
/// standard error (as the synchronous `withCapturedDiagnostics` does).
public func withCapturedDiagnostics<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> T
) async rethrows -> (result: T, diagnostics: [String]) {
    let capture = DiagnosticCapture()
    defer { capture.close() }
    let result = try await body()
    return (result, capture.lines)
}
