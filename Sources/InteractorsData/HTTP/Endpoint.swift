public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// One request to a server and how to read its answer: what an ``HTTPClient`` sends.
///
/// ```swift
/// let profile = Endpoint<Profile>.get("users/42", as: Profile.self)
/// let avatar = Endpoint<Data>(method: .get, path: "users/42/avatar") { data, _ in data }
/// let user = try client.send(profile).get()
/// ```
///
/// `path` is appended to the client's base URL with `appendingPathComponent`, so it is a path relative to it
/// (`"users/42"`), percent-encoded as needed.
public struct Endpoint<Output: Sendable>: Sendable {
    /// The HTTP method.
    public var method: HTTPMethod
    /// The path, relative to the client's base URL.
    public var path: String
    /// The query items appended to the URL.
    public var query: [URLQueryItem]
    /// Headers sent with this request, over the client's own.
    public var headers: [String: String]
    /// The request body.
    public var body: Data?
    /// Reads the answer's body (the status is 2xx by then). What it throws fails the response with
    /// ``DataError/Code/mappingFailed``, carrying the body text.
    public var decode: @Sendable (Data, HTTPURLResponse) throws -> Output

    /// An endpoint with everything spelled out.
    public init(
        method: HTTPMethod,
        path: String,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:],
        body: Data? = nil,
        decode: @escaping @Sendable (Data, HTTPURLResponse) throws -> Output
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.decode = decode
    }
}
