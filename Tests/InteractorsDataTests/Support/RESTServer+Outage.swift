// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The fixture's switches for a server that cannot take writes: down (connections refused, its collections kept),
/// unavailable (every request answered 5xx), or refusing one id (422).
extension RESTServer {
    /// Closes the server's listening socket and open connections: every request is refused until ``comeBack()``.
    func goDown() throws {
        let outage = outages + 1
        child.send("down")
        guard waitFor("down \(outage)") else { throw FixtureError(message: "the REST fixture did not go down") }
    }

    /// Listens again on the same port, with the collections it had.
    func comeBack() throws {
        let outage = outages
        child.send("up")
        guard waitFor("up \(outage)") else { throw FixtureError(message: "the REST fixture did not come back") }
    }

    /// How many times the server went down.
    private var outages: Int {
        child.output.filter { $0.hasPrefix("down ") }.count
    }

    /// From now on, every request is answered `status`; nil ends it.
    func answerEverything(_ status: Int?) throws {
        try control(status == nil ? "DELETE" : "POST", "__unavailable", query: status.map { "status=\($0)" })
    }

    /// From now on, a `PUT` or `DELETE` of `id` in `collection` is answered `status` (422 by default) and changes
    /// nothing; `refusing: false` ends it.
    func refuse(_ id: String, in collection: String, status: Int = 422, refusing: Bool = true) throws {
        try control(refusing ? "POST" : "DELETE", "__refuse/\(collection)/\(id)", query: "status=\(status)")
    }

    /// Puts `object` into `collection` as another client would (a plain `PUT`).
    func store(_ object: [String: any Sendable], in collection: String) throws {
        let id = "\(object["id"] ?? "")"
        var request = URLRequest(url: baseURL.appendingPathComponent("\(collection)/\(id)"))
        request.httpMethod = "PUT"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: object)
        try send(request)
    }

    /// Forgets the requests received so far.
    func forgetRequests() throws {
        var request = URLRequest(url: baseURL.appendingPathComponent("__requests"))
        request.httpMethod = "DELETE"
        try send(request)
    }

    private func control(_ method: String, _ path: String, query: String?) throws {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        components.query = query
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        try send(request)
    }

    private func send(_ request: URLRequest) throws {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        _ = try session.response(for: request).get(timeout: .seconds(30))
    }
}
#endif
