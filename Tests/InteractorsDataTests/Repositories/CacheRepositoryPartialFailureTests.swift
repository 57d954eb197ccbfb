// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import TestThreads
import Testing

/// A batch the server applies in part: every request of it is sent, the call fails with `partiallyApplied`
/// naming the ids that failed, and the cache follows what the server did. Against the python REST fixture, where
/// the id "fail" is answered 500 and "reject" 422.
@Suite(.onThreadsOfTheirOwn) struct CacheRepositoryPartialFailureTests {
    let server: RESTServer
    let remote: RESTDataSource<Note>
    let n1 = Note(id: "n1", text: "One")
    let n3 = Note(id: "n3", text: "Three")

    init() async throws {
        server = try await RESTServer.start()
        remote = RESTDataSource<Note>(client: HTTPClient(baseURL: server.baseURL), path: "notes")
        _ = try await remote.putAll([n1, n3]).value
    }

    @Test func deleteAllSendsEveryDeleteAndNamesTheIdsThatFailed() throws {
        let error = try #require(remote.deleteAll(IdsQuery(["n1", "fail", "gone", "n3"])).error as? DataError)
        #expect(error.code == .partiallyApplied)
        #expect(error.failedIDs == ["fail"])  // "gone" was answered 404: deleted either way
        #expect((error.underlying as? HTTPError)?.status == 500)
        #expect(error.message.contains("fail"))
        let deletes = try server.requestLines().filter { $0.hasPrefix("DELETE") }
        #expect(Set(deletes) == ["DELETE /notes/n1", "DELETE /notes/fail", "DELETE /notes/gone", "DELETE /notes/n3"])
        #expect(try remote.getAll(AllObjectsQuery()).get().isEmpty)
    }

    @Test func aBatchWhereNothingWasAppliedFailsWithItsFirstFailure() throws {
        let deletion = try #require(remote.deleteAll(IdsQuery(["fail"])).error as? HTTPError)
        #expect(deletion.status == 500)
        let rejected = Note(id: "reject", text: "refused")
        let failed = Note(id: "fail", text: "fails")
        let put = try #require(remote.putAll([rejected, failed]).error as? HTTPError)
        #expect(put.status == 422)  // the first, in the batch's order
        #expect(
            try server.requestLines().filter { $0.hasPrefix("PUT /notes/") }.suffix(2) == [
                "PUT /notes/reject", "PUT /notes/fail",
            ]
        )
        #expect(DataError(code: .notFound, message: "gone").failedIDs.isEmpty)
    }

    @Test(arguments: CacheStoreKind.allCases)
    func theCacheEvictsWhatTheServerDeletedAndKeepsWhatItDidNot(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let books = CacheRepository(main: remote, cache: cache.source)
        #expect(try books.getAll(AllObjectsQuery()).get().map(\.id) == ["n1", "n3"])
        _ = try books.put(Note(id: "fail", text: "only in the cache"), operation: .cache).get()

        let error = try #require(books.deleteAll(IdsQuery(["n1", "fail", "n3"])).error as? DataError)
        #expect(error.code == .partiallyApplied)
        #expect(error.failedIDs == ["fail"])
        #expect(try cache.source.getAll(AllObjectsQuery()).get().map(\.id) == ["fail"])
        #expect(try books.getAll(AllObjectsQuery()).get().isEmpty)  // the list lost n1 and n3, and stays whole
    }

    @Test(arguments: CacheStoreKind.allCases)
    func theCacheKeepsEveryValueTheServerStoredAsItAnsweredThem(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let books = CacheRepository(main: remote, cache: cache.source)
        _ = try books.getAll(AllObjectsQuery()).get()
        let p1 = Note(id: "p1", text: "Stored")
        let p2 = Note(id: "p2", text: "Stored too")

        let error = try #require(books.putAll([p1, Note(id: "reject", text: "refused"), p2]).error as? DataError)
        #expect(error.code == .partiallyApplied)
        #expect(error.failedIDs == ["reject"])
        #expect((error.underlying as? HTTPError)?.status == 422)
        let stored = try cache.source.getAll(IdsQuery(["p1", "reject", "p2"])).get()
        #expect(stored == [Note(id: "p1", text: p1.text, revision: 1), Note(id: "p2", text: p2.text, revision: 1)])
        #expect(try books.getAll(AllObjectsQuery()).get().map(\.id) == ["n1", "n3", "p1", "p2"])
        #expect(
            try server.requestLines().filter { $0.hasPrefix("PUT") }.suffix(3) == [
                "PUT /notes/p1", "PUT /notes/reject", "PUT /notes/p2",
            ]
        )
    }
}
#endif
