/// What a request fails with when the factory registered for its type, while building the interactor,
/// executes a request of that same type on the same thread: the call would wait for the very interactor
/// being built.
public struct InteractorFactoryCycleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The request's type, fully qualified (`String(reflecting:)`).
    public let requestType: String

    /// The error for a request of type `type`.
    public init<Request: InteractorRequest>(_ type: Request.Type) {
        self.requestType = String(reflecting: type)
    }

    /// Names the request type and the cycle.
    public var description: String {
        "The factory registered for \(requestType) executed a \(requestType) while building its interactor: "
            + "it would wait for itself. Build the interactor without executing its own request type."
    }
}
