public import Foundation
public import Interactors

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Sends ``Endpoint``s to one server and answers with their decoded outputs: the provider that speaks to the
/// outside world.
///
/// ```swift
/// let client = HTTPClient(baseURL: URL(string: "https://api.example.com/v1")!, headers: ["Authorization": token])
/// let note = try await client.send(.get("notes/n1", as: Note.self)).value
/// ```
///
/// - A status outside 200...299 fails the response with ``HTTPError``, carrying the status and the body.
/// - A body the endpoint cannot decode fails it with ``DataError/Code/mappingFailed``, carrying the body text.
/// - Transport failures come through as they are (a `URLError`: no connection, a timeout).
/// - Cancelling the response cancels the URL task.
///
/// Safe to use from any thread or queue.
public final class HTTPClient: Sendable {
    /// The URL every endpoint's path is appended to.
    public let baseURL: URL
    /// Headers sent with every request; an endpoint's own headers win.
    public let headers: [String: String]
    private let session: URLSession
    private let ownsSession: Bool

    /// A client for the server at `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: What endpoint paths are appended to.
    ///   - session: The session to send with; `nil` for one of the client's own: ephemeral, with no URL cache.
    ///     (With a URL cache, FoundationNetworking on Linux can crash when tasks are cancelled at a high rate.)
    ///   - headers: Headers sent with every request.
    public init(baseURL: URL, session: URLSession? = nil, headers: [String: String] = [:]) {
        self.baseURL = baseURL
        self.headers = headers
        self.session = session ?? Self.makeSession()
        self.ownsSession = session == nil
    }

    deinit {
        if ownsSession { session.finishTasksAndInvalidate() }
    }

    /// Sends `endpoint` now and returns its response at once.
    public func send<Output>(_ endpoint: Endpoint<Output>) -> Response<Output> {
        let request = self.request(for: endpoint)
        return session.response(for: request).map { data, response in
            guard (200...299).contains(response.statusCode) else {
                throw HTTPError(status: response.statusCode, body: data)
            }
            do {
                return try endpoint.decode(data, response)
            } catch let error as DataError {
                throw error
            } catch {
                throw DataError(
                    code: .mappingFailed,
                    message:
                        "cannot read the answer to \(request.httpMethod ?? "") \(request.url?.absoluteString ?? "") "
                        + "as \(Output.self): \(String(decoding: data, as: UTF8.self))",
                    underlying: error
                )
            }
        }
    }

    /// The request ``send(_:)`` sends for `endpoint`.
    public func request<Output>(for endpoint: Endpoint<Output>) -> URLRequest {
        var url = endpoint.path.isEmpty ? baseURL : baseURL.appendingPathComponent(endpoint.path)
        if !endpoint.query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.queryItems = (components.queryItems ?? []) + endpoint.query
            url = components.url ?? url
        }
        var request = URLRequest(url: url)
        request.httpMethod = endpoint.method.rawValue
        for (name, value) in headers.merging(endpoint.headers, uniquingKeysWith: { _, own in own }) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.httpBody = endpoint.body
        return request
    }

    private static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }
}
