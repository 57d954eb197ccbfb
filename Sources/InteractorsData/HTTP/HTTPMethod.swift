/// The HTTP methods an ``Endpoint`` uses.
///
/// GET, HEAD, PUT, DELETE and OPTIONS are idempotent (RFC 9110 §9.2.2): sending one twice does what sending it
/// once does, so an ``HTTPRetryPolicy`` may resend it. POST and PATCH are not.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    /// Reads a resource.
    case get = "GET"
    /// Reads a resource's headers only: the answer has no body.
    case head = "HEAD"
    /// Creates a resource, or runs an action.
    case post = "POST"
    /// Replaces a resource.
    case put = "PUT"
    /// Changes part of a resource.
    case patch = "PATCH"
    /// Deletes a resource.
    case delete = "DELETE"
    /// Asks what a resource, or the server, supports.
    case options = "OPTIONS"

    /// Whether sending the request twice does what sending it once does (RFC 9110 §9.2.2).
    var isIdempotent: Bool {
        self != .post && self != .patch
    }
}
