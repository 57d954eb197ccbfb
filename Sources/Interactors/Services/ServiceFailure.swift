/// A failure the ``ServiceRegistry`` reports instead of stopping: a hook that threw, or a request the
/// registry refused.
///
/// ``ServiceRegistry/send(_:)`` and ``ServiceRegistry/register(_:)`` return these; an empty array means every
/// hook succeeded. It is an `Error`, so hosting code written with `try` can throw it:
///
/// ```swift
/// if let failure = registry.send(.didFinishLaunching([:])).first { throw failure }
/// ```
public struct ServiceFailure: Error, Sendable {
    /// The service whose hook threw, or `nil` when the registry refused the event before any service heard
    /// it (``error`` is then a ``LifecycleError``).
    public let service: (any Service)?
    /// The event being delivered, or `nil` when the registry refused to register ``service`` (after
    /// termination).
    public let event: LifecycleEvent?
    /// The error the hook threw, or the ``LifecycleError`` saying why the registry refused.
    public let error: any Error

    /// Creates a failure report.
    public init(service: (any Service)?, event: LifecycleEvent?, error: any Error) {
        self.service = service
        self.event = event
        self.error = error
    }
}

extension ServiceFailure: CustomStringConvertible {
    /// Names the service's type, the event and the error: `Analytics failed on willTerminate: <the error>`.
    public var description: String {
        let service = service.map { "\(type(of: $0))" } ?? "ServiceRegistry"
        let event = event.map { "\($0)" } ?? "register"
        return "\(service) failed on \(event): \(error)"
    }
}
