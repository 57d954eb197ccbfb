// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import Foundation
import Interactors
import InteractorsData

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RESTServer {
    /// From now on, the server takes a snapshot of `collection` for each `GET /<collection>`, prints
    /// "held <collection>", and answers it only once ``release(_:)`` is called: a refresh the server holds back
    /// while the test writes.
    func hold(_ collection: String) throws {
        try control("POST", collection)
    }

    /// Answers the held `GET /<collection>`s with their snapshots, and stops holding.
    func release(_ collection: String) throws {
        try control("DELETE", collection)
    }

    private func control(_ method: String, _ collection: String) throws {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: baseURL.appendingPathComponent("__hold").appendingPathComponent(collection))
        request.httpMethod = method
        _ = try session.response(for: request).get(timeout: .seconds(30))
    }
}
#endif
