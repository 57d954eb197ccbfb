import Dispatch

// MARK: Time

extension Response {
    /// A response that settles like this one, or fails with ``ResponseError/timedOut`` if this one has not
    /// settled within `duration`; timing out releases this one, which is then cancelled unless another consumer
    /// needs it.
    ///
    /// The timeout fires from a thread of the library's own (`ix.timer`), which also hands the timed-out
    /// response's handlers bound for a queue (a `DispatchQueue`, `.main`) to their queues: they run near the
    /// deadline even when Dispatch's global pool is saturated. Stages (a `map` of the timed response) and handlers
    /// on `.immediate` run on the library's delivery threads (`ix.deliver`), or on a caller blocked on the timed
    /// response or downstream of it, whichever gets there first: never on the pool.
    ///
    /// ```swift
    /// let user = api.user(id).timeout(after: .seconds(2))
    /// ```
    ///
    /// With a `clock`, the timeout is a sleep on that clock until `clock.now` plus `duration`, read at this call:
    /// a test passes a `TestClock` and advances it instead of waiting. The sleep runs in a task, where the clock's
    /// sleeps resume, so this timeout makes no promise of independence from Dispatch's pool or Swift
    /// Concurrency's; handlers are delivered as above. Settling in time, or cancelling, cancels the sleep. A
    /// clock whose sleep throws (other than for that cancellation) fails the response with its error.
    @inlinable
    public func timeout(
        after duration: Duration,
        clock: (any Clock<Duration>)? = nil,
        callbackQueue: (any CallbackQueue)? = nil
    ) -> Response<Value> {
        let queue = QueueReference(callbackQueue, or: queueReference)
        // Settled already: nothing to time; the timed response settles alike, at once. Inlined: specialised in
        // the caller's module, this costs what a `map` of a settled response does.
        if let outcome = deliveredOutcome { return Response(outcome: outcome, callbackQueue: queue) }
        return timeoutPending(after: duration, clock: clock, callbackQueue: queue)
    }

    /// `timeout(after:clock:callbackQueue:)` of a response whose settlement has not been delivered yet.
    @usableFromInline
    func timeoutPending(
        after duration: Duration,
        clock: (any Clock<Duration>)?,
        callbackQueue queue: QueueReference
    ) -> Response<Value> {
        // As `derive` does, but seen through a deadline: a caller blocked on `derived` does not run this one's
        // global-queue work in its place, which could keep it past the deadline. The link is also the timer's
        // entry: settling `derived` any other way cancels it, so it leaves the timer at once.
        let link = DeadlineLink<Value>(upstream: self)
        let derived = Response(callbackQueue: queue, upstream: link)
        addConsumingHandler(
            Handler(
                immediate: .result { outcome in
                    DeadlineTimer.shared.cancel(link)
                    derived.settle(outcome, upstreamIsSettled: true)
                },
                ownedBy: derived
            )
        )
        if let clock {
            // Timed by the clock instead, from now (see `ClockTimer.swift`); delivered as the timer thread does.
            derived.startClockTimer(on: clock, after: duration) { [weak derived] clockError in
                derived?.settle(.failure(clockError ?? ResponseError.timedOut), route: .elsewhere)
            }
            return derived
        }
        // On the library's timer thread, not the global pool, so it fires even when the pool is saturated. The
        // timer thread then hands the handlers bound for a queue to their queues itself, so they too run near the
        // deadline; immediate handlers and stages, which would run user code on it, go to the library's delivery
        // threads or a blocked caller (see `Response+DeliveringElsewhere.swift`).
        // The link holds `derived` only while the timer does (until it expires or is cancelled).
        link.timed = derived
        if !derived.isSettled { DeadlineTimer.shared.schedule(link, at: .now() + duration.dispatchInterval) }
        return derived
    }

