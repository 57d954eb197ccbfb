/// A request that names what executing it produces, so that ``InteractorExecutor/execute(_:)`` infers the
/// result's type at the call site, with no casts.
///
/// ```swift
/// struct LogInRequest: InteractorRequest {
///     typealias Output = User
///     let username: String
///     let password: String
/// }
///
/// let user: Response<User> = executor.execute(LogInRequest(username: "ada", password: "secret"))
/// ```
public protocol InteractorRequest: Sendable {
    /// What executing the request produces.
    associatedtype Output: Sendable
}
