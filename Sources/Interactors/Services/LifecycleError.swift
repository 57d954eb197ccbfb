/// Why the ``ServiceRegistry`` refused a request: the lifecycle was asked to do something out of order.
///
/// The registry never traps on misuse. A refused event comes back in ``ServiceRegistry/send(_:)``'s failures
/// (as the ``ServiceFailure/error`` of a failure that names no service); a refused URL is thrown by
/// ``ServiceRegistry/open(_:options:)``.
public struct LifecycleError: Error, Hashable, Sendable {
    /// What went wrong. Compare with the static members; new codes may be added.
    public struct Code: Hashable, Sendable {
        private enum Backing: Hashable, Sendable {
            case eventOutOfOrder, registeredAfterTermination, urlOpenedWhileNotRunning, urlOpenedDuringDelivery
            case calledFromWorkAHookWaitsFor
        }

        private let backing: Backing

        private init(_ backing: Backing) { self.backing = backing }

        /// The event makes no sense in the registry's state, such as a second launch or anything after
        /// ``LifecycleEvent/willTerminate``. It was not delivered.
        public static let eventOutOfOrder = Code(.eventOutOfOrder)
        /// A service was registered after ``LifecycleEvent/willTerminate``. It was not registered.
        public static let registeredAfterTermination = Code(.registeredAfterTermination)
        /// A URL was opened before launch or after termination. No service was asked.
        public static let urlOpenedWhileNotRunning = Code(.urlOpenedWhileNotRunning)
        /// A service's hook opened a URL. Its answer would have to wait for the delivery in progress, so no
        /// service was asked.
        public static let urlOpenedDuringDelivery = Code(.urlOpenedDuringDelivery)
        /// The request came from work that a service's hook, delivering right now, waits for through the
        /// library (`Response(on: other) { registry.register(service) }.get()` inside a hook): it would wait for
        /// the hook, which waits for it. It was not carried out; the hook goes on.
        public static let calledFromWorkAHookWaitsFor = Code(.calledFromWorkAHookWaitsFor)
    }

    /// What went wrong.
    public let code: Code
    /// The registry's state when it refused.
    public let state: LifecycleState
    /// The refused event, when an event was refused.
    public let event: LifecycleEvent?

    /// Creates an error; the registry makes these, tests and custom hosts may too.
    public init(_ code: Code, state: LifecycleState, event: LifecycleEvent? = nil) {
        self.code = code
        self.state = state
        self.event = event
    }
}

extension LifecycleError.Code: CustomStringConvertible {
    /// What the code means, in a sentence.
    public var description: String {
        switch backing {
        case .eventOutOfOrder:
            "The event makes no sense in the current lifecycle state and was not delivered; send the events in "
                + "the order LifecycleState allows (launch once, first; nothing after willTerminate)."
        case .registeredAfterTermination:
            "A service was registered after the app was told it will terminate, and was not registered."
        case .urlOpenedWhileNotRunning:
            "A URL was opened while the app was not running (before launch or after termination); no service was "
                + "asked."
        case .urlOpenedDuringDelivery:
            "A URL was opened from inside a service's hook, and no service was asked; open it after the hook "
                + "returns."
        case .calledFromWorkAHookWaitsFor:
            "The request came from work that a service's hook waits for: it would wait for that hook, forever. "
                + "Make the request from the hook itself, or without waiting for it there."
        }
    }
}

extension LifecycleError: CustomStringConvertible {
    /// The code's explanation with the state and event.
    public var description: String {
        let event = event.map { ", event: \($0)" } ?? ""
        return "LifecycleError: \(code) (state: \(state)\(event))"
    }
}
