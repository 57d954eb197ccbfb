#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Something a drain finishes later: a settled response whose handlers still have to run.
@usableFromInline
protocol DeferredSettlement: AnyObject {
    func finishSettlement()
}

/// A per-thread trampoline that keeps long chains of responses from overflowing the stack.
///
/// Settling a response runs its immediate handlers, and an immediate handler (a `map` stage, a user's handler)
/// may settle another response, whose handlers settle another... Run naively, a 10,000-stage chain is 10,000
/// nested calls and overflows a worker thread's stack. Short chains (the common case) do run nested, which is the
/// fastest; past ``maximumDepth`` nested settlements a settlement is queued here instead, and the outermost
/// settlement on the thread finishes the queue, in order, before it returns. The outcome itself is always
/// recorded at once, so `isDone` and `get()` see it immediately; only handler delivery waits.
@usableFromInline
final class DeliveryDrain {
    /// How many settlements this thread is finishing, one inside another, right now.
    @usableFromInline var depth = 0
    private var queue: [any DeferredSettlement] = []
    private var next = 0

    /// Deep enough for any chain written by hand to run nested; shallow enough for a 512 KiB thread stack.
    @usableFromInline static let maximumDepth = 24

    /// Whether settlements were queued and wait for the outermost settlement to finish them.
    @usableFromInline var hasQueued: Bool { next < queue.count }

    /// Queues `settlement` behind the ones being finished.
    @usableFromInline
    func enqueue(_ settlement: any DeferredSettlement) {
        queue.append(settlement)
    }

    /// Finishes queued settlements until none is left. Also called by a thread about to block inside a handler,
    /// so it never waits for a delivery that only it could make.
    @usableFromInline
    func runQueued() {
        while next < queue.count {
            let settlement = queue[next]
            next += 1
            depth += 1
            settlement.finishSettlement()
            depth -= 1
        }
        if depth == 0 {
            queue.removeAll(keepingCapacity: queue.capacity <= 64)
            next = 0
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
    @usableFromInline
    static var current: DeliveryDrain {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<DeliveryDrain>.fromOpaque(pointer).takeUnretainedValue()
        }
        let drain = DeliveryDrain()
        pthread_setspecific(key, Unmanaged.passRetained(drain).toOpaque())
        return drain
    }
}
