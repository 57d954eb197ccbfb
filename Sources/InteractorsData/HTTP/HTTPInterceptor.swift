public import Interactors

// URLRequest lives in FoundationNetworking on Linux, in Foundation elsewhere.
#if canImport(FoundationNetworking)
public import FoundationNetworking
#else
public import Foundation
#endif

/// Changes every request an ``HTTPClient`` sends, and decides whether a failed one is sent again: the place for
/// the token refresh every real app needs.
///
/// ```swift
/// struct BearerToken: HTTPInterceptor {
///     let tokens: TokenStore
///
///     func adapt(_ request: URLRequest) -> Response<URLRequest> {
///         var request = request
///         request.setValue("Bearer \(tokens.current)", forHTTPHeaderField: "Authorization")
///         return Response(value: request)
///     }
///
///     func retry(_ request: URLRequest, after error: any Error, attempt: Int) -> Response<Bool> {
///         guard (error as? HTTPError)?.status == 401, attempt == 1 else { return Response(value: false) }
///         return tokens.refresh().map { true }
///     }
/// }
/// let client = HTTPClient(baseURL: api, interceptors: [BearerToken(tokens: tokens)])
/// ```
///
/// - ``adapt(_:)`` runs before every send, retries included, each interceptor in the client's order, each given
///   what the one before answered. A failed `adapt` fails the request, which is not sent.
/// - ``retry(_:after:attempt:)`` is asked after a send failed, with the error as the send failed: ``HTTPError``
///   for a status outside 2xx (before a ``RESTDataSource`` turns a 404 into ``DataError/Code/notFound``),
///   `URLError` for the transport. `attempt` is 1 after the first send. The interceptors are asked in order and
///   the first `true` wins: the request goes through `adapt` again and is sent again. `false` from all of them,
///   or a failed `retry`, fails the response with the original error. A decoding failure is not retried.
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
