import Dispatch

/// What one thread is blocked on through the library while it runs code that other threads may wait for: a
/// factory's build, a registry's delivery, or `Response(on:)` work. A thread about to wait for such code asks
/// the code's record whether the code is waiting, directly or through other threads, for work that the asking
/// thread itself runs (``isWaiting(forWorkOn:)``); then waiting would never end, and it fails instead.
///
/// One record per thread, made on first use and kept by the thread's ``DeliveryDrain``. A thread publishes
/// what it blocks on only while it runs such code (``DeliveryDrain/dependableDepth``), so a plain wait pays
/// nothing here.
@usableFromInline
final class WaitRecord: @unchecked Sendable {
    // @unchecked Sendable: `awaited` is only touched while `lock` is held.

    /// The thread the record belongs to.
    let thread = currentThreadID()
    private let lock = Lock()
    private var awaited: [any UpstreamLink] = []

    /// Records that the thread blocks on `link`, and wakes the threads waiting for dependable code so they can
    /// check again whether they are awaited.
    func beginWaiting(on link: any UpstreamLink) {
        lock.withLock { awaited.append(link) }
        WakeUpList.dependencyWaiters.notify()
    }

    /// Records that the thread's latest wait is over.
    func endWaiting() {
        let ended = lock.withLock { awaited.popLast() }
        withExtendedLifetime(ended) {}  // released after the lock: a response's release may run user code
    }

    /// What the thread blocks on now, innermost last.
    private var awaitedLinks: [any UpstreamLink] {
        lock.withLock { awaited }
    }

    /// Whether this record's thread waits, through the library, for work that thread `asker` is running now:
    /// directly (the work is queued by a response it waits on, through any chain of operators), or through
    /// other threads whose running work it waits on and that wait in turn.
    func isWaiting(forWorkOn asker: UInt) -> Bool {
        var records = [self]
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
        var index = 0
        while index < records.count {
            var help = BlockingHelp()
            for link in records[index].awaitedLinks { help.upstreams.append((link, false)) }
            index += 1
            var visited = 0
            while visited < help.upstreams.count {
                let (link, timed) = help.upstreams[visited]
                link.collectBlockingHelp(into: &help, timed: timed)
                visited += 1
            }
            for (work, _) in help.work {
                guard let runner = work.runner else { continue }
                if runner.thread == asker { return true }
                if seen.insert(ObjectIdentifier(runner)).inserted { records.append(runner) }
            }
        }
        return false
    }
}

extension WaitRecord {
    /// The calling thread's record, made on first use.
    static var current: WaitRecord {
        DeliveryDrain.current.takeUnretainedValue().waitRecord
    }

    /// Runs `body`, code that other threads may wait for, publishing what this thread blocks on meanwhile.
    static func publishingWaits<T>(_ body: () throws -> T) rethrows -> T {
        unowned(unsafe) let drain = DeliveryDrain.current.takeUnretainedValue()
        drain.dependableDepth += 1
        defer { drain.dependableDepth -= 1 }
        return try body()
    }

    /// Waits on `wakeUp` until `isDone` says the wait is over, or `record`'s code turns out to wait for work
    /// this thread runs: then returns `false` instead of waiting forever. `wakeUp` is signalled when the wait
    /// may be over; it is also registered with ``WakeUpList/dependencyWaiters`` meanwhile, so a thread that
    /// starts waiting on this one's work wakes it to check again.
    static func wait(
        on wakeUp: DispatchSemaphore,
        for record: @autoclosure () -> WaitRecord?,
        until isDone: () -> Bool
    ) -> Bool {
        let me = currentThreadID()
        WakeUpList.dependencyWaiters.register(wakeUp)
        let pool = DeliveryDrain.current.takeUnretainedValue().workerPool
        pool?._withUnsafeGuaranteedRef { $0.threadWillBlock() }
        defer {
            pool?._withUnsafeGuaranteedRef { $0.threadDidUnblock() }
            WakeUpList.dependencyWaiters.unregister(wakeUp)
        }
        while !isDone() {
            if let record = record(), record.isWaiting(forWorkOn: me) { return isDone() }
            wakeUp.wait()
        }
        return true
    }
}
