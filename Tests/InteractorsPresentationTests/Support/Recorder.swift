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
}

/// An object whose release a test can observe through a weak reference.
final class Tracked: Sendable {}

struct TestError: Error, Equatable {}

/// A weak reference a test holds while it checks that something was released.
final class WeakBox<Object: AnyObject & Sendable>: Sendable {
    private let box: LockedBox<Weak>

    private struct Weak {
        weak var object: Object?
    }

    init(_ object: Object) {
        self.box = LockedBox(Weak(object: object))
    }

    var object: Object? {
        box.withLock { $0.object }
    }
}
