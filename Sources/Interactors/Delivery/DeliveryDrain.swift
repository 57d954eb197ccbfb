#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Something a drain finishes later: a settled response whose handlers still have to run.
protocol DeferredSettlement: AnyObject {
    func finishSettlement()
}

/// A per-thread trampoline that keeps chains of responses from recursing.
///
/// Settling a response runs its immediate handlers, and an immediate handler (a `map` stage, a user's handler)
/// may settle another response, whose handlers settle another... Run naively, a 10,000-stage chain is 10,000
/// nested calls and overflows a worker thread's stack. Instead, the first settlement on a thread becomes the
/// drain: settlements made while it runs are queued and finished one after another, in the order they were made,
/// before the outermost `settle` returns. The outcome itself is recorded at once, so `isDone` and `get()` see it
/// immediately; only handler delivery waits for the current handler to return.
final class DeliveryDrain {
    private var isDraining = false
    private var queue: [any DeferredSettlement] = []
    private var next = 0

    /// Whether this thread is inside a drain now, so a settlement should be queued rather than finished.
    var isActive: Bool { isDraining }

    /// Queues `settlement` behind the one being finished.
    func enqueue(_ settlement: any DeferredSettlement) {
        queue.append(settlement)
    }

    /// Finishes `first` with this thread as the drain, then everything it causes.
    func drain(startingWith first: () -> Void) {
        isDraining = true
        first()
        runQueued()
        isDraining = false
        queue.removeAll(keepingCapacity: queue.capacity <= 64)
        next = 0
    }

    /// Finishes queued settlements until none is left. Also called by a thread about to block inside a handler,
    /// so it never waits for a delivery that only it could make.
    func runQueued() {
        while next < queue.count {
            let settlement = queue[next]
            next += 1
            settlement.finishSettlement()
        }
    }

    // MARK: Per-thread instance

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<DeliveryDrain>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<DeliveryDrain>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "Interactors: pthread_key_create failed (\(status))")
        return key
    }()

    /// This thread's drain.
    static var current: DeliveryDrain {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<DeliveryDrain>.fromOpaque(pointer).takeUnretainedValue()
        }
        let drain = DeliveryDrain()
        pthread_setspecific(key, Unmanaged.passRetained(drain).toOpaque())
        return drain
    }
}
