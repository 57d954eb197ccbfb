public import Interactors

/// A `Service` that records every event it hears, for tests.
///
/// ```swift
/// let recorder = RecordingService()
/// let driver = LifecycleDriver(services: [recorder])
/// driver.launch()
/// #expect(recorder.events == [.didFinishLaunching([:]), .didBecomeActive])
/// ```
///
/// It can be told to throw on an event (``fail(on:)``), to claim URLs (``claimURLs(withPrefix:)``) and to run
/// code inside its hook (``onReceive(_:)``), to test how a registry or a host copes. It is safe to use from
/// any thread.
public final class RecordingService: Service {
    /// The error a recording service throws from a hook it was told to fail.
    public struct Failure: Error, Hashable, Sendable {
        /// The name of the service that threw.
        public let service: String
        /// The event it threw on.
        public let event: LifecycleEvent

        /// Creates the failure a service named `service` throws on `event`, to compare with.
        public init(service: String, event: LifecycleEvent) {
            self.service = service
            self.event = event
        }
    }

    private struct State {
        var events: [LifecycleEvent] = []
        var openedURLs: [URLOpenRequest] = []
        var failingEvents: [LifecycleEvent] = []
        var claimedPrefixes: [String] = []
        var action: (@Sendable (LifecycleEvent) -> Void)?
    }

    /// The name the service records under in its ``EventLog`` and reports in its ``Failure``s.
    public let name: String
    private let log: EventLog?
    private let state = LockedBox(State())

    /// Creates a recording service; with a `log`, it also appends what it hears there, so several services
    /// can be checked for the order they heard events in.
    public init(name: String = "RecordingService", log: EventLog? = nil) {
        self.name = name
        self.log = log
    }

    /// The events this service heard, in order.
    public var events: [LifecycleEvent] {
        state.withLock { $0.events }
    }

    /// The URL requests this service was offered, in order.
    public var openedURLs: [URLOpenRequest] {
        state.withLock { $0.openedURLs }
    }

    /// Makes the hook throw a ``Failure`` whenever this service hears an event equal to `event` (it still
    /// records it).
    public func fail(on event: LifecycleEvent) {
        state.withLock { $0.failingEvents.append(event) }
    }

    /// Makes the service claim every URL that starts with `prefix`.
    public func claimURLs(withPrefix prefix: String) {
        state.withLock { $0.claimedPrefixes.append(prefix) }
    }

    /// Runs `action` inside the hook for every event this service hears, after recording it; for testing
    /// what a hook may do, such as sending another event.
    public func onReceive(_ action: @escaping @Sendable (LifecycleEvent) -> Void) {
        let previous = state.withLock { state in
            defer { state.action = action }
            return state.action
        }
        withExtendedLifetime(previous) {}  // released after the lock: a closure's captures are user code
    }

    /// Records `event`, runs the ``onReceive(_:)`` action, and throws when told to by ``fail(on:)``.
    public func receive(_ event: LifecycleEvent) throws {
        let (action, fails) = state.withLock { state in
            state.events.append(event)
            return (state.action, state.failingEvents.contains(event))
        }
        log?.record(service: name, event: event)
        action?(event)
        if fails { throw Failure(service: name, event: event) }
    }

    /// Records `request` and claims it when its URL starts with a prefix given to ``claimURLs(withPrefix:)``.
    public func open(_ request: URLOpenRequest) -> Bool {
        state.withLock { state in
            state.openedURLs.append(request)
            return state.claimedPrefixes.contains { request.url.hasPrefix($0) }
        }
    }
}

extension RecordingService.Failure: CustomStringConvertible {
    /// Names the service and the event it was told to fail on.
    public var description: String {
        "RecordingService.Failure: \(service) was told to fail on \(event) (fail(on:)), and did"
    }
}
