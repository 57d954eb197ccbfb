// MARK: Async

extension Response {
    /// The value, once the response succeeds; throws its error if it fails.
    ///
    /// ```swift
    /// let user = try await interactor.login(credentials).value
    /// ```
    ///
    /// The awaiting task is a consumer of the response: if the task is cancelled, it stops waiting at once with
    /// `CancellationError`, and the response is cancelled too unless another consumer (a derived response, another
    /// awaiting task) still needs it. A response committed to its outcome (``Resolver/commitToOutcome()``: a write
    /// that has begun) is not cancelled: the task waits on and gets that outcome.
    public var value: Value {
        get async throws {
            if let outcome = settledOutcome { return try outcome.get() }
            let retained = retainDemand()
            let waiter = ValueWaiter<Value>()
            return try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { continuation in
                    // Resumed already: the task was cancelled before it waited, and adds nothing.
                    guard waiter.install(continuation) else { return }
                    // Owned by the waiter: a cancelled task takes its handler back out with its demand, and if
                    // its cancellation let go before the handler was there to take, it is taken back here.
                    add(Handler(immediate: .result { waiter.resume(with: $0) }, ownedBy: waiter))
                    if waiter.isResumed { withdrawHandlers(ownedBy: waiter) }
                }
            } onCancel: {
                // Work this task alone waits for that has committed to its outcome: its outcome is the answer.
                if retained, !prepareCancellation(asSoleConsumer: true) { return }
                waiter.resume(with: .failure(CancellationError()))
                if retained { releaseDemand(of: waiter) }
            }
        }
    }
}

/// One task's wait for a response: resumed exactly once, by the outcome or by the task's cancellation, whichever
/// comes first, even if cancellation comes before the continuation exists.
private final class ValueWaiter<Value: Sendable>: Sendable {
    private enum State {
        case idle
        case waiting(UnsafeContinuation<Value, any Error>)
        case resolvedEarly(Result<Value, any Error>)
        case done
    }

    private let state = LockedBox(State.idle)

    /// Installs the task's continuation; resumes it at once, and returns `false`, if the outcome (a cancellation)
    /// came first.
    func install(_ continuation: UnsafeContinuation<Value, any Error>) -> Bool {
        let early = state.withLock { state -> Result<Value, any Error>? in
            if case .resolvedEarly(let outcome) = state {
                state = .done
                return outcome
            }
            state = .waiting(continuation)
            return nil
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    /// Whether the task has been resumed (or will be at once, on install).
    var isResumed: Bool {
        state.withLock { state in
            if case .waiting = state { return false }
            return true
        }
    }

    func resume(with outcome: Result<Value, any Error>) {
        let continuation = state.withLock { state -> UnsafeContinuation<Value, any Error>? in
            switch state {
            case .idle:
                state = .resolvedEarly(outcome)
                return nil
            case .waiting(let continuation):
                state = .done
                return continuation
            case .resolvedEarly, .done:
                return nil
            }
        }
        continuation?.resume(with: outcome)
    }
}
