/// The library's ``Lock``, for the benchmarks package only (`@_spi(Benchmarks) import Interactors`), which compares
/// it under contention with the lock it replaced and with a pthread mutex. Not part of the library's API.
///
/// `@inlinable` throughout, so the benchmark runs the same inlined fast paths as a `Response` does.
@_spi(Benchmarks)
public struct BenchmarkedLock: ~Copyable, @unchecked Sendable {
    // @unchecked: the only stored property is a `Lock`, which is Sendable; ~Copyable types need the spelling.
    @usableFromInline
    let base = Lock()

    /// A lock, free.
    @inlinable
    public init() {}

    /// Takes the lock.
    @inlinable @inline(__always)
    public func lock() { base.lock() }

    /// Releases the lock.
    @inlinable @inline(__always)
    public func unlock() { base.unlock() }
}
