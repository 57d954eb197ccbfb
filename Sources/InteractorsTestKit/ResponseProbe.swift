import Dispatch
public import Interactors

/// Watches one response for a test: what it settled with, how many times its handler ran, and waits that end
/// in an error instead of hanging.
///
/// ```swift
/// let probe = ResponseProbe(interactor.execute(request))
/// #expect(try probe.waitForValue(timeout: .seconds(5)) == expected)
/// #expect(probe.deliveries == 1)
/// ```
///
/// The probe adds one `.immediate` handler to the response when it is made, and records what that handler
/// receives. The non-blocking properties say what it has received so far.
public final class ResponseProbe<Value: Sendable>: Sendable {
    private struct State {
        var outcome: Result<Value, any Error>?
        var deliveries = 0
        var waiters: [DispatchSemaphore] = []
    }

    private let response: Response<Value>
    private let state = LockedBox(State())

    /// Starts watching `response`.
    public init(_ response: Response<Value>) {
        self.response = response
        let state = self.state
        response.onResult(on: .immediate) { outcome in
            let waiters = state.withLock { state -> [DispatchSemaphore] in
                state.deliveries += 1
                if state.outcome == nil { state.outcome = outcome }
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.signal() }
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
        state.withLock { $0.deliveries }
    }

    /// Waits at most `timeout` for the outcome and returns the value; throws the response's error if it
    /// failed, and a ``ResponseProbeError`` with code ``ResponseProbeError/Code/timedOut`` that names the
    /// timeout if it did not settle in time.
    @available(*, noasync, message: "Blocking starves Swift concurrency's threads: use `try await response.value`")
    public func waitForValue(timeout: Duration) throws -> Value {
        try waitForOutcome(timeout: timeout).get()
    }

    /// Waits at most `timeout` for the outcome and returns the error it failed with; throws a
    /// ``ResponseProbeError``, with code ``ResponseProbeError/Code/succeeded`` if the response succeeded, or
    /// ``ResponseProbeError/Code/timedOut`` if it did not settle in time.
    @available(*, noasync, message: "Blocking starves Swift concurrency's threads: use `try await response.value`")
    public func waitForError(timeout: Duration) throws -> any Error {
        switch try waitForOutcome(timeout: timeout) {
        case .failure(let error): return error
        case .success(let value): throw ResponseProbeError.succeeded(with: value)
        }
    }

    private var outcome: Result<Value, any Error>? {
        state.withLock { $0.outcome }
    }

    private func waitForOutcome(timeout: Duration) throws(ResponseProbeError) -> Result<Value, any Error> {
        let deadline = DispatchTime.now() + .nanoseconds(Self.saturatingNanoseconds(timeout))
        // Blocking on the response first lets the library run work queued to the queue this thread is on, in
        // its place, as `get()` does; the probe's own handler runs right after the response settles.
        _ = try? response.get(timeout: timeout)
        let waiter = DispatchSemaphore(value: 0)
        let outcome = state.withLock { state -> Result<Value, any Error>? in
            if state.outcome == nil { state.waiters.append(waiter) }
            return state.outcome
        }
        if let outcome { return outcome }
        if waiter.wait(timeout: deadline) == .success, let outcome = self.outcome { return outcome }
        state.withLock { $0.waiters.removeAll { $0 === waiter } }
        if let outcome = self.outcome { return outcome }
        throw .timedOut(after: timeout)
    }

    /// `duration` in nanoseconds, 0 if negative, `Int.max` if longer than that.
    private static func saturatingNanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let (nanoseconds, overflow) = Int(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .max }
        let (total, overflowAgain) = nanoseconds.addingReportingOverflow(Int(attoseconds / 1_000_000_000))
        return overflowAgain ? .max : total
    }
}
