import Dispatch

// MARK: Time

extension Response {
    /// A response that settles like this one, or fails with ``ResponseError/timedOut`` if this one has not
    /// settled within `duration`; timing out releases this one, which is then cancelled unless another consumer
    /// needs it.
    ///
    /// ```swift
    /// let user = api.user(id).timeout(after: .seconds(2))
    /// ```
    public func timeout(after duration: Duration, callbackQueue: (any CallbackQueue)? = nil) -> Response<Value> {
        let derived = derive(callbackQueue: callbackQueue) { (derived: Response<Value>) in
            .result { outcome in derived.settle(outcome, upstreamIsSettled: true) }
        }
        // Weak: a response that settled in time, and that nobody holds any more, need not live until the timer.
        DispatchQueue.global().asyncAfter(deadline: .now() + duration.dispatchInterval) { [weak derived] in
            derived?.settle(.failure(ResponseError.timedOut))
        }
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
        let retrying = Response(callbackQueue: callbackQueue ?? DefaultCallbackQueue.shared)
        retrying.makeAttempt(retriesLeft: max(0, times), delay: delay, attempt)
        return retrying
    }

    private func makeAttempt(
        retriesLeft: Int,
        delay: Duration,
        _ attempt: @escaping @Sendable () -> Response<Value>
    ) {
        guard !isDone else { return }
        let current = attempt()
        switchUpstream(to: current)
        current.addImmediateHandler(
            .result { [self] outcome in
                guard case .failure(let error) = outcome, retriesLeft > 0, !(error is CancellationError), !isDone else {
                    settle(outcome)
                    return
                }
                guard delay > .zero else { return makeAttempt(retriesLeft: retriesLeft - 1, delay: delay, attempt) }
                DispatchQueue.global().asyncAfter(deadline: .now() + delay.dispatchInterval) {
                    self.makeAttempt(retriesLeft: retriesLeft - 1, delay: delay, attempt)
                }
            }
        )
    }
}
