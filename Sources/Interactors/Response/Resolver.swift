/// The settling side of a ``Response``: whoever holds it reports the outcome of the work.
///
/// ```swift
/// func fetchAvatar(for user: User) -> Response<Image> {
///     Response { resolver in
///         let task = downloader.download(user.avatarURL) { result in resolver.resolve(result) }
///         resolver.onCancel { task.cancel() }
///     }
/// }
/// ```
///
/// The first call to ``succeed(_:)``, ``fail(_:)`` or ``resolve(_:)-(Result<Value,Error>)`` settles the
/// response and returns `true`; later calls change nothing and return `false`, so code racing to settle can tell
/// who won. Use it from any thread.
///
/// If every reference to a resolver is released before it settles its response, the response fails with
/// ``ResponseError/abandoned``: a forgotten callback shows up as an error, not as a caller blocked forever.
public final class Resolver<Value: Sendable>: Sendable {
    @usableFromInline let response: Response<Value>

    @inlinable
    init(_ response: Response<Value>) {
        self.response = response
    }

    deinit {
        if !response.isSettled { response.fail(with: ResponseError.abandoned) }
    }

    /// Settles the response with `value`. Returns `true` only for the call that settled it.
    @inlinable
    @discardableResult
    public func succeed(_ value: Value) -> Bool {
        response.settle(.success(value))
    }

    /// Settles the response with `error`. Returns `true` only for the call that settled it.
    @inlinable
    @discardableResult
    public func fail(_ error: any Error) -> Bool {
        response.settle(.failure(error))
    }

    /// Settles the response with `result`. Returns `true` only for the call that settled it.
    @inlinable
    @discardableResult
    public func resolve(_ result: Result<Value, any Error>) -> Bool {
        response.settle(result)
    }

    /// Settles the response with `result`, whatever its error type. Returns `true` only for the call that
    /// settled it.
    @inlinable
    @discardableResult
    public func resolve<Failure: Error>(_ result: Result<Value, Failure>) -> Bool {
        response.settle(result.mapError { $0 })
    }

    /// Reports how far the work has come, from 0 to 1, to the response's progress handlers.
    ///
    /// Values are clamped to 0...1; a value not above the last one reported, or reported after the response
    /// settled, is ignored, so handlers see a rising sequence that ends with settlement.
    public func reportProgress(_ fraction: Double) {
        response.reportProgress(fraction)
    }

    /// Whether the response was cancelled, so the work may stop early. Its outcome is then ignored.
    @inlinable
    public var isCancelled: Bool {
        response.isCancelled
    }

    /// Whether the response has settled, by this resolver or by cancellation.
    @inlinable
    public var isDone: Bool {
        response.isDone
    }

    /// Runs `handler` once if the response is cancelled: at once, on this thread, if it already was. Released
    /// unrun when the response settles any other way.
    ///
    /// Don't capture the resolver in `handler`: the response keeps the handler until it settles, so a resolver
    /// it captured would never be released and could not report abandonment.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        response.whenCancelled(handler)
    }
}
