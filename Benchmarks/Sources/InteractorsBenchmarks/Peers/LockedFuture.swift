@_spi(Benchmarks) import Interactors

/// A lock the contended model future can be built on.
protocol FutureLock: ~Copyable {
    init()
    func lock()
    func unlock()
}

extension SpinYieldLock: FutureLock {}
extension BenchmarkedLock: FutureLock {}

/// `PthreadMutex` is a class; stored by reference, so the model pays its second allocation.
struct PthreadMutexLock: FutureLock {
    let mutex = PthreadMutex()

    @inline(__always) func lock() { mutex.lock() }
    @inline(__always) func unlock() { mutex.unlock() }
}

/// The same minimal future as `MutexFuture` (an inline first handler, an array for more, the value), on a lock
/// chosen by the type parameter, so the contended case compares locks and nothing else. Handlers run on the
/// thread that settles, or on the thread adding them once settled.
final class LockedFuture<Lock: FutureLock & ~Copyable, Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value`, `first` and `more` are only touched with `lock` held.
    typealias Callback = @Sendable (Value) -> Void

    private let lock = Lock()
    private var value: Value?
    private var first: Callback?
    private var more: [Callback] = []

    init() {}

    /// Runs `callback` with the value: now if settled, else when it settles.
    func whenSuccess(_ callback: @escaping Callback) {
        lock.lock()
        if let value {
            lock.unlock()
            callback(value)
            return
        }
        if first == nil { first = callback } else { more.append(callback) }
        lock.unlock()
    }

    /// Settles the future, unless it was settled already.
    func succeed(_ newValue: Value) {
        lock.lock()
        guard value == nil else {
            lock.unlock()
            return
        }
        value = newValue
        let taken = (first, more)
        first = nil
        more = []
        lock.unlock()
        taken.0?(newValue)
        for callback in taken.1 { callback(newValue) }
    }
}
