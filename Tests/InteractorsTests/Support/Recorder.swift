import Interactors

/// Records values from any thread, in the order they arrive.
final class Recorder<Element: Sendable>: Sendable {
    private let box = LockedBox<[Element]>([])

    func record(_ element: Element) {
        box.withLock { $0.append(element) }
    }

    var elements: [Element] {
        box.withLock { $0 }
    }

    var count: Int {
        box.withLock { $0.count }
    }
}

/// Counts events from any thread.
final class Counter: Sendable {
    private let box = LockedBox(0)

    func increment() {
        box.withLock { $0 += 1 }
    }

    var value: Int {
        box.withLock { $0 }
    }
}

struct TestError: Error, Equatable {
    var id = 0
}

/// An object whose release a test can observe through a weak reference.
final class Tracked: Sendable {}

/// A `Response(on:)` whose work captures a ``Tracked`` object, seen through weak references once `use` let go of
/// the response.
struct TrackedWork {
    private weak var captured: Tracked?
    private weak var response: Response<Int>?

    init(on queue: some CallbackQueue, _ use: (Response<Int>) throws -> Void) rethrows {
        let tracked = Tracked()
        let made = Response(on: queue) { withExtendedLifetime(tracked) { 1 } }
        captured = tracked
        response = made
        try use(made)
    }

    /// Whether the work, what it captured, and the response have all been released.
    var isReleased: Bool { captured == nil && response == nil }
}
