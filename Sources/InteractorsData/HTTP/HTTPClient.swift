public import Foundation
public import Interactors

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Sends ``Endpoint``s to one server and answers with their decoded outputs: the provider that speaks to the
/// outside world.
///
/// ```swift
/// let client = HTTPClient(baseURL: URL(string: "https://api.example.com/v1")!, headers: ["Accept-Language": "en"])
/// let note = try await client.send(.get("notes/n1", as: Note.self)).value
/// ```
///
/// - A status outside 200...299 fails the response with ``HTTPError``: status, headers and body.
/// - A body the endpoint cannot decode (an empty one included) fails it with ``DataError/Code/mappingFailed``,
///   quoting the start of the body. Decoding runs off the session's delegate queue, so a slow decode never
///   delays other requests of the client.
/// - Transport failures come through as they are (a `URLError`: no connection, a timeout).
/// - Redirects are followed by the client itself (``Redirects-swift.enum``), as RFC 9110 says: 307 and 308 resend
///   the same method, body and headers; 301, 302 and 303 after another method than `GET` become a `GET` without a
///   body; `Authorization` is dropped when a redirect leaves the request's origin (scheme, host name or port).
///   After 10 redirects the response fails with `URLError(.httpTooManyRedirects)`, naming the last URL.
/// - ``HTTPInterceptor``s adapt every request and may send a failed one again (a token refresh).
/// - Cancelling the response cancels the URL task, or the pending interceptor step, and sends nothing more.
///
/// Safe to use from any thread or queue.
public final class HTTPClient: Sendable {
    /// What the client does with a redirect (a 301, 302, 303, 307 or 308 answer with a `Location`).
    public enum Redirects: Sendable, Hashable {
        /// Follows it, at most 10 times per request, as RFC 9110 says.
        case follow
        /// Fails the response with an ``HTTPError`` carrying the redirect's status and headers.
        case refuse
    }

    /// The most redirects one request follows.
    static let redirectLimit = 10

    /// The URL every endpoint's path is appended to.
    public let baseURL: URL
    /// Headers sent with every request; an endpoint's own header of the same name, whatever its case, wins.
    public let headers: [String: String]
    /// The interceptors every request goes through, in order.
    public let interceptors: [any HTTPInterceptor]
    /// What the client does with redirects.
    public let redirects: Redirects
    private let session: URLSession
    private let ownsSession: Bool

    /// A client for the server at `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: What endpoint paths are appended to.
    ///   - session: The session to send with; `nil` for one of the client's own: ephemeral, with no URL cache.
    ///     (With a URL cache, FoundationNetworking on Linux can crash when tasks are cancelled at a high rate.)
    ///     The client follows redirects itself, whatever the session's delegate would do.
    ///   - headers: Headers sent with every request.
    ///   - interceptors: What adapts every request and decides whether a failed one is sent again, in order.
    ///   - redirects: Whether redirects are followed.
    public init(
        baseURL: URL,
        session: URLSession? = nil,
        headers: [String: String] = [:],
        interceptors: [any HTTPInterceptor] = [],
        redirects: Redirects = .follow
    ) {
        self.baseURL = baseURL
        self.headers = headers
        self.interceptors = interceptors
        self.redirects = redirects
        self.session = session ?? Self.makeSession()
        self.ownsSession = session == nil
    }

    deinit {
        if ownsSession { session.finishTasksAndInvalidate() }
    }

    /// Sends `endpoint` now and returns its response at once.
    ///
    /// An endpoint with a path segment that is empty, `"."` or `".."` fails with
    /// ``DataError/Code/invalidQuery``, and nothing is sent.
    public func send<Output>(_ endpoint: Endpoint<Output>) -> Response<Output> {
        if case .segments(let segments) = endpoint.pathForm,
            let unsafe = segments.first(where: URLEncoding.isUnsafeSegment)
        {
            return Response(
                error: DataError(
                    code: .invalidQuery,
                    message: "the path segment \"\(unsafe)\" of \(segments) would name another resource; "
                        + "nothing was sent"
                )
            )
        }
        let request = self.request(for: endpoint)
        return exchange(request, attempt: 1).flatMap { data, response in
            // Off the session's delegate queue, where the answer arrived: other requests' answers go on arriving.
            Response(on: DispatchQueue.global()) { try Self.decode(data, response, for: request, with: endpoint) }
        }
    }

