public import Foundation
public import Interactors

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension URLSession {
    /// Starts `request` now and returns its response at once: the body and the HTTP response, whatever the
    /// status (the caller reads it). Transport failures (no connection, a timeout) fail it with their `URLError`;
    /// cancelling it cancels the task.
    ///
    /// ```swift
    /// let (data, response) = try URLSession.shared.response(for: request).get()
    /// if response.statusCode == 304 { useCache() }
    /// ```
    ///
    /// As ``HTTPClient`` does: the response settles on the library's threads, never on the session's delegate
    /// queue, so a stage after it may wait for another answer of the same session; a 401 with a challenge
    /// (`WWW-Authenticate: Basic`...) is the answer, with its headers (on Linux, with an empty body); and when
    /// the request's timeout (else the session's `timeoutIntervalForRequest`) passes with nothing sent or
    /// received, it fails with `URLError(.timedOut)` and the task is cancelled, even if the session never calls
    /// back.
    public func response(for request: URLRequest) -> Response<(Data, HTTPURLResponse)> {
        Transfer.start(
            request,
            on: self,
            events: nil,
            timeout: Transfer.timeout(nil, for: request, sessionTimeout: configuration.timeoutIntervalForRequest),
            refusingRedirects: false,
            scope: HTTPCallScope(refreshes: HTTPCallScope.current?.refreshes ?? [])
        )
    }
}
