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
    // @unchecked Sendable: every `var` below is read and written only while `lock` is held.

    // MARK: Storage
    //
    // One allocation on the fast path: the lock, the outcome and the first handler live inline. Rarer state
    // (cancellation handlers, queued work, progress) lives in `extras`, allocated only when used.
    //
    // The storage is `@usableFromInline` and the hot paths `@inlinable`, so they are specialised for the value
    // type in the caller's module: unspecialised, generic metadata look-ups cost more than the work. The fields
    // whose size does not depend on `Value` come first. `settled` repeats `stored != .pending` as an atomic flag
    // (written under the lock), so the paths that only need to know whether the response is pending (`isDone`,
    // a resolver's release) take no lock and touch no generic metadata. The outcome is stored as our own
    // `Outcome` rather than `Result?`: the class's unspecialised deinit then looks up one generic type's
    // metadata instead of two. `@exclusivity(unchecked)`: the lock already makes every access exclusive, and the
    // dynamic checks cost as much as the lock.

    @usableFromInline let lock = Lock()
    /// How many derived responses and awaiting tasks still need this one; see `Response+Demand.swift`.
    @usableFromInline @exclusivity(unchecked) var consumers: UInt32 = 0
    @usableFromInline let settled: Atomic<Bool>
    @usableFromInline @exclusivity(unchecked) var wasCancelled = false
    /// Settled, but its handlers have not been taken yet: a drain will finish it (see `DeliveryDrain`). Handlers
    /// added meanwhile join the list, so registration order holds.
    @usableFromInline @exclusivity(unchecked) var finishPending = false
    /// Where handlers registered without `on:` run.
    @usableFromInline let callbackQueue: any CallbackQueue
    @usableFromInline @exclusivity(unchecked) var extras: ResponseExtras<Value>?
    /// What this response was derived from; its demand is released when this response settles.
    @usableFromInline @exclusivity(unchecked) var upstream: (any UpstreamLink)?
    @usableFromInline @exclusivity(unchecked) var stored = Outcome<Value>.pending
    @usableFromInline @exclusivity(unchecked) var handlers = HandlerList<Value>()

    /// A pending response.
    @inlinable
    init(callbackQueue: any CallbackQueue) {
        self.settled = Atomic(false)
        self.callbackQueue = callbackQueue
    }

    /// A settled response.
    @inlinable
    init(outcome: Result<Value, any Error>, callbackQueue: any CallbackQueue) {
        self.settled = Atomic(true)
        self.stored = Outcome(outcome)
        self.callbackQueue = callbackQueue
    }
}

extension Response {
    /// Whether the response has settled. Without the lock it is a snapshot (acquiring, so a `true` comes with
    /// the outcome); with the lock held it is exact.
    @inlinable
    var isSettled: Bool {
        settled.load(ordering: .acquiring)
    }
}

/// A response's outcome as stored: `Result?` flattened into one enum (see the storage note on `Response`).
@usableFromInline
enum Outcome<Value: Sendable> {
    case pending
    case succeeded(Value)
    case failed(any Error)

    @inlinable
    init(_ result: Result<Value, any Error>) {
        switch result {
        case .success(let value): self = .succeeded(value)
        case .failure(let error): self = .failed(error)
        }
    }

    @inlinable
    var result: Result<Value, any Error>? {
        switch self {
        case .pending: nil
        case .succeeded(let value): .success(value)
        case .failed(let error): .failure(error)
        }
    }
}

// MARK: - Settling

extension Response: DeferredSettlement {
    /// Settles the response with `outcome` unless it is settled already; returns whether this call settled it.
    ///
    /// The outcome is recorded at once. Handlers, cancellation handlers and the release of upstream demand are
    /// moved out under the lock and run after it is released, so user code never runs while the lock is held, and
    /// what they capture is released as soon as they have run. Past a depth of nested settlements, the rest is
    /// left to the thread's `DeliveryDrain`.
    ///
    /// `upstreamIsSettled` says the caller is a stage run by the upstream's settlement, so releasing demand on
    /// the upstream would be a no-op; skipping it saves a lock round trip per stage.
    @inlinable
    @discardableResult
    func settle(
        _ outcome: Result<Value, any Error>,
        cancelling: Bool = false,
        upstreamIsSettled: Bool = false
    ) -> Bool {
        unowned(unsafe) let drain = DeliveryDrain.current.takeUnretainedValue()
        lock.lock()
        guard !isSettled else {
            lock.unlock()
            return false
        }
        settled.store(true, ordering: .releasing)
        stored = Outcome(outcome)
        wasCancelled = cancelling
        if drain.depth >= DeliveryDrain.maximumDepth {
            finishPending = true
            lock.unlock()
            drain.enqueue(self)
            return true
        }
        let finish = takeFinish(releasingUpstream: !upstreamIsSettled)
        lock.unlock()
        drain.depth += 1
        finish.run(outcome, cancelled: cancelling)
        drain.depth -= 1
        if drain.depth == 0, drain.hasQueued { drain.runQueued() }
        return true
    }

