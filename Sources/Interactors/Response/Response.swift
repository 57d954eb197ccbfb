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

    let lock = Lock()
    /// How many derived responses and awaiting tasks still need this one; see `Response+Demand.swift`.
    var consumers: UInt32 = 0
    var wasCancelled = false
    /// Settled, but its handlers have not been taken yet: a drain will finish it (see `DeliveryDrain`). Handlers
    /// added meanwhile join the list, so registration order holds.
    var finishPending = false
    var outcome: Result<Value, any Error>?
    var handlers = HandlerList<Value>()
    var extras: ResponseExtras<Value>?
    /// What this response was derived from; its demand is released when this response settles.
    var upstream: (any UpstreamLink)?
    /// Where handlers registered without `on:` run.
    let callbackQueue: any CallbackQueue

    /// A pending response.
    init(callbackQueue: any CallbackQueue) {
        self.callbackQueue = callbackQueue
    }

    /// A settled response.
    init(outcome: Result<Value, any Error>, callbackQueue: any CallbackQueue) {
        self.outcome = outcome
        self.callbackQueue = callbackQueue
    }
}

// MARK: - Settling

extension Response: DeferredSettlement {
    /// Settles the response with `outcome` unless it is settled already; returns whether this call settled it.
    ///
    /// The outcome is recorded at once. Handlers, cancellation handlers and the release of upstream demand are
    /// moved out under the lock and run after it is released, so user code never runs while the lock is held, and
    /// what they capture is released as soon as they have run. A settlement made from inside another one's
    /// handlers is finished by the thread's `DeliveryDrain` instead of recursing.
    @discardableResult
    func settle(_ outcome: Result<Value, any Error>, cancelling: Bool = false) -> Bool {
        let drain = DeliveryDrain.current
        lock.lock()
        guard self.outcome == nil else {
            lock.unlock()
            return false
        }
        self.outcome = outcome
        wasCancelled = cancelling
        if drain.isActive {
            finishPending = true
            lock.unlock()
            drain.enqueue(self)
            return true
        }
        let finish = takeFinish()
        lock.unlock()
        drain.drain { finish.run(outcome, cancelled: cancelling) }
        return true
    }

    /// Runs a settlement that a drain queued.
    func finishSettlement() {
        let (finish, outcome, cancelled) = lock.withLock { () -> (Finish, Result<Value, any Error>, Bool) in
            finishPending = false
            return (takeFinish(), self.outcome!, wasCancelled)
        }
        finish.run(outcome, cancelled: cancelled)
    }

    /// Everything a settlement still has to do, moved out of the response. Call with the lock held.
    private func takeFinish() -> Finish {
        defer {
            extras = nil
            upstream = nil
        }
        return Finish(handlers: handlers.take(), extras: extras, upstream: upstream)
    }

    /// What is left to do once a response has settled, run without the lock.
    private struct Finish {
        let handlers: HandlerList<Value>
        let extras: ResponseExtras<Value>?
        let upstream: (any UpstreamLink)?

        func run(_ outcome: Result<Value, any Error>, cancelled: Bool) {
            extras?.responseDidSettle(cancelled: cancelled)
            handlers.deliver(outcome)
            upstream?.releaseDemand()
        }
    }

    /// Settles the response with the error `makeError` builds, unless it is settled already; the error is built
    /// only when needed (abandonment checks run on every resolver's release).
    func failIfPending(_ makeError: () -> any Error) {
        if isDone { return }
        settle(.failure(makeError()))
    }

    /// The outcome if settled, without waiting.
    var settledOutcome: Result<Value, any Error>? {
        lock.withLock { outcome }
    }
}

// MARK: - Registering

extension Response {
    /// Adds a handler, or delivers it now if the response has settled.
    func addHandler(_ callback: Callback<Value>, on queue: any CallbackQueue) {
        let handler = Handler(callback, on: queue)
        lock.lock()
        if let outcome, !finishPending {
            lock.unlock()
            handler.deliver(outcome)
        } else {
            handlers.append(handler)
            lock.unlock()
        }
    }

    /// Runs `body` with the extras, creating them if needed, while the lock is held; `nil` once settled.
    func withExtras<T>(_ body: (ResponseExtras<Value>) -> T) -> T? {
        lock.withLock {
            guard outcome == nil else { return nil }
            if let extras { return body(extras) }
            let created = ResponseExtras<Value>()
            extras = created
            return body(created)
        }
    }
}
