#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Something a drain finishes later: a settled response whose handlers still have to run. Claimable once: a
/// blocked caller may have delivered it already, and then the drain skips it.
@usableFromInline
protocol DeferredSettlement: AnyObject {
    @discardableResult func finishSettlement() -> Bool
}

/// A per-thread trampoline that keeps long chains of responses from overflowing the stack.
///
/// Settling a response runs its immediate handlers, and an immediate handler (a `map` stage, a user's handler)
/// may settle another response, whose handlers settle another... Run naively, a 10,000-stage chain is 10,000
/// nested calls and overflows a worker thread's stack. Short chains (the common case) do run nested, which is the
/// fastest; past ``maximumDepth`` nested settlements a settlement is queued instead, and the outermost
/// settlement on the thread finishes the queue, in order, before it returns. The outcome itself is always
/// recorded at once, so `isDone` and `get()` see it immediately; only handler delivery waits.
///
/// One instance per thread, found through a thread-specific key and used unretained (see ``current``): the hot
/// path pays one `pthread_getspecific` and no reference counting.
@usableFromInline
final class DeliveryDrain {
    /// Deep enough for any chain written by hand to run nested; shallow enough for a 512 KiB thread stack.
    @usableFromInline static let maximumDepth = 24

    /// How many settlements this thread is finishing, one inside another, right now.
    @usableFromInline @exclusivity(unchecked) var depth = 0
    /// Whether settlements wait in the queue.
    @usableFromInline @exclusivity(unchecked) var hasQueued = false
    /// How many pieces of code that other threads may wait for this thread is running, one inside another (a
    /// factory's build, a registry's delivery, `Response(on:)` work): while there is one, a blocking wait
    /// publishes what it waits on in ``waitRecord``.
    @exclusivity(unchecked) var dependableDepth = 0
    /// The library's worker pool this thread belongs to, if any: told when the thread blocks in a library wait,
    /// so that it can replace it meanwhile (see `WorkerPool`). Unretained: the pool's thread holds its pool.
    @exclusivity(unchecked) var workerPool: Unmanaged<WorkerPool>?
    @exclusivity(unchecked) private var record: WaitRecord?
    @exclusivity(unchecked) private var items: [any DeferredSettlement] = []
    @exclusivity(unchecked) private var next = 0

    /// This thread's ``WaitRecord``, made on first use.
    var waitRecord: WaitRecord {
        if let record { return record }
        let made = WaitRecord()
        record = made
        return made
    }

    /// Queues `settlement` behind the ones being finished on this thread.
    @usableFromInline
    func enqueue(_ settlement: any DeferredSettlement) {
        items.append(settlement)
        hasQueued = true
    }

    /// Finishes queued settlements until none is left. Called by the outermost settlement, and by a thread about
    /// to block inside a handler, so it never waits for a delivery that only it could make.
    @usableFromInline
    func runQueued() {
        while next < items.count {
            let settlement = items[next]
            next += 1
            depth += 1  // so the settlement does not start a nested drain of its own
            settlement.finishSettlement()
            depth -= 1
        }
        if depth == 0 {
            items.removeAll(keepingCapacity: items.capacity <= 64)
            next = 0
            hasQueued = false
        }
    }

    /// This thread's drain, unretained: the thread-specific slot keeps it alive for the thread's lifetime, so
    /// callers hold it `unowned(unsafe)` and pay no reference counting.
    @usableFromInline
    static var current: Unmanaged<DeliveryDrain> {
        if let pointer = pthread_getspecific(key) { return Unmanaged.fromOpaque(pointer) }
        let drain = Unmanaged.passRetained(DeliveryDrain())
        pthread_setspecific(key, drain.toOpaque())
        return drain
    }

    /// The pthread key of the thread's drain.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // The destructor's argument is optional or not depending on the C library's headers; the cast reads
        // both.
        let status = pthread_key_create(&key) { pointer in
            if let pointer = pointer as UnsafeMutableRawPointer? {
                Unmanaged<DeliveryDrain>.fromOpaque(pointer).release()
            }
        }
        precondition(status == 0, "Interactors: pthread_key_create failed (\(status))")
        return key
    }()
}

/// The hot path's view of a thread's drain: unretained, and reached through `_withUnsafeGuaranteedRef` so that no
/// access retains it (a plain `unowned(unsafe)` local still gets retained around some accesses).
extension Unmanaged where Instance == DeliveryDrain {
    /// Whether this thread is as deep in nested settlements as it goes: the next one is queued instead.
    @inlinable
    var isFull: Bool {
        _withUnsafeGuaranteedRef { $0.depth >= DeliveryDrain.maximumDepth }
    }

    /// Enters a settlement's delivery.
    @inlinable
    func enter() {
        _withUnsafeGuaranteedRef { $0.depth += 1 }
    }

    /// Leaves a settlement's delivery; the outermost one finishes the settlements queued meanwhile.
    @inlinable
    func leave() {
        _withUnsafeGuaranteedRef { drain in
            drain.depth -= 1
            if drain.depth == 0, drain.hasQueued { drain.runQueued() }
        }
    }
}
