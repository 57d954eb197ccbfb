import Dispatch
import Interactors

// The tour of blocking: a handler may block on the library anywhere, and everything else still answers; and work
// that cannot be taken back (a write that has begun) is not cancelled under its caller.

func blockingTour() {
    print("\n== Blocking anywhere: 64 stages wait, the rest still answers ==")
    // A lock the tour opens later: 64 stages block on it, each on a thread of the library's own.
    let (unlocked, unlock) = Response<Int>.makePending()
    let entered = DispatchSemaphore(value: 0)
    let stages = (0..<64).map { _ in
        Response(value: 0).delay(by: .milliseconds(1)).map { _ -> Int in
            entered.signal()
            return try unlocked.get(timeout: .seconds(10))  // blocks this stage's thread
        }
    }
    for _ in stages { entered.wait() }
    let start = ContinuousClock.now
    let answered = DispatchSemaphore(value: 0)
    _ = Response(value: "on time").delay(by: .milliseconds(20)).map { _ in answered.signal() }
    answered.wait()
    let (seconds, attoseconds) = (ContinuousClock.now - start).components
    let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    print(
        "anywhere: 64 stages are blocked on the library; a stage due after 20 ms still ran after "
            + "\(milliseconds) ms (the library replaced each blocked thread meanwhile)"
    )
    unlock.succeed(1)
    let finished = stages.compactMap { try? $0.get(timeout: .seconds(10)) }.count
    print("anywhere: the tour opened the lock: \(finished) of 64 stages finished")

    print("\n== A write that has begun is not cancelled ==")
    let (write, store) = Response<String>.makePending()
    let answer = write.map { "saved \($0)" }
    store.commitToOutcome()  // the store began the write: it will happen whatever the caller does
    answer.cancel()
    store.succeed("note 7")
    print(
        "committed: the caller cancelled after the write began; it was not cancelled (\(answer.isCancelled)), "
            + "and answers \((try? answer.get()) ?? "nothing")"
    )
}
