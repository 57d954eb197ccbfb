/// The HTTP methods an ``Endpoint`` uses.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    /// Reads a resource.
    case get = "GET"
    /// Creates a resource, or runs an action.
    case post = "POST"
    /// Replaces a resource.
    case put = "PUT"
    /// Changes part of a resource.
    case patch = "PATCH"
    /// Deletes a resource.
    case delete = "DELETE"
}
