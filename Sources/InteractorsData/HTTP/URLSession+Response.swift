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
        Response { resolver in
            let task = dataTask(with: request) { data, response, error in
                if let error {
                    resolver.fail(error)
                } else if let response = response as? HTTPURLResponse {
                    resolver.succeed((data ?? Data(), response))
                } else {
                    resolver.fail(URLError(.badServerResponse))
                }
            }
            resolver.onCancel { task.cancel() }
            task.resume()
        }
    }
}
