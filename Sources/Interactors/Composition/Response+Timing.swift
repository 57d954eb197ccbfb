import Dispatch

// MARK: Time

extension Response {
    /// A response that settles like this one, or fails with ``ResponseError/timedOut`` if this one has not
    /// settled within `duration`; timing out releases this one, which is then cancelled unless another consumer
    /// needs it.
    ///
    /// The timeout fires from a thread of the library's own, which also hands the timed-out response's handlers
    /// bound for a queue (a `DispatchQueue`, `.main`) to their queues: they run near the deadline even when
    /// Dispatch's global pool is saturated. Handlers on `.immediate` run on a global queue.
    ///
    /// ```swift
    /// let user = api.user(id).timeout(after: .seconds(2))
    /// ```
    public func timeout(after duration: Duration, callbackQueue: (any CallbackQueue)? = nil) -> Response<Value> {
        let queue = QueueReference(callbackQueue, or: queueReference)
        // Settled already: nothing to time; the timed response settles alike, at once.
        if let outcome = deliveredOutcome { return Response(outcome: outcome, callbackQueue: queue) }
        // As `derive` does, but seen through a deadline: a caller blocked on `derived` does not run this one's
        // global-queue work in its place, which could keep it past the deadline. The link is also the timer's
        // entry: settling `derived` any other way cancels it, so it leaves the timer at once.
        let link = DeadlineLink<Value>(upstream: self)
        let derived = Response(callbackQueue: queue, upstream: link)
        link.timed = derived
        addConsumingHandler(
            Handler(
                immediate: .result { outcome in
                    DeadlineTimer.shared.cancel(link)
                    derived.settle(outcome, upstreamIsSettled: true)
                },
                ownedBy: derived
            )
        )
        // On the library's timer thread, not the global pool, so it fires even when the pool is saturated. The
        // timer thread then hands the handlers bound for a queue to their queues itself, so they too run near the
        // deadline; immediate handlers and stages, which would run user code on it, go to a global queue or a
        // blocked caller (see `Response+DeliveringElsewhere.swift`).
        if !derived.isSettled { DeadlineTimer.shared.schedule(link, at: .now() + duration.dispatchInterval) }
        return derived
    }

    /// A response that settles like this one, `duration` after this one settles.
    ///
    /// ```swift
    /// let banner = showBanner().delay(by: .seconds(3)).flatMap { hideBanner() }
    /// ```
    public func delay(by duration: Duration, callbackQueue: (any CallbackQueue)? = nil) -> Response<Value> {
        derive(callbackQueue: callbackQueue) { (derived: Response<Value>) in
            .result { outcome in
                DispatchQueue.global().asyncAfter(deadline: .now() + duration.dispatchInterval) {
                    derived.settle(outcome)
                }
            }
        }
    }

    /// A response from `attempt`, tried again up to `times` more times while it fails, `delay` apart: each try
    /// is a new response from `attempt`.
    ///
    /// ```swift
    /// let feed = Response.retry(times: 3, delay: .milliseconds(200)) { api.feed() }
    /// ```
    ///
    /// `times` counts retries, as Combine's `retry(_:)` does: `times: 3` makes up to four attempts. It settles
    /// with the first success or the last failure. A `CancellationError` is not retried; cancelling the returned
    /// response cancels the attempt under way and stops further ones.
    public static func retry(
        times: Int,
        delay: Duration = .zero,
        callbackQueue: (any CallbackQueue)? = nil,
        _ attempt: @escaping @Sendable () -> Response<Value>
    ) -> Response<Value> {
        // Linked from the start, before any attempt is pending (attempts that fail at once, then a delay): a
        // caller blocked on it then knows a later attempt may bring work it owes (see `WakeUpList.blockedCallers`).
        let retrying = Response(
            callbackQueue: QueueReference(callbackQueue, or: .default),
            upstream: UpstreamGroup([])
        )
        retrying.makeAttempt(retriesLeft: max(0, times), delay: delay, attempt)
        return retrying
    }

    /// Makes attempts until one is pending, or until the outcome is decided. Attempts that settle at once are
    /// decided in this loop, not by nested calls, so thousands of them do not grow the stack.
    private func makeAttempt(
        retriesLeft: Int,
        delay: Duration,
        _ attempt: @escaping @Sendable () -> Response<Value>
    ) {
        var retriesLeft = retriesLeft
        while !isDone {
            let current = attempt()
            switchUpstream(to: current)
            if let outcome = current.settledOutcome {
                guard shouldRetry(outcome, retriesLeft: retriesLeft) else {
                    settle(outcome, upstreamIsSettled: true)
                    return
                }
                retriesLeft -= 1
                guard delay > .zero else { continue }
                return retryLater(retriesLeft: retriesLeft, delay: delay, attempt)
            }
            let retriesLeft = retriesLeft
            current.add(
                Handler(
                    immediate: .result { [self] outcome in
                        guard shouldRetry(outcome, retriesLeft: retriesLeft) else {
                            settle(outcome, upstreamIsSettled: true)
                            return
                        }
                        guard delay > .zero else {
                            return makeAttempt(retriesLeft: retriesLeft - 1, delay: delay, attempt)
                        }
                        retryLater(retriesLeft: retriesLeft - 1, delay: delay, attempt)
                    },
                    ownedBy: self
                )
            )
            return
        }
    }

    /// Whether an attempt's outcome calls for another attempt.
    private func shouldRetry(_ outcome: Result<Value, any Error>, retriesLeft: Int) -> Bool {
        guard case .failure(let error) = outcome else { return false }
        return retriesLeft > 0 && !(error is CancellationError) && !isDone
    }

    private func retryLater(
        retriesLeft: Int,
        delay: Duration,
        _ attempt: @escaping @Sendable () -> Response<Value>
    ) {
        DispatchQueue.global().asyncAfter(deadline: .now() + delay.dispatchInterval) {
            self.makeAttempt(retriesLeft: retriesLeft, delay: delay, attempt)
        }
    }
}
