/// One use case with one entry point: it takes a request and starts the work at once, handing back a
/// ``Response``.
///
/// ```swift
/// struct LogIn: Interactor {
///     let auth: AuthService
///     let queue: any CallbackQueue
///
///     func execute(_ request: LogInRequest) -> Response<User> {
///         Response(on: queue) { try auth.logIn(request.username, request.password) }
///     }
/// }
/// ```
///
/// The protocol is what ``InteractorExecutor``, ``AnyInteractor`` and test doubles need. A plain type with
/// several `Response`-returning methods is just as much an interactor in this library; conform when you want
/// a use case registered on an executor, erased, or replaced by a spy in tests.
///
/// Take the queue the work runs on at construction and start the work with
/// ``Response/init(on:callbackQueue:file:line:_:)``; a caller that needs it elsewhere for one call uses
/// ``execute(_:on:)``.
public protocol Interactor<Request, Output>: Sendable {
    /// What the use case is given.
    associatedtype Request: Sendable

    /// What the use case produces.
    associatedtype Output: Sendable

    /// Starts the use case for `request` and returns its response at once.
    func execute(_ request: Request) -> Response<Output>
}

// MARK: - Choosing where one call runs

extension Interactor {
    /// Runs ``execute(_:)`` itself on `queue` and returns a response that follows the interactor's.
    ///
    /// The per-call override of where a use case starts: an interactor that usually starts its work at once
    /// can be made to start it on a serial queue for one caller, and a caller running on `queue` may block on
    /// the result with ``Response/get()``: a blocked caller on `queue` runs the queued call in its own place
    /// instead of deadlocking. Cancelling the returned response before the call starts means it never starts;
    /// afterwards, it cancels the interactor's response.
    ///
    /// The returned response delivers handlers added without `on:` to the process default queue.
    public func execute(_ request: Request, on queue: some CallbackQueue) -> Response<Output> {
        Response.following(on: queue) { self.execute(request) }
    }
}

extension Response {
    /// A response that follows the response `start` returns, with `start` itself run on `queue`.
    ///
    /// On `.immediate`, `start` runs now and its response is followed directly: the same outcome, cancellation and
    /// delivery as through a queue, without the settled response and the `flatMap` a queue needs (a server's
    /// request path saves two responses and their closures).
    package static func following(
        on queue: some CallbackQueue,
        _ start: @escaping @Sendable () -> Response<Value>
    ) -> Response<Value> {
        guard queue !== ImmediateCallbackQueue.shared else { return following(start()) }
        return Response<Response<Value>>(on: queue, start).flatMap { $0 }
    }

    /// A response that follows `upstream` as one of its consumers, delivering handlers added without `on:` to the
    /// process default queue. Cancelling it withdraws its demand from `upstream`, as a derived response's
    /// cancellation does.
    static func following(_ upstream: Response<Value>) -> Response<Value> {
        let follower = Response<Value>(callbackQueue: DefaultCallbackQueue.shared)
        follower.follow(upstream)
        return follower
    }
}
