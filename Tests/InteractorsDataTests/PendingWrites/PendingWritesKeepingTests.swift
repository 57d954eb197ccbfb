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

/// Issue 35, section 1: a write the server cannot take is kept, and the call succeeds; one it refuses fails.
@Suite(.onThreadsOfTheirOwn) struct PendingWritesKeepingTests {
    let server: RESTServer

    init() async throws {
        server = try await RESTServer.start()
    }

    @Test(arguments: CacheStoreKind.allCases)
    func putWithTheServerDownSucceedsAndIsKeptPending(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        try server.goDown()
        let note = Note(id: "ada", text: "written offline")
        #expect(try shelf.books.put(note).get() == note)  // the value as put
        #expect(try shelf.cached() == [note])
        let pending = try shelf.books.pendingWrites().get()
        #expect(pending.map(\.id) == ["ada"])
        #expect(pending.first?.value == note)
        #expect(pending.first?.attempts == 1)
        #expect(pending.first?.lastError?.code == .unavailable)
        #expect(pending.first?.lastError?.underlying is URLError)
    }

    @Test(arguments: [500, 503, 408, 429])
    func putTheServerAnswersUnavailableIsKept(status: Int) throws {
        let shelf = try OfflineShelf(.inMemory, server: server)
        try server.answerEverything(status)
        _ = try shelf.books.put(ada).get()
        let pending = try shelf.books.pendingWrites().get()
        #expect(pending.map(\.id) == ["ada"])
        #expect((pending.first?.lastError?.underlying as? HTTPError)?.status == status)
    }

    @Test(arguments: CacheStoreKind.allCases)
    func writeTheServerRefusesFailsAndNothingIsKept(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        try server.refuse("ada", in: "books")
        #expect((try? shelf.books.put(ada).get()) == nil)
        #expect((shelf.books.put(ada).error as? HTTPError)?.status == 422)
        try server.refuse("grace", in: "books", status: 403)
        #expect((shelf.books.delete(IdQuery("grace")).error as? HTTPError)?.status == 403)
        #expect(try shelf.cached().isEmpty)
        #expect(try shelf.pending().isEmpty)
    }

