public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// One request to a server and how to read its answer: what an ``HTTPClient`` sends.
///
/// ```swift
/// let profile = Endpoint<Profile>.get("users/42", as: Profile.self)
/// let avatar = Endpoint<Data>(method: .get, path: "users/42/avatar") { data, _ in data }
/// let note = Endpoint<Note>(method: .get, pathSegments: ["notes", noteID]) { data, _ in try decode(data) }
/// let user = try client.send(profile).get()
/// ```
///
/// The URL is the client's base URL followed by the endpoint's path:
/// - ``path`` is a hand-written relative path (`"users/42"`): its `/` separate segments, and characters a path
///   cannot hold (a space, `%`, `?`, `#`) are percent-encoded.
/// - ``pathSegments`` are values put in the URL one segment each (an id, a name): everything outside RFC 3986's
///   unreserved characters (`A-Z a-z 0-9 - . _ ~`) is percent-encoded, `/` included, so `"a/b"` stays one
///   segment (`a%2Fb`). A segment that is empty, `"."` or `".."` would name another resource: ``HTTPClient``
///   fails such an endpoint with ``DataError/Code/invalidQuery`` and sends nothing.
///
/// Query items reach the server as they are: every character but the unreserved ones is percent-encoded in
/// names and values, so a `+`, `&`, `=`, `%`, `#` or space arrives as itself.
public struct Endpoint<Output: Sendable>: Sendable {
    /// How the path was given: hand-written, or one value per segment.
    enum PathForm: Sendable, Equatable {
        case relative(String)
        case segments([String])
    }

    /// The HTTP method.
    public var method: HTTPMethod
    /// The query items appended to the URL.
    public var query: [URLQueryItem]
    /// Headers sent with this request, over the client's own: a name given here replaces the client's header of
    /// the same name, whatever its case.
    public var headers: [String: String]
    /// The request body.
    public var body: Data?
    /// How long this request may go without a byte sent or received before it fails with `URLError(.timedOut)`
    /// and its task is cancelled; nil keeps the session's own timeout (`timeoutIntervalForRequest`). The client's
    /// watchdog counts it exactly, whatever the session does; the request handed to the session carries it too,
    /// in whole seconds (FoundationNetworking's unit), rounded up.
    public var timeout: Duration?
    /// Reads the answer's body (the status is 2xx by then). What it throws fails the response with
    /// ``DataError/Code/mappingFailed``, quoting the start of the body.
    public var decode: @Sendable (Data, HTTPURLResponse) throws -> Output

    var pathForm: PathForm
    /// Whether a call commits to the server's answer once its request is handed to the session (a data source's
    /// write: `Resolver.commitToOutcome()`), so that cancelling it then is ignored.
    var commitsWhenSent = false

    /// The path, relative to the client's base URL: the hand-written path, or the segments joined by `/` (not
    /// yet encoded). Setting it makes the endpoint use a hand-written path.
    public var path: String {
        get {
            switch pathForm {
            case .relative(let path): path
            case .segments(let segments): segments.joined(separator: "/")
            }
        }
        set { pathForm = .relative(newValue) }
    }

    /// The path's segments when the endpoint was made from segments, each encoded on its own; nil for a
    /// hand-written ``path``. Setting it makes the endpoint use these segments.
    public var pathSegments: [String]? {
        get {
            if case .segments(let segments) = pathForm { return segments }
            return nil
        }
        set { pathForm = newValue.map { .segments($0) } ?? .relative(path) }
    }

    /// An endpoint with a hand-written relative path.
    public init(
        method: HTTPMethod,
        path: String,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:],
        body: Data? = nil,
        timeout: Duration? = nil,
        decode: @escaping @Sendable (Data, HTTPURLResponse) throws -> Output
    ) {
        self.init(method, .relative(path), query, headers, body, timeout, decode)
    }

    /// An endpoint whose path is `pathSegments`, each put in the URL as exactly one segment, percent-encoded.
    public init(
        method: HTTPMethod,
        pathSegments: [String],
        query: [URLQueryItem] = [],
        headers: [String: String] = [:],
        body: Data? = nil,
        timeout: Duration? = nil,
        decode: @escaping @Sendable (Data, HTTPURLResponse) throws -> Output
    ) {
        self.init(method, .segments(pathSegments), query, headers, body, timeout, decode)
    }

    init(
        _ method: HTTPMethod,
        _ pathForm: PathForm,
        _ query: [URLQueryItem],
        _ headers: [String: String],
        _ body: Data?,
        _ timeout: Duration?,
        _ decode: @escaping @Sendable (Data, HTTPURLResponse) throws -> Output
    ) {
        self.method = method
        self.pathForm = pathForm
        self.query = query
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.decode = decode
    }
}
