import Dispatch
import Synchronization

/// The floor reference: about the least a thread-safe future can be. One object holding a `Mutex`, the value and
/// an inline first handler; more handlers in an array; each handler for a queue gets its own `async` (no
/// batching). It is its own resolver.
final class MutexFuture<Value: Sendable>: Sendable {
    typealias Callback = @Sendable (Value) -> Void

    private struct Handler: Sendable {
        let queue: DispatchQueue?
        let callback: Callback

        func run(with value: Value) {
            if let queue {
                queue.async { self.callback(value) }
            } else {
                callback(value)
            }
        }
    }

    private struct State: Sendable {
        var value: Value?
        var first: Handler?
        var more: [Handler] = []
    }

    private let state: Mutex<State>

    /// A pending future.
    init() {
        state = Mutex(State())
    }

    /// A settled future.
    init(value: Value) {
        state = Mutex(State(value: value))
    }

    /// Runs `callback` with the value: now if settled, else when it settles, on `queue` if given.
    func whenSuccess(on queue: DispatchQueue? = nil, _ callback: @escaping Callback) {
        let handler = Handler(queue: queue, callback: callback)
        let settled: Value? = state.withLock { state in
            if let value = state.value { return value }
            if state.first == nil {
                state.first = handler
            } else {
                state.more.append(handler)
            }
            return nil
        }
        if let settled { handler.run(with: settled) }
    }

    /// Settles the future, unless it was settled already.
    func succeed(_ value: Value) {
        let handlers: (first: Handler?, more: [Handler])? = state.withLock { state in
            guard state.value == nil else { return nil }
            state.value = value
            defer {
                state.first = nil
                state.more = []
            }
            return (state.first, state.more)
        }
        guard let handlers else { return }
        handlers.first?.run(with: value)
        for handler in handlers.more { handler.run(with: value) }
    }

    /// A future with `transform` applied to this one's value: a new future per stage, as a minimal library would.
    func map<NewValue: Sendable>(_ transform: @escaping @Sendable (Value) -> NewValue) -> MutexFuture<NewValue> {
        let next = MutexFuture<NewValue>()
        whenSuccess { next.succeed(transform($0)) }
        return next
    }

    /// Blocks until the future settles, then returns the value.
    func wait() -> Value {
        if let value = state.withLock({ $0.value }) { return value }
        let semaphore = DispatchSemaphore(value: 0)
        whenSuccess { _ in semaphore.signal() }
        semaphore.wait()
        return state.withLock { $0.value! }
    }
}
