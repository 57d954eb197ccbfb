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
    // @unchecked Sendable: every `var` below is read and written only while `lock` is held.

    // MARK: Storage
    //
    // One allocation on the fast path: the lock, the outcome and the first handler live inline. Rarer state
    // (cancellation handlers, queued work, progress) lives in `extras`, allocated only when used.
    //
    // The storage is `@usableFromInline` and the hot paths `@inlinable`, so they are specialised for the value
    // type in the caller's module: unspecialised, generic metadata look-ups cost more than the work. The fields
    // whose size does not depend on `Value` come first. `phase` repeats the settlement's progress as an atomic
    // (written under the lock), so the paths that only need to know whether the response is pending (`isDone`,
    // a resolver's release) take no lock and touch no generic metadata. The outcome is stored as our own
    // `Outcome` rather than `Result?`: the class's unspecialised deinit then looks up one generic type's
    // metadata instead of two. `@exclusivity(unchecked)`: the lock already makes every access exclusive, and the
    // dynamic checks cost as much as the lock.

    @usableFromInline let lock = Lock()
    /// How many derived responses and awaiting tasks still need this one; see `Response+Demand.swift`.
    @usableFromInline @exclusivity(unchecked) var consumers: UInt32 = 0
    /// ``SettlementPhase``: pending, settled (the outcome is recorded, its handlers are being delivered), or
    /// delivered (every handler registered so far has run or been handed to its queue).
    @usableFromInline let phase: Atomic<UInt8>
    @usableFromInline @exclusivity(unchecked) var wasCancelled = false
    /// Settled, but nobody has started delivering yet: whoever claims it first (the thread's drain, a queue,
    /// a blocked caller) delivers. Handlers added meanwhile join the list, so registration order holds.
    @usableFromInline @exclusivity(unchecked) var finishPending = false
    /// Where handlers registered without `on:` run.
    @usableFromInline let callbackQueue: any CallbackQueue
    @usableFromInline @exclusivity(unchecked) var extras: ResponseExtras<Value>?
    /// What this response was derived from; its demand is released when this response settles.
    @usableFromInline @exclusivity(unchecked) var upstream: (any UpstreamLink)?
    @usableFromInline @exclusivity(unchecked) var stored = Outcome<Value>.pending
    @usableFromInline @exclusivity(unchecked) var handlers = HandlerList<Value>()
    #if DEBUG
    /// Where the response was created, for `debugDescription`. Debug builds only: release builds keep a response
    /// as small as it can be, and the argument passing folds away.
    @usableFromInline @exclusivity(unchecked) var creationSite: (file: StaticString, line: UInt)?
    #endif

    /// A pending response.
    @inlinable
    init(callbackQueue: any CallbackQueue) {
        self.phase = Atomic(SettlementPhase.pending)
        self.callbackQueue = callbackQueue
    }

    /// A settled response.
    @inlinable
    init(outcome: Result<Value, any Error>, callbackQueue: any CallbackQueue) {
        self.phase = Atomic(SettlementPhase.delivered)
        self.stored = Outcome(outcome)
        self.callbackQueue = callbackQueue
    }
}

/// How far a response's settlement has come; stored in `Response.phase`, and only ever rises.
@usableFromInline
enum SettlementPhase {
    // Computed, not stored: a stored static is reached through an accessor from the caller's module, on every
    // check of every response.
    @inlinable static var pending: UInt8 { 0 }
    @inlinable static var settled: UInt8 { 1 }
    @inlinable static var delivered: UInt8 { 2 }
}

extension Response {
    /// Whether the response has settled. Without the lock it is a snapshot (acquiring, so a `true` comes with
    /// the outcome); with the lock held it is exact.
    @inlinable
    var isSettled: Bool {
        phase.load(ordering: .acquiring) != SettlementPhase.pending
    }

