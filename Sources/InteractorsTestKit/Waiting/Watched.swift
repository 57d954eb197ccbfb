import Dispatch
import Interactors

/// A value that tests wait on, blocking or suspending, until it satisfies a condition or a timeout passes: a
/// probe's outcome, a spy's requests, a recorder's states.
///
/// Waiters are checked each time the value changes, under the lock (the conditions are the kit's own few
/// comparisons, never user code), and woken after it.
final class Watched<Value: Sendable>: Sendable {
    private struct Storage {
        var value: Value
        var waiters: [Waiter] = []
    }

    /// One wait. `satisfy` returns, when the value satisfies the wait, what wakes the waiting caller.
    private final class Waiter: Sendable {
        let satisfy: @Sendable (Value) -> (@Sendable () -> Void)?
        /// The async wait's timer, cancelled (and so released) once the wait is over.
        let timer = LockedBox<(any DispatchSourceTimer)?>(nil)

        init(_ satisfy: @escaping @Sendable (Value) -> (@Sendable () -> Void)?) {
            self.satisfy = satisfy
        }

        func cancelTimer() {
            timer.withLock { $0.take() }?.cancel()
        }
    }

    private let storage: LockedBox<Storage>

    init(_ value: Value) {
        self.storage = LockedBox(Storage(value: value))
    }

    /// The value now.
    var value: Value {
        storage.withLock { $0.value }
    }

    /// Changes the value with `body` (kit code: no user code, no waiting), then wakes the waits it satisfies.
    @discardableResult
    func modify<T>(_ body: (inout Value) -> T) -> T {
        let (result, satisfied) = storage.withLock { storage -> (T, [(Waiter, @Sendable () -> Void)]) in
            let result = body(&storage.value)
            guard !storage.waiters.isEmpty else { return (result, []) }
            var satisfied: [(Waiter, @Sendable () -> Void)] = []
            let value = storage.value
            storage.waiters.removeAll { waiter in
                guard let wakeUp = waiter.satisfy(value) else { return false }
                satisfied.append((waiter, wakeUp))
                return true
            }
            return (result, satisfied)
        }
        for (waiter, wakeUp) in satisfied {
            waiter.cancelTimer()
            wakeUp()
        }
        return result
    }

    // MARK: Blocking

    /// Blocks until `condition` returns a result for the value, and returns it; throws `timedOut(value)` if
    /// `deadline` (see ``deadline(after:)``) passes first.
    func wait<T: Sendable>(
        until condition: @escaping @Sendable (Value) -> T?,
        deadline: DispatchTime,
        timedOut: (Value) -> ResponseProbeError
    ) throws(ResponseProbeError) -> T {
        let wakeUp = DispatchSemaphore(value: 0)
        let found = LockedBox<T?>(nil)
        let waiter = Waiter { value in
            guard let result = condition(value) else { return nil }
            found.withLock { $0 = result }
            return { wakeUp.signal() }
        }
        if let result = register(waiter, ifNot: condition) { return result }
        if wakeUp.wait(timeout: deadline) == .success { return found.withLock { $0 }! }
        guard let value = unregister(waiter) else {
            // Satisfied while the wait timed out: its wake-up is on its way.
            wakeUp.wait()
            return found.withLock { $0 }!
        }
        throw timedOut(value)
    }

    // MARK: Suspending

    /// Suspends until `condition` returns a result for the value, and returns it; throws `timedOut(value)` if
    /// `timeout` passes first, and `CancellationError` if the task is cancelled first. Holds no thread meanwhile.
    func value<T: Sendable>(
        timeout: Duration,
        until condition: @escaping @Sendable (Value) -> T?,
        timedOut: @escaping @Sendable (Value) -> ResponseProbeError
    ) async throws -> T {
        if let result = condition(value) { return result }
        let cancelled = LockedBox<(@Sendable () -> Void)?>(nil)
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<T, any Error>) in
                let waiter = Waiter { value in
                    guard let result = condition(value) else { return nil }
                    return { continuation.resume(returning: result) }
                }
                // Whoever takes the waiter out of the list resumes the continuation: the value, the timer or
                // the task's cancellation, exactly one of them.
                let end: @Sendable (any Error) -> Void = { [weak self] error in
                    guard let self, self.unregister(waiter) != nil else { return }
                    continuation.resume(throwing: error)
                }
                if let result = register(waiter, ifNot: condition) {
                    continuation.resume(returning: result)
                    return
                }
                let timer = DispatchSource.makeTimerSource(queue: .global())
                timer.schedule(deadline: deadline(after: timeout))
                timer.setEventHandler { [weak self] in
                    guard let self else { return }
                    end(timedOut(self.value))
                }
                waiter.timer.withLock { $0 = timer }
                timer.resume()
                // Satisfied before the timer was stored: nobody else will cancel it.
                if !isRegistered(waiter) { waiter.cancelTimer() }
                cancelled.withLock { $0 = { end(CancellationError()) } }
                if Task.isCancelled { end(CancellationError()) }
            }
        } onCancel: {
            cancelled.withLock { $0 }?()
        }
    }

    // MARK: Registering

    /// Adds `waiter` unless `condition` already holds; then returns its result instead.
    private func register<T>(_ waiter: Waiter, ifNot condition: (Value) -> T?) -> T? {
        storage.withLock { storage in
            if let result = condition(storage.value) { return result }
            storage.waiters.append(waiter)
            return nil
        }
    }

    private func isRegistered(_ waiter: Waiter) -> Bool {
        storage.withLock { storage in storage.waiters.contains { $0 === waiter } }
    }

    /// Takes `waiter` out and cancels its timer; returns the value then, or `nil` if the waiter was gone (its wait
    /// was satisfied, or ended otherwise).
    private func unregister(_ waiter: Waiter) -> Value? {
        let value = storage.withLock { storage -> Value? in
            guard let index = storage.waiters.firstIndex(where: { $0 === waiter }) else { return nil }
            storage.waiters.remove(at: index)
            return storage.value
        }
        waiter.cancelTimer()
        return value
    }
}

/// The time `timeout` from now, for a wait: now if `timeout` is negative, in the far future if it is longer than
/// Dispatch can count.
func deadline(after timeout: Duration) -> DispatchTime {
    .now() + .nanoseconds(saturatingNanoseconds(timeout))
}

/// `duration` in nanoseconds, 0 if negative, `Int.max` if longer than that.
private func saturatingNanoseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0 else { return 0 }
    let (nanoseconds, overflow) = Int(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return .max }
    let (total, overflowAgain) = nanoseconds.addingReportingOverflow(Int(attoseconds / 1_000_000_000))
    return overflowAgain ? .max : total
}
