import Synchronization

// MARK: Asking, without blocking

extension Response {
    /// Whether the response has settled: succeeded, failed or been cancelled.
    @inlinable
    public var isDone: Bool {
        isSettled
    }

    /// Whether the response has succeeded.
    @inlinable
    public var isSuccessful: Bool {
        if case .success = settledOutcome { return true }
        return false
    }

    /// Whether the response has failed, cancellation included.
    @inlinable
    public var isFailed: Bool {
        if case .failure = settledOutcome { return true }
        return false
    }

    /// Whether the response was cancelled (it has then failed with `CancellationError`).
    @inlinable
    public var isCancelled: Bool {
        wasCancelled
    }
}

// MARK: - Cancelling

extension Response {
    /// Cancels the response: if it is pending, it fails with `CancellationError`, ``isCancelled`` becomes
    /// `true`, the handlers registered with ``Resolver/onCancel(_:)`` run on this thread, and later attempts to
    /// settle it are ignored. Cancelling a settled response changes nothing.
    ///
    /// The one exception: work that cannot be taken back once begun (a write handed to a store, a request sent
    /// to a server) commits its response to its outcome when it begins (``Resolver/commitToOutcome()``). From
    /// then on cancelling that response, or a response that waits on it (a `map`, a `flatMap`, a repository's or
    /// an interactor's answer), is ignored: it settles with the work's outcome, and ``isCancelled`` stays
    /// `false`. A write still queued behind others has not begun: cancelling it withdraws it.
    @inlinable
    public func cancel() {
        if isSettled { return }
        cancelUnlessCommitted()
    }

    /// Cancels the response unless it, or work it waits on, has committed to its outcome (see
    /// `Response+Committing.swift`).
    @usableFromInline
    func cancelUnlessCommitted() {
        guard prepareCancellation(asSoleConsumer: false) else { return }
        settle(.failure(CancellationError()), cancelling: true)
    }

    /// Runs `handler` once if the response is cancelled (now, if it already was); drops it if the response
    /// settles otherwise.
    @usableFromInline
    func whenCancelled(_ handler: @escaping @Sendable () -> Void) {
        let registered = withExtras { $0.cancellationHandlers.append(handler) } != nil
        if !registered, isCancelled { handler() }
    }
}

// MARK: - Describing

extension Response: CustomStringConvertible, CustomDebugStringConvertible {
    /// The value type and the state, e.g. `Response<Int>(succeeded: 3)`, without waiting.
    public var description: String {
        let (outcome, cancelled) = (settledOutcome, wasCancelled)
        switch outcome {
        case nil: return "Response<\(Value.self)>(pending)"
        case .success(let value)?: return "Response<\(Value.self)>(succeeded: \(value))"
        case .failure where cancelled: return "Response<\(Value.self)>(cancelled)"
        case .failure(let error)?: return "Response<\(Value.self)>(failed: \(error))"
        }
    }

    /// The ``description``; for a pending response in a debug build, also where it was created, e.g.
    /// `Response<Int>(pending, created at App/Login.swift:12)`, to find a response that never settles.
    public var debugDescription: String {
        #if DEBUG
        let (pending, site) = lock.withLock { (!isSettled, creationSite) }
        if pending, let site { return "Response<\(Value.self)>(pending, created at \(site.file):\(site.line))" }
        #endif
        return description
    }
}
