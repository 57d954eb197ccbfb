/// One progress handler and the fractions on their way to it.
///
/// Fractions are offered under the response's lock, so in the order they were accepted, and each subscriber
/// runs its handler from one drain at a time: a fraction reported meanwhile, from any thread, waits its turn or
/// replaces an older one not yet delivered. The handler hears a rising sequence, whichever threads report, and
/// however late it was added.
final class ProgressSubscriber: Sendable {
    private struct State {
        var pending: Double?
        var draining = false
    }

    private let handler: Handler<Double>
    private let state = LockedBox(State())
    /// Whether the response has settled (or is gone): progress is never delivered after settlement.
    private let responseIsDone: @Sendable () -> Bool

    init(_ handler: Handler<Double>, responseIsDone: @escaping @Sendable () -> Bool) {
        self.handler = handler
        self.responseIsDone = responseIsDone
    }

    /// Queues `fraction` (replacing one not delivered yet); returns whether the caller must start a drain with
    /// ``startDelivering()`` once it has released the response's lock.
    func offer(_ fraction: Double) -> Bool {
        state.withLock { state in
            state.pending = fraction
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
    }

    /// Delivers what is queued, now or in one hop to the handler's queue.
    func startDelivering() {
        guard let queue = handler.queue else { return deliverQueued() }
        queue.queue.schedule { self.deliverQueued() }
    }

    private func deliverQueued() {
        while let fraction = takePending() {
            if responseIsDone() { continue }
            handler.callback.invoke(with: .success(fraction))
        }
    }

    private func takePending() -> Double? {
        state.withLock { state in
            guard let fraction = state.pending else {
                state.draining = false
                return nil
            }
            state.pending = nil
            return fraction
        }
    }
}
