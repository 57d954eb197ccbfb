public import Interactors

/// One log shared by several ``RecordingService``s, showing the order in which they heard events.
///
/// ```swift
/// let log = EventLog()
/// let first = RecordingService(name: "first", log: log)
/// let second = RecordingService(name: "second", log: log)
/// // register both, send .willTerminate
/// #expect(log.services(hearing: .willTerminate) == ["second", "first"])
/// ```
public final class EventLog: Sendable {
    /// One event heard by one service.
    public struct Entry: Hashable, Sendable, CustomStringConvertible {
        /// The name of the service that heard the event.
        public let service: String
        /// The event it heard.
        public let event: LifecycleEvent

        /// Creates an entry.
        public init(service: String, event: LifecycleEvent) {
            self.service = service
            self.event = event
        }

        /// `service: event`.
        public var description: String { "\(service): \(event)" }
    }

    private let storage = LockedBox<[Entry]>([])

    /// Creates an empty log.
    public init() {}

    /// Everything heard so far, in order.
    public var entries: [Entry] {
        storage.withLock { $0 }
    }

    /// The names of the services that heard `event`, in the order they heard it.
    public func services(hearing event: LifecycleEvent) -> [String] {
        entries.filter { $0.event == event }.map(\.service)
    }

    /// Appends an entry. Recording services call this; custom test services may too.
    public func record(service: String, event: LifecycleEvent) {
        storage.withLock { $0.append(Entry(service: service, event: event)) }
    }
}
