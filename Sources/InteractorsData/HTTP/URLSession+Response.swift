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
    public func response(for request: URLRequest) -> Response<(Data, HTTPURLResponse)> {
        response(for: request, taskDelegate: nil)
    }

    /// As ``response(for:)``, but a redirect is the answer: the caller decides whether and how to follow it.
    /// `committing`: the request may change the server, so its response commits to its outcome as it is handed to
    /// the session (`Resolver.commitToOutcome()`): cancelling it later is ignored, and it answers what the server
    /// did; one cancelled before is never sent.
    func responseRefusingRedirects(
        for request: URLRequest,
        committing: Bool = false
    ) -> Response<(Data, HTTPURLResponse)> {
        response(for: request, taskDelegate: RedirectRefusal.shared, committing: committing)
    }

    private func response(
        for request: URLRequest,
        taskDelegate: (any URLSessionTaskDelegate)?,
        committing: Bool = false
    ) -> Response<(Data, HTTPURLResponse)> {
        Response { resolver in
            if committing, !resolver.commitToOutcome() { return }
            let task = dataTask(with: request) { data, response, error in
                if let error {
                    resolver.fail(error)
                } else if let response = response as? HTTPURLResponse {
                    resolver.succeed((data ?? Data(), response))
                } else {
                    resolver.fail(URLError(.badServerResponse))
                }
            }
            if let taskDelegate { task.delegate = taskDelegate }
            resolver.onCancel { task.cancel() }
            task.resume()
        }
    }
}

/// A task delegate that turns down every redirect, so the redirect itself is the task's answer. The session would
/// otherwise follow it as it sees fit (on Linux, a 307 hop arrives without its body).
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    static let shared = RedirectRefusal()

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
