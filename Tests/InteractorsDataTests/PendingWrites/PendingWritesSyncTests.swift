// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import Testing
import TestThreads

/// Issue 35, section 3: `sync()` sends the pending writes, in order, one at a time, and records each outcome.
@Suite(.onThreadsOfTheirOwn) struct PendingWritesSyncTests {
    let server: RESTServer

    init() async throws {
        server = try await RESTServer.start()
    }

    @Test(arguments: CacheStoreKind.allCases)
    func syncSendsThePendingWritesInOrderAndTheCacheKeepsTheServersAnswers(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        _ = try shelf.books.put(grace).get()
        try server.goDown()
        _ = try shelf.books.put(ada).get()
        try shelf.books.delete(IdQuery("grace")).get()
        try shelf.books.delete(IdQuery("nobody")).get()  // the server answers 404 later: taken
        _ = try shelf.books.put(alan).get()
        try server.comeBack()
        try server.forgetRequests()

        let report = try shelf.books.sync().get()
        #expect(report.sent == ["ada", "grace", "nobody", "alan"])
        #expect(report.rejected.isEmpty && report.remaining == 0)
        let sent = ["PUT /books/ada", "DELETE /books/grace", "DELETE /books/nobody", "PUT /books/alan"]
        #expect(try shelf.writesReceived() == sent)
        #expect(try shelf.pending().isEmpty)
        // The server's answers: revision 1.
        #expect(try shelf.cached().sorted { $0.id < $1.id }.map(\.revision) == [1, 1])
        let fetched = try shelf.books.fetchAll(AllObjectsQuery(), operation: .mainSync).get()
        #expect(!fetched.isPending && fetched.value.map(\.id) == ["ada", "alan"])
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aRefusedWriteIsReportedAndTheCacheShowsWhatTheServerHas(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        let stored = try shelf.books.put(ada).get()
        _ = try shelf.books.getAll(AllObjectsQuery(), operation: .mainSync).get()
        try server.goDown()
        _ = try shelf.books.put(Note(id: "ada", text: "not allowed")).get()
        _ = try shelf.books.put(Note(id: "new", text: "not allowed either")).get()
        _ = try shelf.books.put(grace).get()
        try server.comeBack()
        try server.refuse("ada", in: "books")
        try server.refuse("new", in: "books", status: 409)

        let report = try shelf.books.sync().get()
        #expect(report.sent == ["grace"])
        #expect(Set(report.rejected.keys) == ["ada", "new"])
        #expect(report.rejected["ada"]?.code == .rejected)
        #expect((report.rejected["new"]?.underlying as? HTTPError)?.status == 409)
        #expect(report.remaining == 0)
        #expect(try shelf.pending().isEmpty)
        // The cache holds what the server has: its "ada", back in its place in the list, and no "new".
        #expect(try shelf.books.get(IdQuery("ada")).get() == stored)
        #expect(shelf.books.get(IdQuery("new"), operation: .cache).dataError?.code == .notFound)
        #expect(try shelf.books.getAll(AllObjectsQuery()).get().map(\.id) == ["ada", "grace"])
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aServerUnavailableAgainStopsTheSyncWhichSucceeds(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        try server.goDown()
        _ = try shelf.books.put(ada).get()
        _ = try shelf.books.put(grace).get()
        let report = try shelf.books.sync().get()  // still down
        #expect(report.sent.isEmpty && report.rejected.isEmpty && report.remaining == 2)
        try server.comeBack()
        try server.answerEverything(503)
        let again = try shelf.books.sync().get()
        #expect(again.remaining == 2)
        let pending = try shelf.books.pendingWrites().get()
        #expect(pending.map(\.attempts) == [3, 1])  // the call, the two syncs; the second write never sent
        #expect((pending.first?.lastError?.underlying as? HTTPError)?.status == 503)
        #expect(pending.first?.lastError?.code == .unavailable)
        try server.answerEverything(nil)
        #expect(try shelf.books.sync().get().sent == ["ada", "grace"])
    }

    @Test func aSecondSyncInThisProcessAnswersTheReportOfTheOneUnderWay() throws {
        let shelf = try OfflineShelf(.sqliteFile, server: server)
        try server.goDown()
        let notes = (0..<20).map { Note(id: "n\($0)", text: "offline \($0)") }
        _ = try shelf.books.putAll(notes).get()
        try server.comeBack()
        let first = shelf.books.sync()
        let joined = shelf.books.sync()  // the first is sending: HTTP answers later
        let other = try shelf.reopened().sync()  // another source on the same file: the same store
        let report = try first.get()
        #expect(report.sent == notes.map(\.id))
        #expect(try joined.get().sent == report.sent)
        #expect(try other.get().sent == report.sent)
        #expect(try shelf.writesReceived().count == 20)
    }

    @Test(arguments: CacheStoreKind.allCases)
    func writesMadeWhileASyncSendsAreQueuedAfterTheOthersAndSentByIt(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        try server.goDown()
        _ = try shelf.books.putAll((0..<30).map { Note(id: "n\($0)", text: "offline") }).get()
        try server.comeBack()
        let sync = shelf.books.sync()
        // Kept while the sync sends: the server refuses this one id for now, so it is kept pending.
        try server.refuse("late", in: "books", status: 503)
        _ = try shelf.books.put(Note(id: "late", text: "during the sync")).get()
        try server.refuse("late", in: "books", refusing: false)
        let report = try sync.get()
        let next = try shelf.books.sync().get()
        // Sent once, by this sync if it got there, else by the next.
        #expect((report.sent + next.sent).filter { $0 == "late" }.count == 1)
        #expect(report.sent.prefix(30) == ArraySlice((0..<30).map { "n\($0)" }))
        #expect(try shelf.pending().isEmpty)
    }

    @Test(arguments: CacheStoreKind.allCases)
    func cancellingTheCallThatStartedASyncStopsItAfterTheWriteInFlight(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        try server.goDown()
        _ = try shelf.books.putAll((0..<200).map { Note(id: "n\($0)", text: "offline") }).get()
        try server.comeBack()
        let started = shelf.books.sync()
        let joined = shelf.books.sync()
        started.cancel()
        #expect(throws: CancellationError.self) { try started.get() }
        let report = try joined.get()
        #expect(report.sent.count + report.remaining == 200)
        #expect(report.remaining > 0)
        // Nothing lost, nothing sent twice: what was sent left the pending writes, the rest is there.
        #expect(try shelf.books.pendingWrites().get().count == report.remaining)
        #expect(try shelf.writesReceived().count == report.sent.count)
        #expect(try shelf.books.sync().get().sent.count == report.remaining)
        #expect(try shelf.writesReceived().count == 200)
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aThousandPendingWritesSyncInOnePassAndTheServerGetsEachIDsLastWriteOnce(kind: CacheStoreKind) throws {
        let ids = volume(1_000, underASanitizer: 200)  // see `volume`
        let shelf = try OfflineShelf(kind, server: server)
        try server.goDown()
        for round in 0..<2 {  // every id written twice offline: the second write replaces the first
            _ = try shelf.books.putAll((0..<ids).map { Note(id: "n\($0)", text: "round \(round)") }).get()
        }
        try shelf.books.deleteAll(IdsQuery((0..<10).map { "n\($0)" })).get()
        #expect(try shelf.books.pendingWrites().get().count == ids)
        try server.comeBack()
        try server.forgetRequests()
        let report = try shelf.books.sync().get()
        #expect(report.sent.count == ids && report.remaining == 0)
        let received = try server.received().filter { $0.path.hasPrefix("/books/") }
        #expect(received.count == ids)
        #expect(Set(received.map(\.path)).count == ids)
        #expect(received.filter { $0.method == "PUT" }.allSatisfy { $0.body.contains("round 1") })
        #expect(received.filter { $0.method == "DELETE" }.count == 10)
    }

    @Test func aSyncFailsWithTheStoresErrorWhenTheCacheCannotBeRead() throws {
        let shelf = try OfflineShelf(.file, server: server)
        try server.goDown()
        _ = try shelf.books.put(ada).get()
        try Data("{ not a collection".utf8).write(to: shelf.store.directory!.file("notes.json"))
        #expect(shelf.books.sync().dataError?.code == .corruptStore)
    }
}
#endif
