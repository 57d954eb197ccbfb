import Dispatch

/// The app's services, told about its lifecycle in order.
///
/// Register each service once, at launch or later; a service registered late is caught up at once with the
/// events that lead to the current ``state``. Then forward the app's lifecycle with ``send(_:)``, or let a
/// host do it: the app delegate or the UIKit notification observer on iOS, ``runUntilTerminated(launchOptions:shutDownDeadline:)``
/// on a Linux server or CLI. See <doc:HostingTheRegistry>.
///
/// ```swift
/// let registry = ServiceRegistry()
/// registry.register(crashReporter)
/// registry.register(analytics)
/// registry.send(.didFinishLaunching([:]))   // crashReporter, then analytics
/// registry.send(.willTerminate)             // analytics, then crashReporter
/// ```
///
/// The registry holds its services strongly: it owns them for the app's lifetime, or until
/// ``unregister(_:)``.
///
/// Every method may be called from any thread. Requests run one at a time, in the order they were made: a
/// call made while another thread is delivering waits for its turn and returns its own results. A call made
/// from inside a hook (a re-entrant call) is queued and runs after the current delivery, on the same thread,
/// before the outermost call returns; see ``send(_:)`` for what it returns. A hook that waits through the library
/// (`get()` on a ``Response``) for work on another thread that calls the registry gets that call refused with
/// ``LifecycleError/Code/calledFromWorkAHookWaitsFor`` instead of a hang (an unregistration is carried out after
/// the delivery); a wait the library cannot see (a semaphore, a lock) must not depend on a thread that calls
/// the registry: neither would finish.
public final class ServiceRegistry: Sendable {
    /// The process-wide registry, for apps that want one without passing it around.
    public static let shared = ServiceRegistry()

    let storage = LockedBox(Storage())

    /// Creates an empty registry in the ``LifecycleState/notRunning`` state.
    public init() {}

    /// The registered services, in registration order.
    public var services: [any Service] {
        storage.withLock { $0.services }
    }

    /// The lifecycle state the delivered events have led to.
    public var state: LifecycleState {
        storage.withLock { $0.state }
    }

    /// The first registered service of type `type`, or `nil`.
    public func service<S: Service>(ofType type: S.Type) -> S? {
        for service in services {
            if let service = service as? S { return service }
        }
        return nil
    }

    /// Registers `service` and catches it up: it hears, at once and alone, the events that lead to the
    /// current ``state`` (after launch and activation: ``LifecycleEvent/didFinishLaunching(_:)`` with the
    /// original options, then ``LifecycleEvent/didBecomeActive``).
    ///
    /// Registering an instance that is already registered does nothing, so it is delivered to once.
    /// Registering after ``LifecycleEvent/willTerminate`` is refused with
    /// ``LifecycleError/Code/registeredAfterTermination``.
    ///
    /// - Returns: The failures of the catch-up hooks, or the refusal. Empty when everything succeeded, and
    ///   when called from inside a hook (the registration then happens after the current delivery).
    @discardableResult
    public func register(_ service: any Service) -> [ServiceFailure] {
        perform(.register(service))?.failures ?? []
    }

    /// Removes `service`; once this returns it hears nothing more. Does nothing when it is not registered.
    ///
    /// From inside a hook, the removal happens after the current delivery, so `service` may still hear the
    /// event being delivered.
    public func unregister(_ service: any Service) {
        _ = perform(.unregister(ObjectIdentifier(service)))
    }

    /// Delivers `event` to every registered service, in registration order for start-up events and memory
    /// warnings and in reverse order for tear-down events (see ``LifecycleEvent``).
    ///
    /// An event that makes no sense in the current ``state`` (see ``LifecycleState``) is not delivered; the
    /// failures then hold one ``ServiceFailure`` with no service and a ``LifecycleError`` with code
    /// ``LifecycleError/Code/eventOutOfOrder``.
    ///
    /// - Returns: One failure for each hook that threw, in delivery order, plus the failures of any request
    ///   the hooks made re-entrantly. Empty when every hook succeeded. A call made from inside a hook returns
    ///   an empty array at once: its event is delivered after the current one, and its failures are added to
    ///   those of the outermost call.
    @discardableResult
    public func send(_ event: LifecycleEvent) -> [ServiceFailure] {
        perform(.send(event))?.failures ?? []
    }

    /// Sends the tear-down events that take the app from its current state to
    /// ``LifecycleState/terminated``: from active, ``LifecycleEvent/willResignActive``,
    /// ``LifecycleEvent/didEnterBackground`` and ``LifecycleEvent/willTerminate``; from inactive, the last two;
    /// from the background, the last.
    ///
    /// The events are one request: they are chosen from the state when the request runs, and no other request
    /// (a ``send(_:)`` from another thread, or an event a hook sends) runs between them. Before launch or after
    /// termination the refused ``LifecycleEvent/willTerminate`` is the failure.
    ///
    /// - Returns: The failures of all the events sent, plus those of any request the hooks made re-entrantly.
    ///   Called from inside a hook, it returns an empty array at once: the tear-down runs after the current
    ///   delivery, from the state it finds then, and its failures are added to those of the outermost call.
    @discardableResult
    public func shutDown() -> [ServiceFailure] {
        perform(.shutDown)?.failures ?? []
    }

    /// Offers the URL the app was asked to open to every service, in registration order, and answers whether
    /// any claimed it. Every service is asked, even after one has claimed it.
    ///
    /// - Throws: ``LifecycleError`` with code ``LifecycleError/Code/urlOpenedWhileNotRunning`` before launch
    ///   or after termination, or ``LifecycleError/Code/urlOpenedDuringDelivery`` when called from inside a
    ///   hook; no service is asked then.
    public func open(_ url: String, options: LaunchOptions = [:]) throws(LifecycleError) -> Bool {
        guard let ticket = perform(.open(URLOpenRequest(url: url, options: options))) else {
            throw LifecycleError(.urlOpenedDuringDelivery, state: state)
        }
        if let refusal = ticket.urlRefusal { throw refusal }
        return ticket.urlClaimed
    }
}

extension ServiceRegistry {
    /// Everything the registry's lock guards.
    struct Storage {
        var services: [any Service] = []
        var state: LifecycleState = .notRunning
        var launchOptions: LaunchOptions = [:]
        /// Requests waiting for the delivery in progress, oldest first.
        var pending: [Request] = []
        /// The call whose thread is delivering, or `nil` when the registry is idle. While a call is
        /// delivering, `pending` is drained by it and by the calls it hands over to; when idle it is empty.
        var deliverer: Ticket?
        /// The signal host's state, untouched until it hosts.
        var signalHost = SignalHostState()
    }
}