    /// A response that settles like this one, `duration` after this one settles.
    ///
    /// ```swift
    /// let banner = showBanner().delay(by: .seconds(3)).flatMap { hideBanner() }
    /// ```
    ///
    /// Without a `clock`, the wait is on the library's timer thread, as a timeout's is: the delayed response settles
    /// near its deadline even when Dispatch's global pool is saturated, and that thread hands its handlers bound
    /// for a queue to their queues; stages and handlers on `.immediate` run on the library's delivery threads, or
    /// on a caller blocked downstream, never on the pool. Cancelling the delayed response cancels the wait.
    ///
    /// With a `clock`, the wait is a sleep on that clock until `clock.now` plus `duration`, read when this one
    /// settles; it runs in a task, and cancelling the delayed response cancels the sleep. A clock whose sleep
    /// throws (other than for that cancellation) fails the response with its error.
    public func delay(
        by duration: Duration,
        clock: (any Clock<Duration>)? = nil,
        callbackQueue: (any CallbackQueue)? = nil
    ) -> Response<Value> {
        derive(callbackQueue: callbackQueue) { (derived: Response<Value>) in
            .result { outcome in
                if let clock {
                    // From now, when this one has settled (see `ClockTimer.swift`).
                    return derived.startClockTimer(on: clock, after: duration) { clockError in
                        derived.settle(clockError.map { .failure($0) } ?? outcome, route: .elsewhere)
                    }
                }
                // The wait replaces this (settled) response as the delayed one's upstream: nothing to release.
                derived.wait(for: duration) {
                    derived.settle(outcome, upstreamIsSettled: true, route: .elsewhere)
                }
            }
        }
    }

    /// A response from `attempt`, tried again up to `times` more times while it fails and `while:` agrees, waiting
    /// between tries as the policy says: each try is a new response from `attempt`.
    ///
    /// ```swift
    /// let feed = Response.retry(times: 3, delay: .milliseconds(200)) { api.feed() }
    /// ```
    ///
    /// `times` counts retries, as Combine's `retry(_:)` does: `times: 3` makes up to four attempts. It settles
    /// with the first success or the last failure. Cancelling the returned response cancels the attempt under
    /// way, or the wait for the next one, and stops further ones.
    ///
    /// The wait before retry *n* is `delay × backoff^(n−1)`, capped at `maxDelay`, then multiplied by a random
    /// factor in `1 − jitter ... 1 + jitter` drawn afresh for each wait: `backoff: 2` doubles the wait each time,
    /// and jitter spreads the retries of many clients that failed together. The defaults (`backoff: 1`, no cap,
    /// no jitter) wait `delay` every time.
    ///
    /// `while:` is asked about each failure while retries remain, on the thread where that attempt failed;
    /// answering `false` settles with that failure. A `CancellationError` is never retried, nor asked about. By
    /// default every other failure is retried. For HTTP, the usual rule retries what says the server could not be
    /// reached or could not answer: transport errors other than a cancelled request, a `timeout(after:)` that
    /// fired (``ResponseError/timedOut``), 5xx, 408 (request timeout) and 429 (too many requests); never another
    /// 4xx, which a retry would only repeat. `InteractorsData`'s `CacheRepository.serverUnavailable(_:)` is that
    /// rule: pass it as `while:`. For writes, use `InteractorsData`'s `HTTPRetryPolicy` instead: this retry knows
    /// no HTTP methods, and would send a POST again after a timeout, when the server may have acted on it.
    ///
    /// Without a `clock`, the waits are on the library's timer thread, as timeouts are, and each next attempt is
    /// started from that thread (`attempt` only starts work): the retries keep their schedule even when Dispatch's
    /// global pool is saturated. A retry that settles there hands its handlers bound for a queue to their queues,
    /// and runs stages and handlers on `.immediate` on the library's delivery threads or a caller blocked
    /// downstream, never on the pool. With a `clock`, the waits are sleeps on that clock, each counted from the
    /// moment the failed attempt settled, and the next attempt is made where the clock's sleep resumes (a task); a
    /// test passes a `TestClock` and advances it instead of waiting.
    ///
    /// - Precondition: `backoff` ≥ 1 and `jitter` in `0...1`.
    public static func retry(
        times: Int,
        delay: Duration = .zero,
        backoff: Double = 1,
        maxDelay: Duration? = nil,
        jitter: Double = 0,
        clock: (any Clock<Duration>)? = nil,
        callbackQueue: (any CallbackQueue)? = nil,
        while shouldRetry: @escaping @Sendable (any Error) -> Bool = { _ in true },
        _ attempt: @escaping @Sendable () -> Response<Value>
    ) -> Response<Value> {
        // Linked from the start, before any attempt is pending (attempts that fail at once, then a delay): a
        // caller blocked on it then watches it, and hears when a later attempt may bring work it owes (see
        // `BlockedCallerWatch`).
        let retrying = Response(
            callbackQueue: QueueReference(callbackQueue, or: .default),
            upstream: UpstreamGroup([])
        )
        let policy = RetryPolicy(
            times: max(0, times),
            delay: delay,
            backoff: backoff,
            maxDelay: maxDelay,
            jitter: jitter,
            clock: clock.map { ($0, retrying.makeClockTimerSlot()) },
            shouldRetry: shouldRetry
        )
        retrying.makeAttempt(retry: 0, policy: policy, attempt)
        return retrying
    }

