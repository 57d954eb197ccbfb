/// The library's threads for the user code a settlement leaves behind where none may run: the cancellation
/// handlers, stages and immediate handlers of a response settled on the timer thread (a timeout that fired, the
/// end of a `delay` or of a retry's wait) or where a resolver was dropped, and the release of what a consumer's
/// handlers captured when it let go from there.
///
/// Not Dispatch's global pool: the app's own blocking jobs, or a handful of blocking waits, can leave the pool
/// without a free thread for seconds, and `timeout(after:).map { ... }` has to settle near its deadline whatever
/// the pool's state. Nor the timer thread itself: a slow stage there would hold back every other deadline.
///
/// At most ``threadCount`` running threads named `ix.deliver`, started on first use, then kept: a process has
/// that many, never one per call. A stage that blocks on the library holds one of them, and is replaced meanwhile
/// (see `WorkerPool`): a stage due while others block still runs on time. A caller blocked on a response
/// downstream of the delivery claims it and runs it itself rather than wait for them (see
/// `Response.helpWhileBlocked`).
enum DeliveryThreads {
    /// How many `ix.deliver` threads the process runs while none of them is blocked on the library.
    static let threadCount = 2

    private static let pool = WorkerPool(name: "ix.deliver", threads: threadCount)

    /// Runs `job` on one of the delivery threads, after the jobs already waiting.
    static func run(_ job: @escaping @Sendable () -> Void) {
        pool.submit(job)
    }

    /// How many delivery threads exist now, for tests.
    static var liveThreads: Int { pool.liveThreads }

    /// How many delivery threads are blocked on the library now, each replaced meanwhile, for tests.
    static var blockedThreads: Int { pool.blockedThreads }
}
