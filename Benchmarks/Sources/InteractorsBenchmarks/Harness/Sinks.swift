/// Consumes `value` where the optimizer cannot see: whatever is passed here must exist, so it stays on the heap
/// and is not stack-promoted or removed. Every measured object goes through here (or into an array).
@_optimize(none)
func blackHole<T>(_ value: T) {}

/// Carries a value the compiler cannot prove `Sendable` (a peer's non-`Sendable` type) across a thread boundary
/// whose safety the benchmark ensures itself: the sender never touches the value again.
struct Handoff<Wrapped>: @unchecked Sendable {
    let value: Wrapped

    init(_ value: Wrapped) {
        self.value = value
    }
}

/// A slot one closure fills and another reads, on one thread or handed across with a happens-before edge (a
/// semaphore, a queue) that the benchmark provides.
final class Slot<Stored>: @unchecked Sendable {
    var value: Stored?

    init() {}
}