    /// Makes attempts, starting with retry number `retry` (0: the first attempt), until one is pending or the
    /// outcome is decided. Attempts that settle at once are decided in this loop, not by nested calls, so
    /// thousands of them do not grow the stack. `route` says where a settlement made here is delivered: from the
    /// timer thread, elsewhere.
    private func makeAttempt(
        retry: Int,
        policy: RetryPolicy,
        route: DeliveryRoute = .settlingThread,
        _ attempt: @escaping @Sendable () -> Response<Value>
    ) {
        var retry = retry
        while !isDone {
            let current = attempt()
            if let outcome = current.settledOutcome {
                guard shouldRetry(outcome, retry: retry + 1, policy: policy) else {
                    settle(outcome, upstreamIsSettled: true, route: route)
                    return
                }
                retry += 1
                let wait = policy.wait(beforeRetry: retry)
                guard wait > .zero else { continue }
                return retryLater(retry: retry, after: wait, policy: policy, attempt)
            }
            let retry = retry
            consume(
                current,
                through: .result { [self] outcome in
                    guard shouldRetry(outcome, retry: retry + 1, policy: policy) else {
                        settle(outcome, upstreamIsSettled: true)
                        return
                    }
                    let wait = policy.wait(beforeRetry: retry + 1)
                    guard wait > .zero else {
                        return makeAttempt(retry: retry + 1, policy: policy, attempt)
                    }
                    retryLater(retry: retry + 1, after: wait, policy: policy, attempt)
                }
            )
            return
        }
    }

    /// Whether an attempt's outcome calls for retry number `retry`.
    private func shouldRetry(_ outcome: Result<Value, any Error>, retry: Int, policy: RetryPolicy) -> Bool {
        guard case .failure(let error) = outcome, retry <= policy.times, !(error is CancellationError), !isDone
        else { return false }
        return policy.shouldRetry(error)
    }

    /// Makes retry number `retry` once `wait` has passed, counted from now.
    private func retryLater(
        retry: Int,
        after wait: Duration,
        policy: RetryPolicy,
        _ attempt: @escaping @Sendable () -> Response<Value>
    ) {
        if let timed = policy.clock {
            return timed.timers.start(on: timed.clock, after: wait) { [self] clockError in
                guard let clockError else { return makeAttempt(retry: retry, policy: policy, attempt) }
                settle(.failure(clockError), route: .elsewhere)
            }
        }
        // On the timer thread, which starts the attempt itself: no hop through Dispatch's pool.
        self.wait(for: wait) { [self] in makeAttempt(retry: retry, policy: policy, route: .elsewhere, attempt) }
    }
}
