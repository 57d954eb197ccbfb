public import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// MARK: Blocking
//
// For tests, command-line tools and composition on threads that may block. Each checks for a settled outcome
// before parking, parks once, and never deadlocks on work queued to the queue the caller is running on: that
// work runs in the caller's place (see `runQueuedWorkIfWaitingWouldStall`).

extension Response {
    /// Waits for the response to settle, then returns its value or throws its error.
    @available(*, noasync, message: "Blocking starves Swift concurrency's threads: use `try await response.value`")
    @inlinable
    public func get() throws -> Value {
        if let outcome = settledOutcome { return try outcome.get() }
        return try waitForOutcome(deadline: nil)!.get()
    }

    /// Waits at most `timeout` for the response to settle, then returns its value or throws its error; throws
    /// ``ResponseError/timedOut`` if it has not settled by then. The response itself is left as it is.
    @available(*, noasync, message: "Blocking starves Swift concurrency's threads: use `try await response.value`")
    public func get(timeout: Duration) throws -> Value {
        guard let outcome = waitForOutcome(deadline: .now() + timeout.dispatchInterval) else {
            throw ResponseError.timedOut
        }
        return try outcome.get()
    }

    /// Waits for the response to settle and returns its outcome.
    @available(*, noasync, message: "Blocking starves Swift concurrency's threads: use `try await response.value`")
    public var result: Result<Value, any Error> {
        waitForOutcome(deadline: nil)!
    }

    /// Waits for the response to settle and returns its error, or `nil` if it succeeded.
    @available(*, noasync, message: "Blocking starves Swift concurrency's threads: use `try await response.value`")
    public var error: (any Error)? {
        if case .failure(let error) = waitForOutcome(deadline: nil)! { return error }
        return nil
    }

    /// The outcome, waiting until `deadline` at most (forever if `nil`); `nil` if it timed out.
    @usableFromInline
    func waitForOutcome(deadline: DispatchTime?) -> Result<Value, any Error>? {
        if let outcome = settledOutcome { return outcome }
        // Blocking inside a handler: first finish the settlements this thread owes, which may be what we wait on.
        let drain = DeliveryDrain.current.takeUnretainedValue()
        if drain.hasQueued {
            drain.runQueued()
            if let outcome = settledOutcome { return outcome }
        }
        runQueuedWorkIfWaitingWouldStall()
        if spinUntilSettled(deadline: deadline), let outcome = settledOutcome { return outcome }

        let wakeUp = DispatchSemaphore(value: 0)
        guard withExtras({ $0.waiters.append(wakeUp) }) != nil else { return settledOutcome }
        if let deadline {
            guard wakeUp.wait(timeout: deadline) == .success else {
                // Timed out: take the semaphore back; if the response settled meanwhile, it still counts.
                let stillPending = withExtras { $0.waiters.removeAll { $0 === wakeUp } } != nil
                return stillPending ? nil : settledOutcome
            }
        } else {
            wakeUp.wait()
        }
        return settledOutcome
    }

    /// Watches the flag for a few microseconds before parking, when that pays: a thread that settles from another
    /// core usually does so that fast, and parking and being woken costs tens of microseconds. `SpinPolicy`
    /// decides whether to spin (not on one core, nor while recent spins did not pay: a loaded machine, slow work)
    /// and for how long. Returns whether the response settled.
    private func spinUntilSettled(deadline: DispatchTime?) -> Bool {
        SpinPolicy.spin(until: deadline) { isSettled }
    }

    /// Runs unstarted queued work that this response waits on (its own, or its upstreams', for composed
    /// responses) on this thread, where this thread runs on the queue that owes it (waiting would deadlock) or
    /// the queue is one of Dispatch's global concurrent queues (it offers no exclusion to preserve, and waiting
    /// for a free worker thread could starve).
    private func runQueuedWorkIfWaitingWouldStall() {
        var work: [any InlineRunnableWork] = []
        var upstreams: [any UpstreamLink] = []
        collectBlockingHelp(work: &work, upstreams: &upstreams)
        var visited = 0
        while visited < upstreams.count {
            upstreams[visited].collectBlockingHelp(work: &work, upstreams: &upstreams)
            visited += 1
        }
        for item in work {
            let queue = item.queue
            if queue.isCurrent || (queue as? DispatchQueue)?.isGlobalConcurrentQueue == true {
                item.runIfUnclaimed()
            }
        }
    }
}

extension Duration {
    /// This duration for Dispatch, saturating rather than overflowing for very long durations.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .nanoseconds(0) : .never }
        let (total, overflowAgain) = nanoseconds.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !overflowAgain, let interval = Int(exactly: total) else { return .never }
        return .nanoseconds(max(0, interval))
    }
}
