/// A URL the app was asked to open, offered to every ``Service`` by ``ServiceRegistry/open(_:options:)``.
///
/// The URL is a string so the library needs no Foundation; on Apple platforms pass `url.absoluteString`.
public struct URLOpenRequest: Sendable, Hashable {
    /// The URL, as a string.
    public var url: String
    /// The options the system passed along (on iOS, the raw values of `UIApplication.OpenURLOptionsKey`).
    public var options: LaunchOptions

    /// Creates a request to open `url`.
    public init(url: String, options: LaunchOptions = [:]) {
        self.url = url
        self.options = options
    }
}
