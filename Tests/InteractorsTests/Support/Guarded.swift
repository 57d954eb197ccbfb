import Dispatch
import Interactors
import TestThreads
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs `body` on a thread of its own and waits for it at most `guardSeconds`: a scenario that would deadlock
/// fails the test instead of hanging the suite. `nil` if it did not finish in time (the thread stays blocked; on
/// Dispatch's pool it would hold a thread other tests need).
func finishing<T: Sendable>(
    guardSeconds: Double = 10,
    _ body: @escaping @Sendable () throws -> T
) -> Result<T, any Error>? {
    let outcome = LockedBox<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    PlatformThread.detach {
        let result = Result { try body() }
        outcome.withLock { $0 = result }
        done.signal()
    }
    guard done.wait(timeout: .now() + guardSeconds) == .success else { return nil }
    return outcome.withLock { $0 }
}

/// Holds a value for a test's closures to share.
final class Box<Value: Sendable>: Sendable {
    private let box: LockedBox<Value>

    init(_ value: Value) { box = LockedBox(value) }

    var value: Value {
        get { box.withLock { $0 } }
        set { box.withLock { $0 = newValue } }
    }
}

/// Whether `condition` becomes true within `guardSeconds`, for what another thread finishes asynchronously (a
/// queued job releasing what it held). Checks as often as the scheduler allows; the guard only bounds a failure.
func eventually(guardSeconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now() + guardSeconds
    while !condition() {
        if DispatchTime.now() >= deadline { return false }
        sched_yield()
    }
    return true
}

/// A cancellation paused inside a cancel handler, on another thread: the outcome is recorded, its delivery not
/// yet made. Handlers added meanwhile race the settlement.
struct PausedCancellation {
    private let proceed: Gate
    private let finished: Gate

    /// Cancels `response` on another thread and returns once it has paused.
    init<Value>(of response: Response<Value>, resolver: Resolver<Value>) {
        let entered = Gate()
        let proceed = Gate()
        let finished = Gate()
        resolver.onCancel {
            entered.open()
            proceed.wait()
        }
        DispatchQueue.global().async {
            response.cancel()
            finished.open()
        }
        entered.wait()
        self.proceed = proceed
        self.finished = finished
    }

    /// Lets the delivery go on, from another thread.
    func resumeElsewhere() {
        let proceed = self.proceed
        DispatchQueue.global().async { proceed.open() }
    }

    /// Lets the delivery go on and waits until the cancelling thread is done.
    func resumeAndWait() {
        proceed.open()
        finished.wait()
    }
}

/// The tests that park Dispatch's global pool on purpose (with ``SaturatedPool``), nested in this suite one
/// after another: two at once would park each other's probes, and while the pool is parked every other test that
/// needs it, Swift's tasks among them on Linux, waits, so each holds it only as long as its assertion needs.
@Suite(.serialized, .onThreadsOfTheirOwn) enum GlobalPoolSaturatingTests {}
