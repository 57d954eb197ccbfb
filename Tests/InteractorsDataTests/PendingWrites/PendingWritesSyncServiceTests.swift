// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsTestKit
import Testing
import TestThreads

/// Issue 35: `PendingWritesSync` syncs as the app comes back, on a timer while it is active, and stops.
@Suite(.onThreadsOfTheirOwn) struct PendingWritesSyncServiceTests {
    let server: RESTServer

    init() async throws {
        server = try await RESTServer.start()
    }

    @Test func itSyncsWhenTheAppBecomesActiveAndWhenItComesToTheForeground() throws {
        let shelf = try OfflineShelf(.sqliteFile, server: server)
        let service = PendingWritesSync(repository: shelf.books)
        try server.goDown()
        _ = try shelf.books.put(ada).get()
        try server.comeBack()
        try service.didBecomeActive()
        _ = try shelf.books.sync().get()  // joins the service's sync if it is still under way
        #expect(try shelf.pending().isEmpty)
        try server.goDown()
        _ = try shelf.books.put(grace).get()
        try server.comeBack()
        try service.willEnterForeground()
        _ = try shelf.books.sync().get()
        #expect(try shelf.pending().isEmpty)
        #expect(try shelf.writesReceived() == ["PUT /books/ada", "PUT /books/grace"])
    }

    @Test func itSyncsEveryIntervalWhileActiveAndStopsWhenTheAppResigns() throws {
        let shelf = try OfflineShelf(.inMemory, server: server)
        let service = PendingWritesSync(repository: shelf.books, every: .milliseconds(50))
        try service.didBecomeActive()
        try server.goDown()
        _ = try shelf.books.put(ada).get()
        try server.comeBack()
        #expect(try waitUntil { try shelf.pending().isEmpty })  // a tick sent it
        try service.willResignActive()
        try server.goDown()
        _ = try shelf.books.put(grace).get()
        try server.comeBack()
        Thread.sleep(forTimeInterval: 0.3)  // six intervals: no tick any more
        #expect(try shelf.pending() == ["put grace"])
        try service.didBecomeActive()
        #expect(try waitUntil { try shelf.pending().isEmpty })
        try service.didEnterBackground()
    }

    @Test func willTerminateStopsTheSyncInFlightAfterTheWriteItIsSending() throws {
        let shelf = try OfflineShelf(.file, server: server)
        let service = PendingWritesSync(repository: shelf.books)
        try server.goDown()
        _ = try shelf.books.putAll((0..<200).map { Note(id: "n\($0)", text: "offline") }).get()
        try server.comeBack()
        try service.didBecomeActive()
        let joined = shelf.books.sync()
        try service.willTerminate()
        let report = try joined.get()
        #expect(report.remaining > 0 && report.sent.count + report.remaining == 200)
        #expect(try shelf.books.pendingWrites().get().count == report.remaining)
        #expect(try shelf.writesReceived().count == report.sent.count)
    }

    @Test func aFailedSyncIsADiagnosticNotAServiceFailure() throws {
        let shelf = try OfflineShelf(.file, server: server)
        let service = PendingWritesSync(repository: shelf.books)
        try server.goDown()
        _ = try shelf.books.put(ada).get()
        try Data("{ not a collection".utf8).write(to: shelf.store.directory!.file("notes.json"))
        let (error, diagnostics) = try withCapturedDiagnostics {
            try service.didBecomeActive()  // does not throw
            return shelf.books.sync().error
        }
        #expect((error as? DataError)?.code == .corruptStore)
        #expect(diagnostics.contains { $0.contains("PendingWritesSync<Note>: the sync failed") })
    }
}
#endif
