// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import Testing
import TestThreads

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every call ends by its timeout, counted since the last byte, whatever the session does: the library's own
/// watchdog. A session whose delegate queue is suspended never calls back, so only the watchdog can end its calls.
@Suite(.onThreadsOfTheirOwn) struct HTTPWatchdogTests {
    let server: RESTServer

    init() async throws {
        server = try await RESTServer.start()
    }

    /// A session that never calls back: its delegate queue is suspended until `resume()`.
    ///
    /// The queue is serial, as a session's own is: FoundationNetworking ends a task in an operation on the delegate
    /// queue that checks and then sets the task's state, so on a concurrent queue the two endings a cancelled task
    /// queues (the cancellation's and the stopped load's) can both pass the check and remove the task from the
    /// session's registry twice, a fatal error in FoundationNetworking.
    final class SilentSession: Sendable {
        let queue: OperationQueue
        let session: URLSession

        init(timeout: TimeInterval = 60) {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.isSuspended = true
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout
            self.queue = queue
            self.session = URLSession(configuration: configuration, delegate: nil, delegateQueue: queue)
        }

        func resume() {
            queue.isSuspended = false
            session.finishTasksAndInvalidate()
        }
    }

    @Test func aCallTheSessionNeverAnswersFailsByTheEndpointsTimeoutAndItsTaskIsCancelled() throws {
        let silent = SilentSession()
        defer { silent.resume() }
        let client = HTTPClient(baseURL: server.baseURL, session: silent.session)
        var slow = Endpoint<Void>(method: .get, path: "slow", query: [URLQueryItem(name: "seconds", value: "240")]) {
            _,
            _ in
        }
        slow.timeout = .seconds(1)
        let error = try #require(throws: URLError.self) { try client.send(slow).get(timeout: .seconds(30)) }
        #expect(error.code == .timedOut)
        #expect(error.localizedDescription.contains("nothing came or went for"))
        #expect(server.waitFor("slow closed"))  // the task was cancelled: the connection is closed
    }

    @Test func withoutAnEndpointTimeoutTheSessionsTimeoutIntervalForRequestCounts() throws {
        let silent = SilentSession(timeout: 1)
        defer { silent.resume() }
        let client = HTTPClient(baseURL: server.baseURL, session: silent.session)
        let slow = Endpoint<Void>(method: .get, path: "slow", query: [URLQueryItem(name: "seconds", value: "240")]) {
            _,
            _ in
        }
        let error = try #require(throws: URLError.self) { try client.send(slow).get(timeout: .seconds(30)) }
        #expect(error.code == .timedOut)
        #expect(server.waitFor("slow closed"))
    }

    @Test func theURLSessionBridgeEndsByTheRequestsTimeoutToo() throws {
        let silent = SilentSession()
        defer { silent.resume() }
        var request = URLRequest(url: server.baseURL.appendingPathComponent("slow"))
        request.timeoutInterval = 1
        let error = try #require(throws: URLError.self) {
            try silent.session.response(for: request).get(timeout: .seconds(30))
        }
        #expect(error.code == .timedOut)
    }

    /// Leaves the session's own timer far behind the endpoint's timeout, so that only the watchdog counts.
    struct LongSessionTimeout: HTTPInterceptor {
        func adapt(_ request: URLRequest) -> Response<URLRequest> {
            var request = request
            request.timeoutInterval = 60
            return Response(value: request)
        }
    }

    /// `GET /drip`: `bytes` bytes, one every `seconds`, with `timeout`.
    static func drip(bytes: Int, every seconds: String, timeout: Duration) -> Endpoint<Data> {
        var drip = Endpoint<Data>(
            method: .get,
            path: "drip",
            query: [URLQueryItem(name: "bytes", value: "\(bytes)"), URLQueryItem(name: "interval", value: seconds)]
        ) { data, _ in data }
        drip.timeout = timeout
        return drip
    }

    @Test func aCallWhoseBytesKeepComingOutlastsItsTimeout() throws {
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [LongSessionTimeout()])
        // Twelve bytes, one every 0.2 s: 2.4 s in all, never 1 s without one.
        let drip = Self.drip(bytes: 12, every: "0.2", timeout: .seconds(1))
        #expect(try client.send(drip).get(timeout: .seconds(30)) == Data(repeating: UInt8(ascii: "x"), count: 12))
    }

    @Test func aCallThatStopsReceivingEndsByItsTimeout() throws {
        let client = HTTPClient(baseURL: server.baseURL, interceptors: [LongSessionTimeout()])
        let drip = Self.drip(bytes: 3, every: "30", timeout: .seconds(1))
        let error = try #require(throws: URLError.self) { try client.send(drip).get(timeout: .seconds(30)) }
        #expect(error.code == .timedOut)
        #expect(error.localizedDescription.contains("GET \(server.baseURL)/drip?bytes=…&interval=…"))
    }
}
#endif
