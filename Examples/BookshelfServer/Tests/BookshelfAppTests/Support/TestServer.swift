import BookshelfApp
import BookshelfHTTPClient
import Foundation
import Hummingbird
import Interactors
import Logging
import ServiceLifecycle

/// A quiet logger: a passing test prints nothing.
let quietLogger = Logger(label: "BookshelfAppTests") { _ in SwiftLogNoOpLogHandler() }

/// A bookshelf server running in a task, on a port the system picked, until ``stop()``.
struct TestServer {
    let port: Int
    let group: ServiceGroup
    let run: Task<Void, any Error>

    /// Starts `router` with `registry`'s services hosted by a ``RegistryService``; returns once it listens, or
    /// throws what the group threw if it stopped first.
    static func start(
        router: Router<BookshelfContext>,
        registry: ServiceRegistry = ServiceRegistry(),
        tearDownDeadline: Duration = .seconds(10)
    ) async throws -> TestServer {
        try await start { onListening in
            makeGroup(router: router, registry: registry, tearDownDeadline: tearDownDeadline, onListening: onListening)
        }
    }

    /// Starts the group `makeGroup` makes with the port callback it is given.
    static func start(
        _ makeGroup: (_ onListening: @escaping @Sendable (Int) -> Void) -> ServiceGroup
    ) async throws -> TestServer {
        let (ports, listening) = AsyncStream<Int>.makeStream()
        let group = makeGroup { port in listening.yield(port) }
        let run = Task {
            defer { listening.finish() }
            try await group.run()
        }
        for await port in ports { return TestServer(port: port, group: group, run: run) }
        // The group stopped before it listened: its error says why.
        try await run.value
        throw RawHTTPError.stoppedWithoutListening
    }

    /// The group `Bookshelf` runs, on port 0, without signal handlers (the test stops it).
    static func makeGroup(
        router: Router<BookshelfContext>,
        registry: ServiceRegistry,
        tearDownDeadline: Duration = .seconds(10),
        onListening: @escaping @Sendable (Int) -> Void
    ) -> ServiceGroup {
        var configuration = BookshelfConfiguration()
        configuration.port = 0
        return Bookshelf.serviceGroup(
            router: router,
            registryService: RegistryService(registry: registry, tearDownDeadline: tearDownDeadline),
            configuration: configuration,
            gracefulShutdownSignals: [],
            logger: quietLogger,
            onListening: { _, port in onListening(port) }
        )
    }

    /// A graceful shutdown, as SIGTERM starts one; returns what the group's run ended with.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await run.value
    }

    /// Runs `body` with this server, then stops it, whether `body` threw or not.
    func serving(_ body: (TestServer) async throws -> Void) async throws {
        do {
            try await body(self)
        } catch {
            try? await stop()
            throw error
        }
        try await stop()
    }

    /// `method path` answered whole, on a thread of its own (the socket blocks; Swift's pool must stay free for the
    /// server's handlers).
    func request(
        _ method: String,
        _ path: String,
        headers: [(String, String)] = [],
        body: String? = nil
    ) async throws -> RawHTTP.Answer {
        let port = self.port
        return try await onOwnThread {
            try RawHTTP.request(
                port: port,
                method: method,
                path: path,
                headers: headers,
                body: Array((body ?? "").utf8)
            )
        }
    }
}

extension RawHTTPError {
    static let stoppedWithoutListening = RawHTTPError("the server stopped before it listened")
}

/// Runs blocking `work` on a new thread and awaits its result.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// The `{"error": {"code", "message"}}` of an answer, or nil when its body is not that.
func errorBody(_ answer: RawHTTP.Answer) -> (code: String, message: String)? {
    guard let json = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any],
        let error = json["error"] as? [String: Any], let code = error["code"] as? String,
        let message = error["message"] as? String
    else { return nil }
    return (code, message)
}
