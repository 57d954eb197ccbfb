/// What a request fails with when it is executed on an ``InteractorExecutor`` that has no interactor
/// registered for its type.
///
/// ```swift
/// if let error = response.error as? UnregisteredRequestError { print(error) }
/// // No interactor is registered for MyApp.LogInRequest ...
/// ```
public struct UnregisteredRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The request's type, fully qualified (`String(reflecting:)`), so that two nested types with the same
    /// name tell apart.
    public let requestType: String

    /// The error for a request of type `requestType`.
    public init(requestType: String) {
        self.requestType = requestType
    }

    /// The error for a request of type `type`.
    public init<Request: InteractorRequest>(_ type: Request.Type) {
        self.init(requestType: String(reflecting: type))
    }

    /// Names the request type and says how to register an interactor for it.
    public var description: String {
        "No interactor is registered for \(requestType): register one before executing it, with "
            + "executor.register(SomeInteractor()) or, built on first use, "
            + "executor.register(\(requestType).self) { SomeInteractor() }"
    }
}
