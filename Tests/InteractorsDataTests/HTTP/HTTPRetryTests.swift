// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsTestKit
import Testing
import TestThreads

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Response.retry` with `CacheRepository.serverUnavailable` as its rule, the usual HTTP policy the core's
/// documentation describes, against a real server on 127.0.0.1; the waits run on a `TestClock`.
@Suite(.onThreadsOfTheirOwn) struct HTTPRetryTests {
    let server: RESTServer
    let client: HTTPClient

    init() async throws {
        server = try await RESTServer.start()
        client = HTTPClient(baseURL: server.baseURL)
    }

    @Test(arguments: [500, 503, 408, 429])
    func aStatusThatSaysTheServerCouldNotAnswerIsRetried(status: Int) throws {
        let retried = Response.retry(times: 2, while: CacheRepository<Note>.serverUnavailable) {
            client.send(.get("status/\(status)", as: Note.self))
        }
        let error = try #require(throws: HTTPError.self) { try retried.get(timeout: .seconds(60)) }
        #expect(error.status == status)
        #expect(try server.requestLines() == Array(repeating: "GET /status/\(status)", count: 3))
    }

    @Test(arguments: [400, 401, 403, 404, 410, 422])
    func anAnswerTheServerDecidedIsNotRetried(status: Int) throws {
        let retried = Response.retry(times: 2, while: CacheRepository<Note>.serverUnavailable) {
            client.send(.get("status/\(status)", as: Note.self))
        }
        let error = try #require(throws: HTTPError.self) { try retried.get(timeout: .seconds(60)) }
        #expect(error.status == status)
        #expect(try server.requestLines() == ["GET /status/\(status)"])
    }

    @Test func aBodyThatDoesNotDecodeIsNotRetried() throws {
        let retried = Response.retry(times: 2, while: CacheRepository<Note>.serverUnavailable) {
            client.send(.get("undecodable", as: Note.self))
        }
        let error = try #require(throws: DataError.self) { try retried.get(timeout: .seconds(60)) }
        #expect(error.code == .mappingFailed)
        #expect(try server.requestLines() == ["GET /undecodable"])
    }

    @Test func anUnreachableServerIsRetriedWithGrowingWaits() async throws {
        server.stop()
        let clock = TestClock()
        let probe = ResponseProbe(
            Response.retry(
                times: 2,
                delay: .seconds(1),
                backoff: 2,
                clock: clock,
                while: CacheRepository<Note>.serverUnavailable
            ) { client.send(.get("notes", as: [Note].self)) }
        )
        for retry in 0..<2 {
            let deadline = try await clock.deadlines(count: retry + 1, timeout: .seconds(60))[retry]
            await clock.advance(to: deadline)
        }
        #expect(try await probe.error(timeout: .seconds(60)) is URLError)
        #expect(try await clock.deadlines(count: 2, timeout: .zero).map(\.offset) == [.seconds(1), .seconds(3)])
    }

    @Test func aTimeoutThatFiredIsRetriedAndItsRequestCancelled() async throws {
        let clock = TestClock()
        let probe = ResponseProbe(
            Response.retry(times: 1, while: CacheRepository<Note>.serverUnavailable) {
                // Answers only after four minutes: the timeout fires first however slow the test machine.
                client.send(.get("slow", query: [URLQueryItem(name: "seconds", value: "240")], as: Note.self))
                    .timeout(after: .seconds(10), clock: clock)
            }
        )
        #expect(await waitForServer("slow started"))
        let first = try await deadline(1, of: clock, whileWaitingFor: probe)
        await clock.advance(to: first)
        let second = try await deadline(2, of: clock, whileWaitingFor: probe)  // the retry's own timeout
        #expect(second == first.advanced(by: .seconds(10)))
        #expect(await waitForServer("slow started", times: 2))  // the retry reached the server before it times out
        await clock.advance(to: second)

        #expect(try await probe.error(timeout: .seconds(60)) as? ResponseError == .timedOut)
        #expect(await waitForServer("slow closed"))  // an abandoned request is cancelled
        #expect(try server.requestLines() == ["GET /slow?seconds=240", "GET /slow?seconds=240"])
    }

    /// The deadline of the `count`th sleep on `clock`; if it does not come, says what `probe` saw.
    private func deadline(
        _ count: Int,
        of clock: TestClock,
        whileWaitingFor probe: ResponseProbe<Note>
    ) async throws -> TestClock.Instant {
        do {
            return try await clock.deadlines(count: count, timeout: .seconds(60))[count - 1]
        } catch {
            Issue.record("\(error); the retried response: \(probe.error.map { "\($0)" } ?? "pending")")
            throw error
        }
    }

    /// Waits for the server's line, printed `times` times, on a thread of its own: blocking would hold one of the
    /// few threads the clock's timers run on.
    private func waitForServer(_ line: String, times: Int = 1) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [server] in
                var seen = 0
                let found = server.child.waitForLine { printed in
                    if printed == line { seen += 1 }
                    return seen == times
                }
                continuation.resume(returning: found != nil)
            }
        }
    }

    @Test func aCancelledRequestIsNotRetried() {
        let attempts = LockedBox(0)
        let retried = Response<Note>.retry(times: 3, while: CacheRepository<Note>.serverUnavailable) {
            attempts.withLock { $0 += 1 }
            return Response(error: URLError(.cancelled))
        }
        #expect((retried.error as? URLError)?.code == .cancelled)
        #expect(attempts.withLock { $0 } == 1)
    }
}
#endif
