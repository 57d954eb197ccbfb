import NIOConcurrencyHelpers
import PostgresNIO

/// The deadline of ``withDeadline(_:_:)`` passed first.
struct DeadlinePassed: Error {}

/// What `operation` returns, run in a task of its own; ``DeadlinePassed`` once `deadline` passes first, or
/// `CancellationError` as soon as the calling task is cancelled. Either way the operation's task is cancelled and
/// left to end on its own, not awaited.
///
/// Not a task group: a group's scope waits for every child, and PostgresNIO 1.33 never answers a query written on
/// a connection that has just closed (`PostgresConnection.query` writes it with no promise, and a closed channel
/// drops it), which the server's shutdown does to every connection of the pool. Such a call would hang, and its
/// request with it; here it answers at its deadline, and the stuck task (which holds a lease of a connection the
/// pool has already let go) is what is left behind.
func withDeadline<T: Sendable>(
    _ deadline: Duration,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = Outcome<T>()
    let task = Task {
        do {
            outcome.settle(.success(try await operation()))
        } catch {
            outcome.settle(.failure(error))
        }
    }
    // On an event loop of the pool's: a timer that costs no task and no thread.
    let timer = PostgresClient.defaultEventLoopGroup.any().scheduleTask(
        in: .nanoseconds(Int64(deadline / .nanoseconds(1)))
    ) {
        outcome.settle(.failure(DeadlinePassed()))
        task.cancel()
    }
    defer { timer.cancel() }
    return try await withTaskCancellationHandler {
        try await outcome.value()
    } onCancel: {
        outcome.settle(.failure(CancellationError()))
        task.cancel()
    }
}

/// The first outcome settled, handed to the one task that awaits it (whether it waits already or not yet).
private final class Outcome<T: Sendable>: Sendable {
    private enum State {
        case pending(CheckedContinuation<T, any Error>?)
        case settled(Result<T, any Error>)
        case delivered
    }

    private let state = NIOLockedValueBox(State.pending(nil))

    /// Settles the outcome; later calls change nothing.
    func settle(_ result: Result<T, any Error>) {
        let waiter = state.withLockedValue { state -> CheckedContinuation<T, any Error>? in
            guard case .pending(let waiter) = state else { return nil }
            state = waiter == nil ? .settled(result) : .delivered
            return waiter
        }
        waiter?.resume(with: result)
    }

    /// The outcome, once settled.
    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let early = state.withLockedValue { state -> Result<T, any Error>? in
                guard case .settled(let result) = state else {
                    state = .pending(continuation)
                    return nil
                }
                state = .delivered
                return result
            }
            if let early { continuation.resume(with: early) }
        }
    }
}
