// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import Testing
import TestThreads

/// Issue 35, section 2: every read but `.main` shows the pending writes; a read of the server never undoes one.
@Suite(.onThreadsOfTheirOwn) struct PendingWritesReadingTests {
    let server: RESTServer

    init() async throws {
        server = try await RESTServer.start()
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aPendingPutIsInEveryReadButMain(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        let synced = try shelf.books.putAll([ada, grace]).get()
        _ = try shelf.books.getAll(AllObjectsQuery(), operation: .mainSync).get()  // the list of everything
        _ = try shelf.books.getAll(IdsQuery(["ada", "alan"]), operation: .mainSync).get()
        try server.goDown()
        let edited = Note(id: "ada", text: "edited offline")
        _ = try shelf.books.put(edited).get()
        _ = try shelf.books.put(alan).get()  // new

        for operation in [RepositoryOperation.cacheSync, .cache, .mainSync] {
            let one = try shelf.books.fetch(IdQuery("ada"), operation: operation).get()
            #expect(one.value == edited && one.isPending, "\(operation)")
            let all = try shelf.books.fetchAll(AllObjectsQuery(), operation: operation).get()
            #expect(all.value == [edited, synced[1], alan] && all.isPending, "\(operation)")
            let named = try shelf.books.fetchAll(IdsQuery(["ada", "alan"]), operation: operation).get()
            #expect(named.value == [edited, alan] && named.isPending, "\(operation)")
        }
        let untouched = try shelf.books.fetch(IdQuery("grace")).get()
        #expect(untouched.value == synced[1] && !untouched.isPending)
        // `.main` answers what the server says, as today: here, that it cannot be reached.
        #expect(throws: URLError.self) { try shelf.books.get(IdQuery("ada"), operation: .main).get() }
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aPendingDeleteIsInNoReadAndItsListsArePending(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        let synced = try shelf.books.putAll([ada, grace]).get()
        _ = try shelf.books.getAll(AllObjectsQuery(), operation: .mainSync).get()
        _ = try shelf.books.getAll(IdsQuery(["ada", "grace"]), operation: .mainSync).get()
        try server.goDown()
        try shelf.books.delete(IdQuery("ada")).get()

        for operation in [RepositoryOperation.cacheSync, .cache, .mainSync] {
            #expect(shelf.books.get(IdQuery("ada"), operation: operation).dataError?.code == .notFound, "\(operation)")
            let all = try shelf.books.fetchAll(AllObjectsQuery(), operation: operation).get()
            #expect(all.value == [synced[1]] && all.isPending, "\(operation)")
            let named = try shelf.books.fetchAll(IdsQuery(["ada", "grace"]), operation: operation).get()
            #expect(named.value == [synced[1]] && named.isPending, "\(operation)")
        }
        let cached = try shelf.books.fetchAll(AllObjectsQuery()).get()
        #expect(cached.origin.isCache)  // the list is whole: the pending delete's id is accounted for
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aRefreshNeverUndoesAPendingWriteWhateverItAnswers(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        _ = try shelf.books.putAll([ada, grace]).get()
        try server.goDown()
        let edited = Note(id: "ada", text: "edited offline")
        _ = try shelf.books.put(edited).get()
        _ = try shelf.books.put(alan).get()
        try shelf.books.delete(IdQuery("grace")).get()
        try server.comeBack()  // back, not synced yet: it answers the old values

        let refreshed = try shelf.books.fetchAll(AllObjectsQuery(), operation: .mainSync).get()
        #expect(refreshed.origin.isMain && refreshed.isPending)
        #expect(refreshed.value == [edited, alan])
        #expect(try shelf.books.get(IdQuery("ada"), operation: .mainSync).get() == edited)
        #expect(shelf.books.get(IdQuery("grace"), operation: .mainSync).dataError?.code == .notFound)
        _ = try shelf.books.getAll(IdsQuery(["ada", "grace", "alan"]), operation: .mainSync).get()
        // The cache kept every pending write, and the lists show them.
        #expect(try Set(shelf.cached()) == [edited, alan])
        #expect(try shelf.books.getAll(AllObjectsQuery(), operation: .cache).get() == [edited, alan])
        #expect(try shelf.books.getAll(IdsQuery(["ada", "grace", "alan"])).get() == [edited, alan])
        #expect(try shelf.pending() == ["put ada", "put alan", "delete grace"])
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aCacheSyncMissOfAPendingPutTheServerLacksAnswersThePut(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        try server.goDown()
        _ = try shelf.books.put(alan).get()
        try server.comeBack()
        let fetched = try shelf.books.fetch(IdQuery("alan"), operation: .mainSync).get()  // the server says 404
        #expect(fetched.value == alan && fetched.isPending)
        #expect(try shelf.cached() == [alan])
    }

    @Test(arguments: CacheStoreKind.allCases)
    func offlineWithoutAListThePendingPutsThatBelongToItAreAllThereIsToShow(kind: CacheStoreKind) throws {
        let shelf = try OfflineShelf(kind, server: server)
        try server.goDown()
        _ = try shelf.books.put(alan).get()
        let shown = try shelf.books.fetchAll(AllObjectsQuery()).get()
        #expect(shown.value == [alan] && shown.isPending && shown.storedAt == nil)
        guard case .cacheAfterFailure(let error) = shown.origin else {
            Issue.record("from \(shown.origin)")
            return
        }
        #expect(error is URLError)
        #expect(throws: URLError.self) { try shelf.books.getAll(IdsQuery(["ada"])).get() }
    }

    @Test func aFilterShowsThePendingPutsItMatches() throws {
        let shelf = try OfflineShelf(.inMemory, server: server)
        _ = try shelf.books.putAll([ada, grace]).get()
        try server.goDown()
        _ = try shelf.books.put(Note(id: "grace", text: "no longer a match")).get()
        _ = try shelf.books.put(Note(id: "alan", text: "Compilers too")).get()
        let compilers = FilterQuery<Note> { $0.text.hasPrefix("Compilers") }
        let matches = try shelf.books.fetchAll(compilers, operation: .cache).get()
        #expect(matches.value.map(\.id) == ["alan"] && matches.isPending)
    }

    @Test func withFailNothingIsPending() throws {
        let shelf = try OfflineShelf(.inMemory, server: server, pendingWrites: .fail)
        _ = try shelf.books.put(ada).get()
        let fetched = try shelf.books.fetchAll(AllObjectsQuery(), operation: .mainSync).get()
        #expect(!fetched.isPending)
        #expect(!(try shelf.books.fetch(IdQuery("ada")).get().isPending))
    }
}

extension Fetched.Origin {
    var isCache: Bool {
        if case .cache = self { return true }
        return false
    }

    var isMain: Bool {
        if case .main = self { return true }
        return false
    }
}
#endif