    @Test(arguments: CacheStoreKind.allCases)
    func deleteAndBatchesWithTheServerDownAreKept(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        _ = try shelf.books.putAll([ada, grace, alan]).get()  // on the server and in the cache
        try server.goDown()
        try shelf.books.delete(IdQuery("ada")).get()
        try shelf.books.deleteAll(IdsQuery(["grace"])).get()
        let added = [Note(id: "n1", text: "one"), Note(id: "n2", text: "two")]
        #expect(try shelf.books.putAll(added).get() == added)
        #expect(try shelf.pending() == ["delete ada", "delete grace", "put n1", "put n2"])
        #expect(try shelf.cached().map(\.id) == ["alan", "n1", "n2"])
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aBatchTheServerAppliesInPartKeepsTheUnavailableIDsAndFailsForTheRefusedOnes(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        try server.refuse("grace", in: "books", status: 503)  // unavailable for now
        let values = [ada, grace, alan]
        #expect(try shelf.books.putAll(values).get() == values.map { $0.id == "grace" ? $0 : stored($0) })
        #expect(try shelf.pending() == ["put grace"])
        try server.refuse("alan", in: "books", status: 422)  // refused
        let renamed = values.map { Note(id: $0.id, text: "renamed") }
        let error = shelf.books.putAll(renamed).error as? DataError
        #expect(error?.code == .partiallyApplied)
        #expect(error?.failedIDs == [AnyHashable("alan")])
        #expect((error?.underlying as? HTTPError)?.status == 422)
        #expect(try shelf.pending() == ["put grace"])
        #expect(try shelf.books.pendingWrites().get().first?.value?.text == "renamed")
        #expect(try shelf.cached().first { $0.id == "alan" }?.text == alan.text)
        // deleteAll of ids: the same.
        let deletion = shelf.books.deleteAll(IdsQuery(["ada", "grace", "alan"])).error as? DataError
        #expect(deletion?.failedIDs == [AnyHashable("alan")])
        #expect(try shelf.pending() == ["delete grace"])
        #expect(try shelf.cached().map(\.id) == ["alan"])
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aLaterWriteOfAnIDReplacesTheEarlierAndTakesItsPlaceAtTheEnd(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        try server.goDown()
        _ = try shelf.books.put(ada).get()
        _ = try shelf.books.put(grace).get()
        try shelf.books.delete(IdQuery("ada")).get()
        #expect(try shelf.pending() == ["put grace", "delete ada"])
        _ = try shelf.books.put(Note(id: "grace", text: "again")).get()
        _ = try shelf.books.put(Note(id: "ada", text: "back")).get()
        #expect(try shelf.pending() == ["put grace", "put ada"])
        #expect(try shelf.books.pendingWrites().get().map { $0.value?.text } == ["again", "back"])
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aWriteTheServerTakesDirectlyDropsTheOlderPendingWriteOfItsID(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        try server.goDown()
        _ = try shelf.books.put(Note(id: "ada", text: "offline")).get()
        _ = try shelf.books.put(grace).get()
        try server.comeBack()
        let online = try shelf.books.put(Note(id: "ada", text: "online")).get()
        #expect(try shelf.pending() == ["put grace"])
        #expect(try shelf.books.get(IdQuery("ada")).get() == online)
        try shelf.books.delete(IdQuery("grace")).get()  // answered 404: gone either way
        #expect(try shelf.pending().isEmpty)
    }

    @Test func mainAndCacheWritesAndDeletingEverythingBehaveAsToday() throws {
        let shelf = try OfflineShelf(.inMemory, server: server)
        try server.goDown()
        #expect(throws: URLError.self) { try shelf.books.put(ada, operation: .main).get() }
        #expect(throws: URLError.self) { try shelf.books.deleteAll(AllObjectsQuery()).get() }
        _ = try shelf.books.put(grace, operation: .cache).get()
        #expect(try shelf.pending().isEmpty)
        #expect(try shelf.cached() == [grace])
    }

    @Test func withFailTheWriteFailsAsTodayAndNothingIsPending() throws {
        let shelf = try OfflineShelf(.file, server: server, pendingWrites: .fail)
        try server.goDown()
        #expect(throws: URLError.self) { try shelf.books.put(ada).get() }
        #expect(try shelf.cached().isEmpty)
        #expect(try shelf.books.pendingWrites().get().isEmpty)
        let report = try shelf.books.sync().get()
        #expect(report.sent.isEmpty && report.rejected.isEmpty && report.remaining == 0)
    }

    @Test(arguments: CacheStoreKind.persistent)
    func aPendingWriteAndItsErrorSurviveARestart(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        try server.goDown()
        _ = try shelf.books.put(ada).get()
        try shelf.books.delete(IdQuery("grace")).get()
        let before = try shelf.books.pendingWrites().get()
        let restarted = try shelf.reopened()
        let after = try restarted.pendingWrites().get()
        #expect(after.map(\.id) == ["ada", "grace"])
        #expect(after.map(\.attempts) == [1, 1])
        #expect(after.map(\.lastError?.code) == [.unavailable, .unavailable])
        #expect(after.map(\.lastError?.message) == before.map(\.lastError?.message))
        #expect(after.first?.lastError?.message.isEmpty == false)
        for (kept, read) in zip(after, before) {  // to the microsecond: the stores keep seconds as a Double
            #expect(abs(kept.queuedAt.timeIntervalSince(read.queuedAt)) < 0.000_01)
        }
        #expect(after.map(\.position) == before.map(\.position))
    }

    @Test func keepWithACacheThatCannotKeepPendingWritesStopsWithAPreconditionFailure() throws {
        let directory = try TemporaryDirectory()
        let child = try ChildProcess(
            executable: Fixtures.dataStoreExecutable,
            arguments: ["unindexed", directory.file("notes.json").path, server.baseURL.absoluteString]
        )
        #expect(child.waitForExit())
        #expect(child.process.terminationStatus != 0)  // a trap (a signal; an exit under a sanitizer)
        #expect(!child.output.contains("made"))
        let message = child.completeErrorOutput()
        #expect(message.contains("pendingWrites: .keep needs a cache that keeps pending writes"))
        #expect(message.contains("PlainSource"))
    }

    /// `note` as the fixture stores it: its revision incremented.
    private func stored(_ note: Note) -> Note {
        Note(id: note.id, text: note.text, revision: note.revision + 1)
    }
}
#endif