    /// Whether the settlement has been delivered: every handler registered before it, and while it was being
    /// delivered, has run or been handed to its queue.
    @inlinable
    var isDelivered: Bool {
        phase.load(ordering: .acquiring) == SettlementPhase.delivered
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

extension Response {
    /// Records where a creating initializer was called, in debug builds; nothing in release builds.
    @inlinable @inline(__always)
    func recordCreationSite(_ file: StaticString, _ line: UInt) {
        #if DEBUG
        creationSite = (file, line)  // before the response is shared: no lock needed
        #endif
    }
}

// MARK: - Settling
//
// A settlement has two steps. Recording the outcome happens at once, under the lock, and makes `isDone` true.
// Delivering it (cancellation handlers, then releasing the upstream, then the handlers in registration order,
// then waking blocked callers) runs after the lock, on the settling thread, until no handler is left: a handler
// registered while the delivery runs joins the list and is delivered by the same thread, after the earlier
// ones, so registration order holds even when registration races settlement. Only then is the response
// `delivered`; a handler registered after that is delivered by the registering thread.
//
// Delivery can be deferred: past a depth of nested settlements (to the thread's `DeliveryDrain`), or elsewhere
// when the settling thread must not run user code (a dropped resolver, a timer; see
// `Response+DeliveringElsewhere.swift`). Whoever claims a deferred delivery first runs it: the drain, the
// library's delivery thread, a global queue, or a caller blocked on the response, who then need not wait for
// the settling thread to unwind.

/// Where a settlement's delivery runs.
@usableFromInline
enum DeliveryRoute {
    /// On the settling thread, nested, unless the thread is too deep in nested settlements already.
    case settlingThread
    /// Never on the settling thread: the library's delivery thread hands the handlers bound for a queue to their
    /// queues at once, and what runs user code on the delivering thread goes to a global queue or a blocked
    /// caller, whichever claims it first.
    case elsewhere
}

extension Response: DeferredSettlement {
    /// Settles the response with `outcome` unless it is settled already; returns whether this call settled it.
    ///
    /// `upstreamIsSettled` says the caller is a stage run by the upstream's settlement, so releasing demand on
    /// the upstream would be a no-op; skipping it saves a lock round trip per stage.
    @inlinable
    @discardableResult
    func settle(
        _ outcome: Result<Value, any Error>,
        cancelling: Bool = false,
        upstreamIsSettled: Bool = false,
        route: DeliveryRoute = .settlingThread
    ) -> Bool {
        unowned(unsafe) let drain = DeliveryDrain.current.takeUnretainedValue()
        lock.lock()
        guard !isSettled else {
            lock.unlock()
            return false
        }
        phase.store(SettlementPhase.settled, ordering: .releasing)
        stored = Outcome(outcome)
        wasCancelled = cancelling
        if case .elsewhere = route {
            deliverElsewhere()
            return true
        }
        if drain.depth >= DeliveryDrain.maximumDepth {
            deferDelivery { drain.enqueue(self) }
            return true
        }
        let finish = takeFinish(releasingUpstream: !upstreamIsSettled)
        lock.unlock()
        drain.depth += 1
        deliver(finish, outcome: outcome, cancelled: cancelling)
        drain.depth -= 1
        if drain.depth == 0, drain.hasQueued { drain.runQueued() }
        return true
    }

    /// Leaves the delivery to whoever claims it first: `hand` hands it to a drain or a queue, and blocked
    /// callers are woken to claim it themselves. Call with the lock held; returns with it released.
    @usableFromInline
    func deferDelivery(_ hand: () -> Void) {
        finishPending = true
        let waiters = extras?.waiters ?? []
        lock.unlock()
        for waiter in waiters { waiter.signal() }
        hand()
    }

    /// Hands the delivery to a global queue, and to blocked callers. Call with the lock held; returns with it
    /// released.
    @usableFromInline
    func deferDeliveryToAGlobalQueue() {
        deferDelivery { DispatchQueue.global().async { self.finishSettlement() } }
    }

    /// Delivers a deferred settlement unless someone already claimed it. Called by a drain, a queue, or a
    /// blocked caller; returns whether this call delivered it.
    @usableFromInline
    @discardableResult
    func finishSettlement() -> Bool {
        lock.lock()
        guard finishPending else {
            lock.unlock()
            return false
        }
        finishPending = false
        let finish = takeFinish()
        let outcome = self.outcome!
        let cancelled = wasCancelled
        lock.unlock()
        unowned(unsafe) let drain = DeliveryDrain.current.takeUnretainedValue()
        drain.depth += 1
        deliver(finish, outcome: outcome, cancelled: cancelled)
        drain.depth -= 1
        if drain.depth == 0, drain.hasQueued { drain.runQueued() }
        return true
    }

    /// What a settlement takes out of the response to deliver. Call with the lock held; what it moved out is
    /// released with the `Finish`, after the lock.
    @inlinable
    func takeFinish(releasingUpstream: Bool = true) -> Finish {
        Finish(
            handlers: handlers.take(),
            cancellationHandlers: wasCancelled ? extras?.takeCancellationHandlers() : nil,
            upstream: upstream.take(),
            releasesUpstream: releasingUpstream
        )
    }

    /// Runs a settlement's delivery, without the lock: cancellation handlers, the release of the upstream, the
    /// handlers, any handler registered meanwhile, then marks the response delivered and wakes blocked callers.
    @inlinable
    func deliver(_ finish: Finish, outcome: Result<Value, any Error>, cancelled: Bool) {
        if let cancellationHandlers = finish.cancellationHandlers {
            for handler in cancellationHandlers { handler() }
        }
        // Before the handlers: one that hears this response was cancelled or timed out finds the work it let go
        // of cancelled already, if nothing else needed it.
        if finish.releasesUpstream, let upstream = finish.upstream { upstream.releaseDemand(of: self) }
        finish.handlers.deliver(outcome)
        while true {
            lock.lock()
            if handlers.isEmpty { break }
            let late = handlers.take()
            lock.unlock()
            late.deliver(outcome)
        }
        phase.store(SettlementPhase.delivered, ordering: .releasing)
        let extras = self.extras.take()
        lock.unlock()
        extras?.wakeWaiters()
    }

    /// What a settlement delivers, moved out of the response.
    @usableFromInline
    struct Finish {
        @usableFromInline let handlers: HandlerList<Value>
        @usableFromInline let cancellationHandlers: [@Sendable () -> Void]?
        @usableFromInline let upstream: (any UpstreamLink)?
        /// Not when a stage run by the upstream's own settlement settles this response: the upstream is settled,
        /// and releasing its demand would be a no-op.
        @usableFromInline let releasesUpstream: Bool

        @inlinable
        init(
            handlers: HandlerList<Value>,
            cancellationHandlers: [@Sendable () -> Void]?,
            upstream: (any UpstreamLink)?,
            releasesUpstream: Bool
        ) {
            self.handlers = handlers
            self.cancellationHandlers = cancellationHandlers
            self.upstream = upstream
            self.releasesUpstream = releasesUpstream
        }
    }

    /// Settles the response with the error `makeError` builds, unless it is settled already; the error is built
    /// only when needed (abandonment checks run on every resolver's release).
    @inlinable
    func failIfPending(_ makeError: () -> any Error) {
        if isSettled { return }
        fail(with: makeError())
    }

    /// Kept out of line so that the generic metadata `settle` needs is looked up only on this rare path, not by
    /// every caller of `failIfPending` (a resolver's deinit, which runs unspecialised).
    ///
    /// Delivered elsewhere: this runs where a resolver or a queued job is released, possibly inside the user's
    /// own lock, which is no place to run handlers, nor to call a queue's `schedule`.
    @usableFromInline @inline(never)
    func fail(with error: any Error) {
        settle(.failure(error), route: .elsewhere)
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

    /// The outcome once its settlement has been delivered, without waiting.
    @inlinable
    var deliveredOutcome: Result<Value, any Error>? {
        isDelivered ? lock.withLock { outcome } : nil
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

    /// Adds a handler on behalf of a derived response, counting it as a consumer while this one is pending.
    @inlinable
    func addConsumingHandler(_ handler: consuming Handler<Value>) {
        add(handler, countingConsumer: true)
    }

    /// Adds `handler`, or delivers it now if the response's settlement has been delivered. A handler added
    /// while the settlement is being delivered joins the list, and the delivering thread runs it after the
    /// earlier ones.
    @inlinable
    func add(_ handler: consuming Handler<Value>, countingConsumer: Bool = false) {
        lock.lock()
        if isDelivered, let outcome {
            lock.unlock()
            handler.deliver(outcome)
        } else {
            if countingConsumer, !isSettled { consumers += 1 }
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
