public import Dispatch

// MARK: Blocking
//
// For tests, command-line tools and composition on threads that may block. A blocked caller returns once the
// settlement has been delivered: every handler registered before it has run or been handed to its queue. It
// never deadlocks on work owed to the queue it is running on: that work runs in its place, whenever it appears
// (see `helpWhileBlocked(timed:)`). A timed wait returns by its deadline, unless it is running such work.

extension Response {
    /// Waits for the response to settle, then returns its value or throws its error.
    @available(*, noasync, message: "Blocking starves Swift concurrency's threads: use `try await response.value`")
    @inlinable
    public func get() throws -> Value {
        if let outcome = deliveredOutcome { return try outcome.get() }
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
        if let outcome = deliveredOutcome { return outcome }
        let drain = DeliveryDrain.current.takeUnretainedValue()
        // Blocking inside a handler: first finish the settlements this thread owes, which may be what we wait on.
        if drain.hasQueued {
            drain.runQueued()
            if let outcome = deliveredOutcome { return outcome }
        }
        // A handler (or a stage) of this very response blocking on it: its delivery is this thread's to finish,
        // so waiting for it would never end. The outcome is all it can have.
        if drain.depth > 0, let outcome = settledOutcome { return outcome }
        if spinUntilDelivered(deadline: deadline), let outcome = deliveredOutcome { return outcome }

        let wakeUp = DispatchSemaphore(value: 0)
        guard let place = beginBlocking(wakeUp) else { return settledOutcome }
        // Only a caller on the main queue, or one waiting on a composition (whose upstreams may queue work it
        // owes), can ever have work to run in its place; a plain pending response only has to be waited for.
        let mayHelp = place.isOnMainQueue || place.isComposed
        if mayHelp { BlockedCallers.register(wakeUp) }
        defer {
            if mayHelp { BlockedCallers.unregister(wakeUp) }
            endBlocking(wakeUp)
        }
        while true {
            if let outcome = deliveredOutcome { return outcome }
            // A deferred delivery (deep chain, dropped resolver, timer) is ours to run rather than wait for.
            if finishSettlement() { continue }
            if mayHelp, helpWhileBlocked(timed: deadline != nil, from: place) { continue }
            if let deadline {
                if wakeUp.wait(timeout: deadline) == .timedOut { return deliveredOutcome }
            } else {
                wakeUp.wait()
            }
        }
    }

    /// Registers a blocked caller: its semaphore, woken when the settlement is delivered or deferred, and its
    /// demand (a blocked caller is a consumer). `nil` if the settlement has been delivered already; else where
    /// the caller waits from.
    private func beginBlocking(_ wakeUp: DispatchSemaphore) -> BlockedPlace? {
        let isOnMainQueue = MainCallbackQueue.shared.isCurrent
        return lock.withLock {
            guard !isDelivered else { return nil }
            let extras = self.extras ?? ResponseExtras<Value>()
            self.extras = extras
            extras.waiters.append(wakeUp)
            extras.blockedCallers += 1
            // A response gains no upstream and no queued work after it is made: `Response(on:)`, the operators
            // and the combinators link them before they return it, and `flatMap` and `retry` only ever move
            // their link.
            let isComposed = upstream != nil || extras.queuedWork != nil
            return BlockedPlace(
                isOnMainQueue: isOnMainQueue,
                isMainThread: MainCallbackQueue.isMainThread,
                isComposed: isComposed
            )
        }
    }

    /// Unregisters a blocked caller; the last one carries out a cancellation that consumers asked for while it
    /// waited.
    private func endBlocking(_ wakeUp: DispatchSemaphore) {
        let cancelNow = lock.withLock { () -> Bool in
            guard let extras else { return false }
            extras.waiters.removeAll { $0 === wakeUp }
            extras.blockedCallers -= 1
            return extras.blockedCallers == 0 && extras.cancelWhenUnblocked && consumers == 0 && !isSettled
        }
        if cancelNow { cancel() }
    }

    /// Watches the flag for a few microseconds before parking, when that pays: a thread that settles from another
    /// core usually does so that fast, and parking and being woken costs tens of microseconds. `SpinPolicy`
    /// decides whether to spin (not on one core, nor while recent spins did not pay: a loaded machine, slow work)
    /// and for how long. Returns whether the settlement was delivered meanwhile.
    private func spinUntilDelivered(deadline: DispatchTime?) -> Bool {
        SpinPolicy.spin(until: deadline) { isDelivered }
    }

    /// Runs, on this thread, work this response waits on that could not start otherwise; returns whether it ran
    /// anything. Called again whenever something changes that may give it more (see `BlockedCallers`).
    ///
    /// - Jobs the library queued to the main queue, in order, when this thread is on the main queue (or is the
    ///   main thread): they would wait for this thread.
    /// - Unstarted `Response(on:)` work this response waits on (its own, or its upstreams'), queued to a queue
    ///   this thread runs on (that queue, or one that targets it): waiting would deadlock.
    /// - For a wait with no deadline, off the main thread, unstarted work queued to Dispatch's global queues,
    ///   unless a `timeout` stage lies on its path: global queues offer no exclusion to keep, and a pool whose
    ///   threads all block waiting for queued work would never get to it. A timed wait never does this, so it
    ///   returns by its deadline.
    private func helpWhileBlocked(timed: Bool, from place: BlockedPlace) -> Bool {
        var ran = place.isOnMainQueue && MainCallbackQueue.shared.runWaitingJobs()
        var help = BlockingHelp()
        collectBlockingHelp(into: &help, timed: timed)
        var visited = 0
        while visited < help.upstreams.count {
            let (link, linkTimed) = help.upstreams[visited]
            link.collectBlockingHelp(into: &help, timed: linkTimed)
            visited += 1
        }
        let mayRunGlobalWork = !place.isMainThread
        for (work, workTimed) in help.work {
            let queue = work.queue
            // Every pool thread counts as "on" a global queue, yet waiting there is no deadlock: owed means a
            // queue that runs nothing else while this thread holds it.
            if (queue as? DispatchQueue)?.isGlobalConcurrentQueue == true {
                if !workTimed, mayRunGlobalWork, work.runIfUnclaimed() { ran = true }
            } else if queue.isCurrent, work.runIfUnclaimed() {
                ran = true
            }
        }
        return ran
    }
}

/// Where a blocked caller waits from, worked out once per wait.
private struct BlockedPlace {
    /// On the main queue or the main thread: the library's main-queue jobs are the caller's to run.
    let isOnMainQueue: Bool
    /// On the main thread: global-queue work is never run in its place.
    let isMainThread: Bool
    /// The response has an upstream or queued work: the caller may owe work to its own queue.
    let isComposed: Bool
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
