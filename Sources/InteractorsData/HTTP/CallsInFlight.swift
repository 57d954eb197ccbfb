import Interactors

/// The calls of one client that have not settled, for ``HTTPClient/cancelAll()``.
final class CallsInFlight: Sendable {
    private struct State {
        var next: UInt64 = 0
        var cancels: [UInt64: @Sendable () -> Void] = [:]
    }

    private let state = LockedBox(State())

    /// `response`, kept until it settles so that ``cancelAll()`` can cancel it.
    func track<Value>(_ response: Response<Value>) -> Response<Value> {
        let id = state.withLock { state -> UInt64 in
            state.next += 1
            state.cancels[state.next] = { response.cancel() }
            return state.next
        }
        response.onResult(on: .immediate) { [weak self] _ in
            _ = self?.state.withLock { $0.cancels.removeValue(forKey: id) }
        }
        return response
    }

    /// Cancels every response kept, outside the lock: a cancellation runs the call's cancellation handlers.
    func cancelAll() {
        let cancels = state.withLock { Array($0.cancels.values) }
        for cancel in cancels { cancel() }
    }
}
