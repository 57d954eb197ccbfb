public import Interactors

/// Keeps only the latest of a series of responses: putting a new one in cancels the one it held, if that one is
/// still pending.
///
/// A search box starts a request per keystroke; only the last one matters, and the ones it replaces should stop
/// (and, with ``Interactors/Response/dispatch(to:loading:cancelled:_:)``, show nothing):
///
/// ```swift
/// struct SearchInteractor {
///     let books: BookService
///     let dispatcher: AnyDispatcher<SearchAction>
///     let latest = ResponseSlot<[Book]>()
///
///     func search(_ text: String) -> Response<[Book]> {
///         latest.replace(with: books.search(text))
///             .dispatch(to: dispatcher, loading: .searching) { .results($0) }
///     }
/// }
/// ```
///
/// Safe to use from any thread: when several threads replace at once, each response but the last one put in is
/// cancelled (if still pending), exactly once.
public final class ResponseSlot<Value: Sendable>: Sendable {
    private let latest = LockedBox<Response<Value>?>(nil)

    /// An empty slot.
    public init() {}

    /// Puts `response` in the slot and cancels the one it held, if that one is still pending (a settled one is
    /// left alone; putting in the response already held changes nothing).
    ///
    /// - Returns: `response` itself, for chaining and for the interactor to return.
    @discardableResult
    public func replace(with response: Response<Value>) -> Response<Value> {
        let previous = latest.withLock { latest in
            defer { latest = response }
            return latest
        }
        if let previous, previous !== response { previous.cancel() }
        return response
    }

    /// Cancels the response held, if it is still pending, and empties the slot: for a screen that goes away.
    public func cancel() {
        let previous = latest.withLock { latest in
            defer { latest = nil }
            return latest
        }
        previous?.cancel()
    }
}
