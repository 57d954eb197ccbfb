import BookshelfApp
import BookshelfHTTPClient
import Dispatch
import Foundation
import Hummingbird
import Interactors
import InteractorsTestKit
import NIOConcurrencyHelpers
import ServiceLifecycle
import Testing

/// The registry hosted in a ServiceGroup: launched before the server listens, torn down in reverse order after the
/// server's last request, a failed launch stopping everything with a message that says why.
@Suite struct RegistryServiceTests {
    @Test func theServicesStartInOrderBeforeTheServerListens() async throws {
        let log = EventLog()
        let registry = ServiceRegistry()
        registry.register(RecordingService(name: "database", log: log))
        registry.register(RecordingService(name: "stats", log: log))
        let heardAtListening = LockedEntries()
        let server = try await TestServer.start { onListening in
            TestServer.makeGroup(router: router(), registry: registry) { port in
                heardAtListening.set(log.entries.map(\.description))
                onListening(port)
            }
        }
        #expect(
            heardAtListening.value == [
                "database: didFinishLaunching([:])", "stats: didFinishLaunching([:])", "database: didBecomeActive",
                "stats: didBecomeActive",
            ]
        )
        try await server.stop()
    }

    @Test func aGracefulShutdownFinishesTheRequestInFlightThenTearsDownInReverseOrder() async throws {
        let log = EventLog()
        let registry = ServiceRegistry()
        registry.register(RecordingService(name: "database", log: log))
        registry.register(RecordingService(name: "stats", log: log))
        let store = PendingStore()
        let server = try await TestServer.start(router: router(store), registry: registry)
        async let answer = server.request("GET", "/books/b1")
        let resolver = try #require(await store.nextCall())

        async let stopped: Void = server.stop()
        // The server stops accepting first: wait until a new connection is refused.
        let port = server.port
        let refused = try await onOwnThread {
            for _ in 0..<2000 {
                do {
                    close(try RawHTTP.connect(port: port, timeout: 1))
                } catch {
                    return true
                }
                usleep(5000)
            }
            return false
        }
        #expect(refused, "the server still accepted connections after the shutdown began")
        #expect(log.services(hearing: .willResignActive).isEmpty, "torn down with a request in flight")
        log.record(service: "test", event: .didReceiveMemoryWarning)  // marks when the request was answered
        resolver.succeed(Book(id: "b1", title: "Dune", author: "Frank Herbert"))

        #expect(try await answer.status == 200, "the request in flight was not answered")
        try await stopped
        let entries = log.entries.map(\.description)
        let tearDown = Array(entries.drop { $0 != "test: didReceiveMemoryWarning" }.dropFirst())
        #expect(
            tearDown == [
                "stats: willResignActive", "database: willResignActive", "stats: didEnterBackground",
                "database: didEnterBackground", "stats: willTerminate", "database: willTerminate",
            ]
        )
    }

    @Test func aServiceThatFailsToStartStopsTheServerWithAClearMessage() async throws {
        let log = EventLog()
        let registry = ServiceRegistry()
        let database = RecordingService(name: "database", log: log)
        database.fail(on: .didFinishLaunching([:]))
        registry.register(RecordingService(name: "logger", log: log))
        registry.register(database)
        let listened = LockedEntries()
        let group = TestServer.makeGroup(router: router(), registry: registry) { _ in listened.set(["listened"]) }
        let error = await #expect(throws: RegistryServiceError.self) { try await group.run() }
        #expect(error?.code == .launchFailed)
        #expect(error?.failures.count == 1)
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message.hasPrefix("the services failed to start; "), "\(message)")
        #expect(message.contains("RecordingService failed on didFinishLaunching"), "\(message)")
        #expect(listened.value.isEmpty, "the server listened although its services failed to start")
        #expect(log.services(hearing: .willTerminate) == ["database", "logger"], "what started heard no tear-down")
        #expect(!log.services(hearing: .didBecomeActive).contains("logger"))
    }

    @Test func aTearDownHookThatThrowsIsReportedAfterEveryServiceHeardIt() async throws {
        let log = EventLog()
        let registry = ServiceRegistry()
        registry.register(RecordingService(name: "database", log: log))
        let stats = RecordingService(name: "stats", log: log)
        stats.fail(on: .willTerminate)
        registry.register(stats)
        let server = try await TestServer.start(router: router(), registry: registry)
        let error = await #expect(throws: RegistryServiceError.self) { try await server.stop() }
        #expect(error?.code == .tearDownFailed)
        #expect(log.services(hearing: .willTerminate) == ["stats", "database"])
    }

    @Test func aTearDownPastItsDeadlineStopsTheGroupWithTimedOut() async throws {
        let registry = ServiceRegistry()
        let hung = RecordingService(name: "hung")
        let release = DispatchSemaphore(value: 0)
        hung.onReceive { event in if event == .willTerminate { release.wait() } }
        registry.register(hung)
        let server = try await TestServer.start(
            router: router(),
            registry: registry,
            tearDownDeadline: .milliseconds(200)
        )
        let error = await #expect(throws: RegistryServiceError.self) { try await server.stop() }
        #expect(error?.code == .tearDownTimedOut)
        #expect("\(error.map { "\($0)" } ?? "")" == "the services did not stop within the deadline")
        release.signal()
    }

    @Test func cancellingTheGroupTearsTheServicesDownToo() async throws {
        let log = EventLog()
        let registry = ServiceRegistry()
        registry.register(RecordingService(name: "database", log: log))
        let server = try await TestServer.start(router: router(), registry: registry)
        server.run.cancel()
        _ = try? await server.run.value
        #expect(log.services(hearing: .willTerminate) == ["database"])
    }

    private func router(_ store: some BookStore = PendingStore()) -> Router<BookshelfContext> {
        BookRoutes.router(
            store: store,
            health: HealthService(logger: quietLogger),
            stats: RequestStats(),
            variant: "test"
        )
    }
}

/// A list of strings set from another thread.
final class LockedEntries: Sendable {
    private let box = NIOLockedValueBox<[String]>([])
    func set(_ entries: [String]) { box.withLockedValue { $0 = entries } }
    var value: [String] { box.withLockedValue { $0 } }
}
