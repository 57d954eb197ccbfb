// MARK: Async

extension Response {
    /// The value, once the response succeeds; throws its error if it fails.
    ///
    /// ```swift
    /// let user = try await interactor.login(credentials).value
    /// ```
    ///
    /// Cancelling the awaiting task cancels the response.
    public var value: Value {
        get async throws {
            if let outcome = settledOutcome { return try outcome.get() }
            return try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { continuation in
                    addHandler(.result { continuation.resume(with: $0) }, on: .immediate)
                }
            } onCancel: {
                cancel()
            }
        }
    }
}
