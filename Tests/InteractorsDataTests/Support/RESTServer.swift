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

/// The python REST fixture (Fixtures/rest_server.py) on 127.0.0.1, on a port the system chose. Needs python3.
final class RESTServer: Sendable {
    let child: ChildProcess
    let baseURL: URL

    /// Starts a server on `port`, or on one the system chooses.
    init(port: Int? = nil) throws {
        child = try ChildProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["python3", Fixtures.restServerScript.path] + (port.map { ["\($0)"] } ?? [])
        )
        guard let line = child.waitForLine(where: { $0.hasPrefix("listening ") }),
            let port = Int(line.dropFirst("listening ".count))
        else {
            child.kill()
            throw FixtureError(message: "the REST fixture did not start: \(child.output) \(child.errorOutput)")
        }
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// The server's port.
    var port: Int { baseURL.port ?? 0 }

    /// The same server reached as `localhost`: another origin than ``baseURL`` for a client, the same socket.
    var localhostURL: URL {
        URL(string: "http://localhost:\(port)")!
    }

    /// Starts a server, waiting for it on a thread of its own: a suite's `init` runs on Swift's cooperative pool,
    /// which python's start-up would otherwise hold for every test that starts a server.
    static func start() async throws -> RESTServer {
        try await onAThreadOfItsOwn { try RESTServer() }
    }

    deinit {
        child.stop()
    }

    /// Stops the server and waits for it to exit, so its port refuses connections.
    func stop() {
        child.stop()
    }

    /// Waits for the server to print `line`; false if the guard ran out.
    func waitFor(_ line: String) -> Bool {
        child.waitForLine { $0 == line } != nil
    }

    /// A request as the server received it, before any decoding.
    struct Received: Decodable, Sendable, CustomStringConvertible {
        let method: String
        /// The path as it was on the wire, still percent-encoded.
        let path: String
        /// The query as it was on the wire, still percent-encoded.
        let query: String
        /// Header names in lower case.
        let headers: [String: String]
        /// Every header name as sent, repeats included.
        let headerNames: [String]
        let body: String

        enum CodingKeys: String, CodingKey {
            case method, path, query, headers, body
            case headerNames = "header_names"
        }

        var description: String { "\(method) \(path)\(query.isEmpty ? "" : "?" + query)" }
    }

    /// Every request the server received so far, in arrival order (the recording's own requests aside).
    func received() throws -> [Received] {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let request = URLRequest(url: baseURL.appendingPathComponent("__requests"))
        let (data, _) = try session.response(for: request).get(timeout: .seconds(30))
        return try JSONDecoder().decode([Received].self, from: data)
    }

    /// The first line of every request received so far: `"DELETE /books/a%2Fb"`.
    func requestLines() throws -> [String] {
        try received().map(\.description)
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
#endif