    /// The request ``send(_:)`` sends for `endpoint`, before the interceptors adapt it. It does not check the
    /// path's segments; ``send(_:)`` does.
    public func request<Output>(for endpoint: Endpoint<Output>) -> URLRequest {
        let encodedPath = URLEncoding.path(endpoint.pathForm)
        var request = URLRequest(
            url: URLEncoding.url(base: baseURL, encodedPath: encodedPath, query: endpoint.query) ?? baseURL
        )
        request.httpMethod = endpoint.method.rawValue
        for (name, value) in Self.merge(headers, endpoint.headers) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.httpBody = endpoint.body
        if let timeout = endpoint.timeout {
            // FoundationNetworking keeps whole seconds only: round up, so a short timeout never becomes none.
            let components = timeout.components
            let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
            request.timeoutInterval = max(1, seconds.rounded(.up))
        }
        return request
    }

    // MARK: Sending, through the interceptors

    /// Adapts `request`, sends it, and asks the interceptors whether to send it again if it failed.
    private func exchange(_ request: URLRequest, attempt: Int) -> Response<(Data, HTTPURLResponse)> {
        adapt(request, from: 0).flatMap { [self] adapted in
            transfer(adapted, redirectsFollowed: 0).flatRecover { [self] error in
                guard !interceptors.isEmpty, !Self.isCancellation(error) else { throw error }
                return shouldRetry(adapted, after: error, attempt: attempt, from: 0).flatMap { [self] again in
                    guard again else { throw error }
                    return exchange(request, attempt: attempt + 1)
                }
            }
        }
    }

    private func adapt(_ request: URLRequest, from index: Int) -> Response<URLRequest> {
        guard index < interceptors.count else { return Response(value: request) }
        return interceptors[index].adapt(request).flatMap { [self] in adapt($0, from: index + 1) }
    }

    /// The first `true` wins; a failed `retry` means no.
    private func shouldRetry(
        _ request: URLRequest,
        after error: any Error,
        attempt: Int,
        from index: Int
    ) -> Response<Bool> {
        guard index < interceptors.count else { return Response(value: false) }
        return interceptors[index].retry(request, after: error, attempt: attempt)
            .recover { failure in
                if Self.isCancellation(failure) { throw failure }
                return false
            }
            .flatMap { [self] again in
                again ? Response(value: true) : shouldRetry(request, after: error, attempt: attempt, from: index + 1)
            }
    }

    // MARK: One request, its redirects followed

    /// Sends `request` and follows its redirects; a final status outside 2xx fails with ``HTTPError``.
    private func transfer(_ request: URLRequest, redirectsFollowed: Int) -> Response<(Data, HTTPURLResponse)> {
        session.responseRefusingRedirects(for: request).flatMap { [self] data, response in
            if (200...299).contains(response.statusCode) { return Response(value: (data, response)) }
            let error = HTTPError(status: response.statusCode, body: data, headers: HTTPHeaders(response))
            guard redirects == .follow, let next = Self.redirection(of: request, by: response) else { throw error }
            guard redirectsFollowed < Self.redirectLimit else {
                throw URLError(
                    .httpTooManyRedirects,
                    userInfo: [
                        NSURLErrorFailingURLErrorKey: request.url as Any,
                        NSLocalizedDescriptionKey:
                            "more than \(Self.redirectLimit) redirects; the last from \(request.url?.absoluteString ?? "")",
                    ]
                )
            }
            return transfer(next, redirectsFollowed: redirectsFollowed + 1)
        }
    }

    // MARK: Decoding

    private static func decode<Output>(
        _ data: Data,
        _ response: HTTPURLResponse,
        for request: URLRequest,
        with endpoint: Endpoint<Output>
    ) throws -> Output {
        do {
            return try endpoint.decode(data, response)
        } catch let error as DataError {
            throw error
        } catch {
            let what = data.isEmpty ? "the body was empty" : "\(BodyExcerpt(data))"
            throw DataError(
                code: .mappingFailed,
                message: "cannot read the answer to \(request.httpMethod ?? "") \(request.url?.absoluteString ?? "") "
                    + "as \(Output.self): \(what)",
                underlying: error
            )
        }
    }

    // MARK: Helpers

    /// The client's headers with the endpoint's over them: a name matches whatever its case.
    static func merge(_ base: [String: String], _ own: [String: String]) -> [String: String] {
        var merged = base
        for (name, value) in own {
            let lowered = name.lowercased()
            for existing in merged.keys where existing.lowercased() == lowered { merged[existing] = nil }
            merged[name] = value
        }
        return merged
    }

    static func isCancellation(_ error: any Error) -> Bool {
        error is CancellationError || (error as? URLError)?.code == .cancelled
    }

    private static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }
}

extension HTTPHeaders {
    /// The header fields of `response`.
    init(_ response: HTTPURLResponse) {
        var fields: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            fields["\(name)"] = "\(value)"
        }
        self.init(fields)
    }
}
