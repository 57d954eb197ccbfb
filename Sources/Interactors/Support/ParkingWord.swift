import Dispatch
public import Synchronization

#if !canImport(Darwin)
import CInteractorsFutex
#endif

/// Sleeping on an atomic word until another thread changes it and wakes the sleepers: how a caller blocked in
/// `get()` waits for a plain response on Linux, with no semaphore and no registration beyond a flag in the
/// response's own state (a futex on the word). Elsewhere ``isAvailable`` is `false` and callers park on a
/// semaphore instead.
@usableFromInline
enum ParkingWord {
    /// Whether threads can sleep on a word here.
    static var isAvailable: Bool {
        #if os(Linux) && !canImport(Darwin)
        true
        #else
        false
        #endif
    }

    /// Sleeps while `word` holds `expected`, until a wake, `deadline` (if any), or a spurious wake-up; the
    /// caller checks the word again in every case.
    static func wait(on word: borrowing Atomic<UInt32>, whileItIs expected: UInt32, until deadline: DispatchTime?) {
        #if os(Linux) && !canImport(Darwin)
        withAddress(of: word) { address in
            guard let deadline else { return interactors_futex_wait(address, expected) }
            let now = DispatchTime.now().uptimeNanoseconds
            guard deadline.uptimeNanoseconds > now else { return }
            interactors_futex_wait_for(address, expected, deadline.uptimeNanoseconds - now)
        }
        #endif
    }

    /// Wakes every thread sleeping on `word`.
    @usableFromInline
    static func wakeAll(_ word: borrowing Atomic<UInt32>) {
        #if os(Linux) && !canImport(Darwin)
        withAddress(of: word) { interactors_futex_wake_all($0) }
        #endif
    }

    #if os(Linux) && !canImport(Darwin)
    /// The address of the atomic word itself (the futex is keyed by it). `Atomic` is laid out like its `UInt32`
    /// and, being non-copyable with a raw layout, is always borrowed in place (see `Lock`).
    private static func withAddress(of word: borrowing Atomic<UInt32>, _ body: (UnsafeMutablePointer<UInt32>) -> Void) {
        withUnsafePointer(to: word) { pointer in
            body(UnsafeMutableRawPointer(mutating: pointer).assumingMemoryBound(to: UInt32.self))
        }
    }
    #endif
}
