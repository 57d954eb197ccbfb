public import Dispatch
import Synchronization

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

        guard let place = beginBlocking() else { return settledOutcome }
        // Code that other threads may wait for says what it waits on, so they can tell a cycle (`WaitRecord`).
        let record = drain.dependableDepth > 0 ? drain.waitRecord : nil
        record?.beginWaiting(on: self)
        // A thread of the library's own pools that blocks here is replaced meanwhile: what it waits for may need
        // that pool (see `WorkerPool`).
        let pool = drain.workerPool
        pool?._withUnsafeGuaranteedRef { $0.threadWillBlock() }
        defer {
            pool?._withUnsafeGuaranteedRef { $0.threadDidUnblock() }
            record?.endWaiting()
            endBlocking()
        }
        if place.parksOnStateWord { return waitOnStateWord(until: deadline) }
        return waitOnSemaphore(until: deadline, from: place)
    }

    /// Waits for a plain response, sleeping on its state word: nothing to allocate, nothing to register beyond
    /// the flag `beginBlocking()` set, which makes the settlement wake the word's sleepers.
    private func waitOnStateWord(until deadline: DispatchTime?) -> Result<Value, any Error>? {
        while true {
            let current = state.load(ordering: .acquiring)
            if ResponseState.phase(current) == ResponseState.delivered { return outcome }
            // A deferred delivery (deep chain, dropped resolver, timer) is ours to run rather than wait for.
            if current & ResponseState.finishPending != 0, finishSettlement() { continue }
            if let deadline, DispatchTime.now() >= deadline { return deliveredOutcome }
            ParkingWord.wait(on: state, whileItIs: current, until: deadline)
        }
    }

    /// Waits on a semaphore registered in the extras: for a caller that may have work to run in its place (on
    /// the main queue, or waiting on a composition), or where threads cannot sleep on a word.
    ///
    /// Who wakes it: the response's settlement, and, for a caller that may have work to run in its place, only
    /// what may give it some. A caller waiting on a composition watches every pending response on its path (see
    /// ``BlockedCallerWatch``), each of which signals its watchers when it moves to a new upstream (a `flatMap`, a
    /// retry), defers its delivery, or delivers; a caller on the main queue is also woken when a job is scheduled
    /// there (``WakeUpList/mainQueueCallers``). Nothing else wakes it: a settlement elsewhere costs it nothing.
    private func waitOnSemaphore(until deadline: DispatchTime?, from place: BlockedPlace) -> Result<Value, any Error>? {
        let wakeUp = DispatchSemaphore(value: 0)
        lock.withLock {
            if !isDelivered { makeExtras().waiters.append(wakeUp) }
        }
        // Only a caller on the main queue, or one waiting on a composition (whose upstreams may queue work it
        // owes), can ever have work to run in its place; a plain pending response only has to be waited for.
        let mayHelp = place.isOnMainQueue || place.isComposed
        if place.isOnMainQueue { WakeUpList.mainQueueCallers.register(wakeUp) }
        var watch = BlockedCallerWatch(wakeUp: wakeUp)
        defer {
            if place.isOnMainQueue { WakeUpList.mainQueueCallers.unregister(wakeUp) }
            watch.end()
            lock.withLock { extras?.waiters.removeAll { $0 === wakeUp } }
        }
        // When to look for work that a queue hierarchy holds back (see `HeldBackWorkReport`).
        var heldBackCheck = mayHelp ? DispatchTime.now() + HeldBackWorkReport.delay : nil
        while true {
            if let outcome = deliveredOutcome { return outcome }
            // A deferred delivery (deep chain, dropped resolver, timer) is ours to run rather than wait for.
            if finishSettlement() { continue }
            if mayHelp, helpWhileBlocked(timed: deadline != nil, from: place, watch: &watch) { continue }
            if let check = heldBackCheck, DispatchTime.now() >= check {
                reportHeldBackWork()
                heldBackCheck = DispatchTime.now() + HeldBackWorkReport.delay
            }
            let wakeAt = min(deadline ?? .distantFuture, heldBackCheck ?? .distantFuture)
            if wakeAt == .distantFuture {
                wakeUp.wait()
            } else if wakeUp.wait(timeout: wakeAt) == .timedOut, let deadline, DispatchTime.now() >= deadline {
                return deliveredOutcome
            }
        }
    }

    /// Registers a blocked caller as a consumer (a blocked caller keeps the response from being cancelled by its
    /// consumers letting go), and makes the close of the settlement take the slow path that wakes it. `nil` if
    /// the settlement has been delivered already; else where the caller waits from.
    private func beginBlocking() -> BlockedPlace? {
        let isOnMainQueue = MainCallbackQueue.shared.isCurrent
        let isMainThread = MainCallbackQueue.isMainThread
        return lock.withLock {
            guard !isDelivered else { return nil }
            // A response gains no upstream and no queued work after it is made: `Response(on:)`, the operators
            // and the combinators link them before they return it, and `flatMap` and `retry` only ever move
            // their link.
            let isComposed = slot.upstream != nil || extras?.queuedWork != nil
            let parksOnStateWord = ParkingWord.isAvailable && !isOnMainQueue && !isComposed
            var flags = ResponseState.closesSlowly
            if parksOnStateWord { flags |= ResponseState.hasParkedWaiters }
            // A read-modify-write: once settled, the close may exchange the word at any moment.
            var current = state.load(ordering: .relaxed)
            while true {
                let next = ResponseState.addingConsumer(current) | flags
                let (exchanged, original) = state.compareExchange(
                    expected: current,
                    desired: next,
                    ordering: .acquiringAndReleasing
                )
                if exchanged { break }
                current = original
            }
            return BlockedPlace(
                isOnMainQueue: isOnMainQueue,
                isMainThread: isMainThread,
                isComposed: isComposed,
                parksOnStateWord: parksOnStateWord
            )
        }
    }

    /// Unregisters a blocked caller; the last one carries out a cancellation that consumers asked for while it
    /// waited: if the response is still pending and no consumer is left.
    ///
    /// A pending response left with no consumer has no blocked caller either (each counts as one): the flags its
    /// callers set to be woken are cleared, so its settlement closes on the fast path and wakes nobody. Only
    /// blocked callers set them while the response is pending; once it has settled they may also stand for late
    /// handlers or extras, and stay.
    private func endBlocking() {
        let cancelNow = lock.withLock { () -> Bool in
            var current = state.load(ordering: .relaxed)
            while true {
                var next = current &- ResponseState.oneConsumer
                let isPending = ResponseState.phase(next) == ResponseState.pending
                let unconsumed = ResponseState.consumers(next) == 0
                if isPending && unconsumed {
                    next &= ~(ResponseState.hasParkedWaiters | ResponseState.closesSlowly)
                }
                let (exchanged, original) = state.compareExchange(
                    expected: current,
                    desired: next,
                    ordering: .acquiringAndReleasing
                )
                if exchanged { return isPending && unconsumed && next & ResponseState.consumerLetGo != 0 }
                current = original
            }
        }
        if cancelNow { cancelUnlessConsumed() }
    }

    /// Watches the flag for a few microseconds before parking, when that pays: a thread that settles from another
    /// core usually does so that fast, and parking and being woken costs tens of microseconds. `SpinPolicy`
    /// decides whether to spin (not on one core, nor while recent spins did not pay: a loaded machine, slow work)
    /// and for how long. Returns whether the settlement was delivered meanwhile.
    private func spinUntilDelivered(deadline: DispatchTime?) -> Bool {
        SpinPolicy.spin(until: deadline) { isDelivered }
    }

    /// Runs, on this thread, work this response waits on that could not start otherwise; returns whether it ran
    /// anything. Called again whenever something changes that may give it more (see ``BlockedCallerWatch``).
    ///
    /// - Deferred deliveries of the responses this one waits on, through any chain of upstreams: a settlement
    ///   made on the library's timer thread, by a dropped resolver, or queued in another thread's drain past the
    ///   depth limit, whose stages settle what this caller waits for.
    /// - Jobs the library queued to the main queue, in order, when this thread is on the main queue (or is the
    ///   main thread): they would wait for this thread.
    /// - Unstarted `Response(on:)` work this response waits on (its own, or its upstreams'), queued to a queue
    ///   this thread runs on (that queue, or one that targets it; or, for a caller on the main queue, a queue
    ///   seen to target the main queue): waiting would deadlock. The library's earlier unstarted work on that
    ///   queue runs first, in order, so the queue's order holds for the library's own work.
    /// - For a wait with no deadline, off the main thread, unstarted work queued to Dispatch's global queues,
    ///   unless a `timeout` stage lies on its path: global queues offer no exclusion to keep, and a pool whose
    ///   threads all block waiting for queued work would never get to it. A timed wait never does this, so it
    ///   returns by its deadline.
    private func helpWhileBlocked(timed: Bool, from place: BlockedPlace, watch: inout BlockedCallerWatch) -> Bool {
        var ran = place.isOnMainQueue && MainCallbackQueue.shared.runWaitingJobs()
        let mayRunGlobalWork = !place.isMainThread
        // Watched before it is used: a change made after the last walk signals the caller, which looks again.
        var help = collectAllBlockingHelp(timed: timed)
        while watch.add(help.upstreams) { help = collectAllBlockingHelp(timed: timed) }
        // Deliveries deferred on the way (a timed-out upstream whose stages settle this one, a settlement queued
        // past the depth limit in another thread's drain): this thread delivers them rather than wait for the
        // library's delivery threads or for that drain's outer handlers.
        for settlement in help.deferred where settlement.finishSettlement() { ran = true }
        for (work, workTimed) in help.work {
            guard let queue = work.queue else { continue }  // claimed already
            let dispatchQueue = queue as? DispatchQueue
            // Every pool thread counts as "on" a global queue, yet waiting there is no deadlock: owed means a
            // queue that runs nothing else while this thread holds it.
            if dispatchQueue?.isGlobalConcurrentQueue == true {
                if !workTimed, mayRunGlobalWork, work.runIfUnclaimed() { ran = true }
                continue
            }
            let marker = dispatchQueue.flatMap(QueueMarker.forLibraryWork(on:))
            // A queue seen to run on the main queue is held by a caller on the main queue, as its own is.
            guard queue.isCurrent || (place.isOnMainQueue && marker?.runsOnTheMainQueue == true) else { continue }
            marker?.runUnstarted(before: work)
            if work.runIfUnclaimed() { ran = true }
        }
        return ran
    }

    /// What this response waits on, through any chain of upstreams: queued work and the upstreams walked.
    private func collectAllBlockingHelp(timed: Bool) -> BlockingHelp {
        var help = BlockingHelp()
        collectBlockingHelp(into: &help, timed: timed)
        var visited = 0
        while visited < help.upstreams.count {
            let (link, linkTimed) = help.upstreams[visited]
            link.collectBlockingHelp(into: &help, timed: linkTimed)
            visited += 1
        }
        return help
    }

    /// Reports the work this wait is waiting for that a `DispatchQueue` has held back, unstarted, since the wait
    /// began (see `HeldBackWorkReport`). The global queues are left out: nobody holds them.
    private func reportHeldBackWork() {
        for (work, _) in collectAllBlockingHelp(timed: false).work where !work.isClaimed {
            guard let queue = work.queue as? DispatchQueue, !queue.isGlobalConcurrentQueue else { continue }
            HeldBackWorkReport.report(queue)
        }
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
    /// The caller sleeps on the response's state word rather than on a semaphore (see `ParkingWord`).
    let parksOnStateWord: Bool
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
