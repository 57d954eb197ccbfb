/// What a request fails with when the factory registered for its type, while building the interactor, waits
/// for a request of that same type: the request would wait for the very interactor being built.
///
/// That is the case when the factory executes its own request type on its own thread, and when it blocks,
/// through the library (`get()`, or a `Response` it waits on), for work on another thread that executes that
/// request type: the nested request fails with this error, the factory goes on, and the outer request gets its
/// interactor. A thread that the build does not wait for waits for the build as usual.
public struct InteractorFactoryCycleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The request's type, fully qualified (`String(reflecting:)`).
    public let requestType: String

    /// The error for a request of type `type`.
    public init<Request: InteractorRequest>(_ type: Request.Type) {
        self.requestType = String(reflecting: type)
    }

    /// Names the request type and the cycle.
    public var description: String {
        "The factory registered for \(requestType) waited for a \(requestType) while building its interactor: "
            + "it would wait for itself. Build the interactor without executing its own request type."
    }
}
