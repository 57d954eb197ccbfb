public import Interactors

// URLRequest lives in FoundationNetworking on Linux, in Foundation elsewhere.
#if canImport(FoundationNetworking)
public import FoundationNetworking
#else
public import Foundation
#endif

/// Changes every request an ``HTTPClient`` sends, and decides whether a failed one is sent again: the place for
/// the token refresh every real app needs. ``TokenRefreshInterceptor`` is that one, done once for all requests;
/// write your own for anything else (a signature, a request id, an API key rotated by hand).
///
/// ```swift
/// struct RequestID: HTTPInterceptor {
///     func adapt(_ request: URLRequest) -> Response<URLRequest> {
///         var request = request
///         request.setValue(UUID().uuidString, forHTTPHeaderField: "X-Request-ID")
///         return Response(value: request)
///     }
/// }
/// let client = HTTPClient(baseURL: api, interceptors: [RequestID(), tokens])
/// ```
///
/// - ``adapt(_:)`` runs once before every send, the sends after a `retry` included, each interceptor in the
///   client's order, each given what the one before answered; never for a redirect hop, which keeps what the
///   first request carried (see ``HTTPClient/Redirects-swift.struct``). A failed `adapt` fails the request,
///   which is not sent.
/// - ``retry(_:after:attempt:)`` is asked after a send failed at the client's own origin, with the error as the
///   send failed: ``HTTPError`` for a status outside 2xx (before a ``RESTDataSource`` turns a 404 into
///   ``DataError/Code/notFound``), `URLError` for the transport. A failure another origin answered (a redirect
///   led there, and it never saw what `adapt` added) fails the call without asking. `attempt` is 1 after the
///   first send. The interceptors are asked in order and the first `true` wins: the request goes through `adapt`
///   again and is sent again, at most ``HTTPClient/maxRetries`` times per call; after that, the last send's
///   error fails the call and no interceptor is asked. `false` from all of them fails the call with the
///   original error; a failed `retry` fails it with `retry`'s error (a refresh that failed reaches the caller as
///   itself). A decoding failure is not retried.
/// - Cancelling the client's response cancels a pending `adapt` or `retry` response, and nothing more is sent.
public protocol HTTPInterceptor: Sendable {
    /// The request to send instead of `request`, such as `request` with the current token.
    func adapt(_ request: URLRequest) -> Response<URLRequest>

    /// Whether to send `request` (as it was sent) again after it failed with `error`; `attempt` counts the
    /// sends so far.
    func retry(_ request: URLRequest, after error: any Error, attempt: Int) -> Response<Bool>
}

extension HTTPInterceptor {
    /// Sends `request` as it is.
    public func adapt(_ request: URLRequest) -> Response<URLRequest> {
        Response(value: request)
    }

    /// Never sends again.
    public func retry(_ request: URLRequest, after error: any Error, attempt: Int) -> Response<Bool> {
        Response(value: false)
    }
}
