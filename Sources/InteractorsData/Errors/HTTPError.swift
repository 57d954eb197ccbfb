public import Foundation

/// A server's answer with a status outside 200...299, body included.
///
/// ```swift
/// catch let error as HTTPError where error.status == 409 { showConflict(error.bodyText) }
/// ```
public struct HTTPError: Error, CustomStringConvertible {
    /// The HTTP status code.
    public let status: Int

    /// The body of the answer, as received.
    public let body: Data

    /// Makes an error for an answer with `status` and `body`.
    public init(status: Int, body: Data = Data()) {
        self.status = status
        self.body = body
    }

    /// The body as UTF-8 text (invalid bytes replaced), for messages and logs.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// `HTTPError(<status>): <body text>`.
    public var description: String { "HTTPError(\(status)): \(bodyText)" }
}
