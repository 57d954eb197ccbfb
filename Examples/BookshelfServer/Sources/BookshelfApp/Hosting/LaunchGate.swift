import NIOConcurrencyHelpers

/// Where tasks wait for the registry's launch: they resume once it has succeeded, or throw its error once it has
/// failed. A waiting task that is cancelled stops waiting with `CancellationError`.
final class LaunchGate: Sendable {
    private enum State {
        case pending(waiters: [Int: CheckedContinuation<Void, any Error>], next: Int)
        case settled(Result<Void, any Error>)
    }

    private let state = NIOLockedValueBox(State.pending(waiters: [:], next: 0))

    /// Settles the gate once; later calls change nothing.
    func settle(_ outcome: Result<Void, any Error>) {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, any Error>] in
            guard case .pending(let waiters, _) = state else { return [] }
            state = .settled(outcome)
            return Array(waiters.values)
        }
        for waiter in waiters { waiter.resume(with: outcome) }
    }

    /// Returns once the gate succeeded; throws its error once it failed, or `CancellationError` if the task is
    /// cancelled first.
    func wait() async throws {
        let number = state.withLockedValue { state -> Int in
            guard case .pending(let waiters, let next) = state else { return -1 }
            state = .pending(waiters: waiters, next: next + 1)
            return next
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now = state.withLockedValue { state -> Result<Void, any Error>? in
                    switch state {
                    case .settled(let outcome):
                        return outcome
                    case .pending(var waiters, let next):
                        // Checked under the lock the cancellation handler takes, so a cancellation is never missed.
                        if Task.isCancelled { return .failure(CancellationError()) }
                        waiters[number] = continuation
                        state = .pending(waiters: waiters, next: next)
                        return nil
                    }
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state -> CheckedContinuation<Void, any Error>? in
                guard case .pending(var waiters, let next) = state else { return nil }
                let waiter = waiters.removeValue(forKey: number)
                state = .pending(waiters: waiters, next: next)
                return waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
