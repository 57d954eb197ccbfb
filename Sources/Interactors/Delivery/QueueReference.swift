public import Dispatch

/// A callback queue in one word, as a response stores its callback queue and a handler its target.
///
/// `any CallbackQueue` takes two words (the object and its witness table) and a retain for every copy. The
/// library's own queues are singletons, so they need neither: `.immediate`, `.main` and `.default` are plain
/// cases, and a `DispatchQueue` is stored as its object, whose conformance is known. Only another conforming
/// type (a test queue, an `OperationQueue` adapter) is kept in a small box of its own, allocated when it is
/// stored. One word per queue is what keeps a pending response within its size budget (see `Response`).
@usableFromInline
enum QueueReference: Sendable {
    case immediate
    case main
    case `default`
    case dispatch(DispatchQueue)
    case other(OtherCallbackQueue)

    /// The reference to `queue`.
    ///
    /// The library's queues are final classes with one instance each, so their types tell them: specialised for a
    /// known queue type the checks fold away, and for an existential they compare metadata, with no retain.
    @inlinable
    init<Queue: CallbackQueue>(_ queue: Queue) {
        let type = ObjectIdentifier(Swift.type(of: queue))
        if type == ObjectIdentifier(ImmediateCallbackQueue.self) {
            self = .immediate
        } else if type == ObjectIdentifier(DefaultCallbackQueue.self) {
            self = .default
        } else if type == ObjectIdentifier(MainCallbackQueue.self) {
            self = .main
        } else {
            self = QueueReference.boxing(queue)
        }
    }

    /// The reference to `queue`, or `fallback` if there is none (an operator's `callbackQueue: nil`).
    @inlinable
    init(_ queue: (any CallbackQueue)?, or fallback: QueueReference) {
        if let queue { self.init(queue) } else { self = fallback }
    }

    /// A queue that is none of the library's singletons: a `DispatchQueue` by its object, anything else boxed.
    @usableFromInline
    static func boxing(_ queue: any CallbackQueue) -> QueueReference {
        if let dispatchQueue = queue as? DispatchQueue { return .dispatch(dispatchQueue) }
        return .other(OtherCallbackQueue(queue))
    }

    /// The queue itself.
    @inlinable
    var queue: any CallbackQueue {
        switch self {
        case .immediate: ImmediateCallbackQueue.shared
        case .main: MainCallbackQueue.shared
        case .default: DefaultCallbackQueue.shared
        case .dispatch(let queue): queue
        case .other(let box): box.queue
        }
    }

    /// Whether this is `.immediate`.
    @inlinable
    var isImmediate: Bool {
        if case .immediate = self { return true }
        return false
    }

    /// Whether both refer to the same queue object.
    @inlinable
    func isSameQueue(as other: QueueReference) -> Bool {
        switch (self, other) {
        case (.immediate, .immediate), (.main, .main), (.default, .default): true
        case (.dispatch(let left), .dispatch(let right)): left === right
        case (.other(let left), .other(let right)): left.queue === right.queue
        default: false
        }
    }

    /// Where a delivery on this queue really goes: `.default` resolved to the queue it stands for now (so that
    /// handlers on `.default` and on that queue keep one registration order); `nil` to run it immediately.
    @usableFromInline
    var deliveryQueue: (any CallbackQueue)? {
        switch self {
        case .immediate:
            return nil
        case .default:
            let current = DefaultCallbackQueue.current
            return current === ImmediateCallbackQueue.shared ? nil : current
        default:
            return queue
        }
    }
}

/// A callback queue of a type the library does not know, boxed so that a ``QueueReference`` stays one word.
@usableFromInline
final class OtherCallbackQueue: Sendable {
    @usableFromInline let queue: any CallbackQueue

    @usableFromInline
    init(_ queue: any CallbackQueue) { self.queue = queue }
}
