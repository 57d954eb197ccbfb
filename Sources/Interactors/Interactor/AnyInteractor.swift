/// An interactor with its concrete type erased: any interactor of the same request and output, or a closure.
///
/// ```swift
/// let logIn = AnyInteractor(LogIn(auth: auth, queue: DispatchQueue.global()))
/// let stub = AnyInteractor<LogInRequest, User> { _ in Response(value: User(name: "ada")) }
/// ```
///
/// Executing it returns the wrapped interactor's own response, so cancelling that response reaches the work.
public struct AnyInteractor<Request: Sendable, Output: Sendable>: Interactor {
    private let body: @Sendable (Request) -> Response<Output>

    /// Wraps `interactor`. Wrapping an `AnyInteractor` again does not add a layer.
    public init(_ interactor: some Interactor<Request, Output>) {
        if let erased = interactor as? AnyInteractor<Request, Output> {
            self = erased
        } else {
            self.body = { interactor.execute($0) }
        }
    }

    /// Makes an interactor from a closure that starts the work and returns its response.
    public init(_ execute: @escaping @Sendable (Request) -> Response<Output>) {
        self.body = execute
    }

    /// Executes the wrapped interactor or closure.
    public func execute(_ request: Request) -> Response<Output> {
        body(request)
    }
}