    /// Runs a settlement that a drain queued.
    @usableFromInline
    func finishSettlement() {
        let (finish, outcome, cancelled) = lock.withLock { () -> (Finish, Result<Value, any Error>, Bool) in
            finishPending = false
            return (takeFinish(), self.outcome!, wasCancelled)
        }
        finish.run(outcome, cancelled: cancelled)
    }

    /// Everything a settlement still has to do, moved out of the response. Call with the lock held; what it
    /// moved out is released with the `Finish`, after the lock.
    @inlinable
    func takeFinish(releasingUpstream: Bool = true) -> Finish {
        Finish(
            handlers: handlers.take(),
            extras: extras.take(),
            upstream: upstream.take(),
            releasing: releasingUpstream
        )
    }

    /// What is left to do once a response has settled, run without the lock.
    @usableFromInline
    struct Finish {
        @usableFromInline let handlers: HandlerList<Value>
        @usableFromInline let extras: ResponseExtras<Value>?
        @usableFromInline let upstream: (any UpstreamLink)?
        @usableFromInline let releasing: Bool

        @inlinable
        init(
            handlers: HandlerList<Value>,
            extras: ResponseExtras<Value>?,
            upstream: (any UpstreamLink)?,
            releasing: Bool
        ) {
            self.handlers = handlers
            self.extras = extras
            self.upstream = upstream
            self.releasing = releasing
        }

        @inlinable
        func run(_ outcome: Result<Value, any Error>, cancelled: Bool) {
            if let extras { extras.responseDidSettle(cancelled: cancelled) }
            handlers.deliver(outcome)
            if releasing, let upstream { upstream.releaseDemand() }
        }
    }

    /// Settles the response with the error `makeError` builds, unless it is settled already; the error is built
    /// only when needed (abandonment checks run on every resolver's release).
    @inlinable
    func failIfPending(_ makeError: () -> any Error) {
        if settled.load(ordering: .acquiring) { return }
        fail(with: makeError())
    }

    /// Kept out of line so that the generic metadata `settle` needs is looked up only on this rare path, not by
    /// every caller of `failIfPending` (a resolver's deinit, which runs unspecialised).
    @usableFromInline @inline(never)
    func fail(with error: any Error) {
        settle(.failure(error))
    }

    /// The outcome, or `nil` while pending. Read with the lock held.
    @inlinable
    var outcome: Result<Value, any Error>? {
        stored.result
    }

    /// The outcome if settled, without waiting.
    @inlinable
    var settledOutcome: Result<Value, any Error>? {
        lock.withLock { outcome }
    }
}

// MARK: - Registering

extension Response {
    /// Adds a handler, or delivers it now if the response has settled.
    @inlinable
    func addHandler(_ callback: Callback<Value>, on queue: any CallbackQueue) {
        add(Handler(callback, on: queue))
    }

    /// Adds a handler for a queue whose type the caller knows: specialised for `.immediate`, the check for the
    /// immediate queue folds away.
    @inlinable
    func addHandler<Queue: CallbackQueue>(_ callback: Callback<Value>, onKnown queue: Queue) {
        if Queue.self == ImmediateCallbackQueue.self {
            add(Handler(immediate: callback))
        } else {
            add(Handler(callback, on: queue))
        }
    }

    /// Adds a handler that runs inline where the response settles: the internal stages' way to chain.
    @inlinable
    func addImmediateHandler(_ callback: Callback<Value>) {
        add(Handler(immediate: callback))
    }

    /// Adds a handler on behalf of a derived response, counting it as a consumer while this one is pending.
    @inlinable
    func addConsumingHandler(_ handler: consuming Handler<Value>) {
        add(handler, countingConsumer: true)
    }

    /// Adds `handler`, or delivers it now if the response has settled and its settlement is finished.
    @inlinable
    func add(_ handler: consuming Handler<Value>, countingConsumer: Bool = false) {
        lock.lock()
        if let outcome, !finishPending {
            lock.unlock()
            handler.deliver(outcome)
        } else {
            if countingConsumer { consumers += 1 }
            handlers.append(handler)
            lock.unlock()
        }
    }

    /// Runs `body` with the extras, creating them if needed, while the lock is held; `nil` once settled.
    @usableFromInline
    func withExtras<T>(_ body: (ResponseExtras<Value>) -> T) -> T? {
        lock.withLock {
            guard !isSettled else { return nil }
            if let extras { return body(extras) }
            let created = ResponseExtras<Value>()
            extras = created
            return body(created)
        }
    }
}
