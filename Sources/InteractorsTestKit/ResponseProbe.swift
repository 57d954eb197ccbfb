import Dispatch
public import Interactors

/// Watches one response for a test: what it settled with, how many times its handler ran, and waits that end
/// in an error instead of hanging.
///
/// ```swift
/// let probe = ResponseProbe(interactor.execute(request))
/// #expect(try await probe.value(timeout: .seconds(5)) == expected)
/// #expect(probe.deliveries == 1)
/// ```
///
/// The probe adds one `.immediate` handler to the response when it is made, and records what that handler
/// receives. The non-blocking properties say what it has received so far. In an `async` test, wait with
/// ``value(timeout:)`` and ``error(timeout:)``, which suspend; ``waitForValue(timeout:)`` and
/// ``waitForError(timeout:)`` block their thread, for synchronous tests and other callers off Swift
/// Concurrency's pool (a blocked pool thread is one fewer to run the tasks the response may wait for).
public final class ResponseProbe<Value: Sendable>: Sendable {
    private struct State {
        var outcome: Result<Value, any Error>?
        var deliveries = 0
    }

    private let response: Response<Value>
    private let state = Watched(State())

    /// Starts watching `response`.
    public init(_ response: Response<Value>) {
        self.response = response
        let state = self.state
        response.onResult(on: .immediate) { outcome in
            state.modify { state in
                state.deliveries += 1
                if state.outcome == nil { state.outcome = outcome }
            }
        }
    }

    /// Whether the probe's handler has received the outcome.
    public var isDone: Bool {
        outcome != nil
    }

    /// The value, if the response has succeeded; never waits.
    public var value: Value? {
        try? outcome?.get()
    }

    /// The error, if the response has failed (cancellation included); never waits.
    public var error: (any Error)? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    /// How many times the probe's handler ran: 0 while pending, and 1 once settled, if the response delivers
    /// exactly once, as it must.
    public var deliveries: Int {
        state.value.deliveries
    }

    // MARK: Waiting, suspended

    /// Waits at most `timeout` for the outcome, suspended (no thread is held), and returns the value; throws the
    /// response's error if it failed, and a ``ResponseProbeError`` with code ``ResponseProbeError/Code/timedOut``
    /// that names the timeout if it did not settle in time.
    ///
    /// ```swift
    /// @Test func loadsTheProfile() async throws {
    ///     let probe = ResponseProbe(interactor.execute(ProfileRequest(userID: 7)))
    ///     #expect(try await probe.value(timeout: .seconds(5)).name == "ada")
    /// }
    /// ```
    ///
    /// The probe only watches: the response is not cancelled if the wait times out or its task is cancelled
    /// (which throws `CancellationError`).
    public func value(timeout: Duration) async throws -> Value {
        try await outcome(timeout: timeout).get()
    }

    /// Waits at most `timeout` for the outcome, suspended, and returns the error it failed with; throws a
    /// ``ResponseProbeError``, with code ``ResponseProbeError/Code/succeeded`` if the response succeeded, or
    /// ``ResponseProbeError/Code/timedOut`` if it did not settle in time.
    public func error(timeout: Duration) async throws -> any Error {
        try Self.error(in: await outcome(timeout: timeout))
    }

    private func outcome(timeout: Duration) async throws -> Result<Value, any Error> {
        try await state.value(timeout: timeout, until: \.outcome) { _ in .timedOut(after: timeout) }
    }

    // MARK: Waiting, blocked

    /// Waits at most `timeout` for the outcome, blocking this thread, and returns the value; throws the
    /// response's error if it failed, and a ``ResponseProbeError`` with code ``ResponseProbeError/Code/timedOut``
    /// that names the timeout if it did not settle in time.
    ///
    /// For synchronous tests and threads off Swift Concurrency's pool; in `async` code use
    /// ``value(timeout:)``.
    @available(
        *,
        noasync,
        message: "Blocking starves Swift concurrency's threads: use `try await probe.value(timeout:)`"
    )
    public func waitForValue(timeout: Duration) throws -> Value {
        try waitForOutcome(timeout: timeout).get()
    }

    /// Waits at most `timeout` for the outcome, blocking this thread, and returns the error it failed with;
    /// throws a ``ResponseProbeError``, with code ``ResponseProbeError/Code/succeeded`` if the response succeeded,
    /// or ``ResponseProbeError/Code/timedOut`` if it did not settle in time.
    ///
    /// For synchronous tests and threads off Swift Concurrency's pool; in `async` code use
    /// ``error(timeout:)``.
    @available(
        *,
        noasync,
        message: "Blocking starves Swift concurrency's threads: use `try await probe.error(timeout:)`"
    )
    public func waitForError(timeout: Duration) throws -> any Error {
        try Self.error(in: waitForOutcome(timeout: timeout))
    }

    private var outcome: Result<Value, any Error>? {
        state.value.outcome
    }

    private func waitForOutcome(timeout: Duration) throws(ResponseProbeError) -> Result<Value, any Error> {
        let deadline = deadline(after: timeout)
        // Blocking on the response first lets the library run work queued to the queue this thread is on, in
        // its place, as `get()` does; the probe's own handler runs right after the response settles.
        _ = try? response.get(timeout: timeout)
        return try state.wait(until: \.outcome, deadline: deadline) { _ in .timedOut(after: timeout) }
    }

    /// The error `outcome` failed with; ``ResponseProbeError/Code/succeeded`` if it succeeded.
    private static func error(in outcome: Result<Value, any Error>) throws -> any Error {
        switch outcome {
        case .failure(let error): return error
        case .success(let value): throw ResponseProbeError.succeeded(with: value)
        }
    }
}
