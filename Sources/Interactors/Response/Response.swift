import Dispatch
public import Synchronization

/// The outcome of work that has already started: what an interactor method returns, at once.
///
/// ```swift
/// func login(_ credentials: Credentials) -> Response<User> {
///     Response(on: DispatchQueue.global()) { try authService.logIn(credentials) }
/// }
///
/// let response = interactor.login(credentials)
/// response.onCompletion { user in show(user) }.onFailure { error in show(error) }   // handlers, or
/// let user = try response.get()                                                      // block (tests, CLIs), or
/// let user = try await response.value                                                // await
/// ```
///
/// A response settles once, with a value or an error (cancelling it is one way to fail it). Handlers may be
/// added before or after that; each runs exactly once, in registration order, on its callback queue. Any number
/// of threads may observe, wait for, resolve or cancel one response at once.
///
/// A response is a class because its identity matters: handlers chain on the same object, and it is freed as
/// soon as nothing outside it holds it, even if one of its handlers captured it.
public final class Response<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: every `var` below is written only while `lock` is held, and read either with it held
    // or, for the outcome, once `state` (read with acquiring ordering) says the response has settled: from then
    // on the outcome never changes.

    // MARK: Storage
    //
    // One allocation of at most 96 bytes (for a value of a word or two) on the fast path: a pending response with
    // its handler and its resolver is within 120 bytes of heap. What makes it fit:
    // - `state` holds the phase, the flags and the consumer count in one word (see `ResponseState`);
    // - the callback queue is one word (`QueueReference`);
    // - `slot` holds the upstream and the first handler while pending and the outcome once settled, which never
    //   coexist (see `ResponseContents`);
    // - rarer state (cancellation handlers, queued work, progress, waiters, an index of owners for long handler
    //   lists) lives in `extras`, allocated only when used.
    //
    // The storage is `@usableFromInline` and the hot paths `@inlinable`, so they are specialised for the value
    // type in the caller's module: unspecialised, generic metadata look-ups cost more than the work. The fields
    // whose size does not depend on `Value` come first. `@exclusivity(unchecked)`: the lock already makes every
    // access exclusive, and the dynamic checks cost as much as the lock.

    @usableFromInline let lock = Lock()
    /// ``ResponseState``: the phase, the flags and the consumer count.
    @usableFromInline let state: Atomic<UInt32>
    /// Where handlers registered without `on:` run.
    @usableFromInline let queueReference: QueueReference
    @usableFromInline @exclusivity(unchecked) var extras: ResponseExtras<Value>?
    /// The handlers after the first while pending; once settled, the handlers registered while the settlement is
    /// delivered, which the delivering thread runs after the earlier ones.
    @usableFromInline @exclusivity(unchecked) var more: [Handler<Value>]?
    @usableFromInline @exclusivity(unchecked) var slot: ResponseContents<Value>
    #if DEBUG
    /// Where the response was created, for `debugDescription`. Debug builds only: release builds keep a response
    /// as small as it can be, and the argument passing folds away.
    @usableFromInline @exclusivity(unchecked) var creationSite: (file: StaticString, line: UInt)?
    #endif

    /// A pending response.
    @inlinable
    init(callbackQueue: QueueReference, upstream: (any UpstreamLink)? = nil) {
        self.state = Atomic(ResponseState.pending)
        self.queueReference = callbackQueue
        self.slot = .pending(upstream: upstream, first: nil)
    }

    /// A pending response.
    @inlinable
    convenience init(callbackQueue: some CallbackQueue) {
        self.init(callbackQueue: QueueReference(callbackQueue))
    }

    /// A settled response.
    @inlinable
    init(outcome: Result<Value, any Error>, callbackQueue: QueueReference) {
        self.state = Atomic(ResponseState.delivered)
        self.queueReference = callbackQueue
        self.slot = ResponseContents(outcome)
    }

    /// Where handlers registered without `on:` run.
    @inlinable
    var callbackQueue: any CallbackQueue {
        queueReference.queue
    }
}

extension Response {
    /// Whether the response has settled. Without the lock it is a snapshot (acquiring, so a `true` comes with
    /// the outcome); with the lock held it is exact.
    @inlinable
    var isSettled: Bool {
        ResponseState.phase(state.load(ordering: .acquiring)) != ResponseState.pending
    }

    /// Whether the settlement has been delivered: every handler registered before it, and while it was being
    /// delivered, has run or been handed to its queue.
    @inlinable
    var isDelivered: Bool {
        ResponseState.phase(state.load(ordering: .acquiring)) == ResponseState.delivered
    }

    /// Whether the response was cancelled.
    @inlinable
    var wasCancelled: Bool {
        state.load(ordering: .acquiring) & ResponseState.cancelled != 0
    }

    /// The outcome, or `nil` while pending. No lock needed: the outcome is written once, before the phase that
    /// says so is published, and never changes after.
    @inlinable
    var settledOutcome: Result<Value, any Error>? {
        isSettled ? slot.outcome : nil
    }

    /// The outcome once its settlement has been delivered, without waiting.
    @inlinable
    var deliveredOutcome: Result<Value, any Error>? {
        isDelivered ? slot.outcome : nil
    }

    /// The outcome of a response known to have settled.
    @inlinable
    var outcome: Result<Value, any Error> {
        slot.outcome!
    }
}

extension Response {
    /// Records where a creating initializer was called, in debug builds; nothing in release builds.
    @inlinable @inline(__always)
    func recordCreationSite(_ file: StaticString, _ line: UInt) {
        #if DEBUG
        creationSite = (file, line)  // before the response is shared: no lock needed
        #endif
    }

    /// Runs `body` with the extras, creating them if needed, while the lock is held; `nil` once settled.
    @usableFromInline
    func withExtras<T>(_ body: (ResponseExtras<Value>) -> T) -> T? {
        lock.withLock {
            guard !isSettled else { return nil }
            return body(makeExtras())
        }
    }

    /// The extras, created if needed. Call with the lock held, while pending: the settlement sees them and closes
    /// slowly, dropping them.
    @usableFromInline
    func makeExtras() -> ResponseExtras<Value> {
        if let extras { return extras }
        let created = ResponseExtras<Value>()
        extras = created
        return created
    }
}
