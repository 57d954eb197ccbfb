// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import Testing
import TestThreads

/// A REST collection against the real fixture server.
@Suite(.onThreadsOfTheirOwn) struct RESTDataSourceTests {
    let server: RESTServer
    let client: HTTPClient

    init() async throws {
        server = try await RESTServer.start()
        client = HTTPClient(baseURL: server.baseURL)
    }

    func source(_ path: String = "notes") -> RESTDataSource<Note> {
        RESTDataSource(client: client, path: path)
    }

    @Test func roundTripOfPutGetGetAllAndDelete() throws {
        let notes = source()
        let stored = try notes.put(ada).get()
        #expect(stored == Note(id: "ada", text: ada.text, revision: 1))  // the server's answer, not what was sent
        #expect(try notes.putAll([grace, alan]).get().map(\.id) == ["grace", "alan"])
        #expect(try notes.get(IdQuery("ada")).get() == stored)
        #expect(try notes.getAll(AllObjectsQuery()).get().map(\.id) == ["ada", "grace", "alan"])
        try notes.delete(IdQuery("ada")).get()
        #expect(notes.get(IdQuery("ada")).dataError?.code == .notFound)
    }

    // Changed by "Offline-first with local edits": a failure no longer stops the batch; every PUT is sent, in
    // order, and the call fails with partiallyApplied.
    @Test func putAllSendsOneAfterAnotherAndEveryOneAfterAFailure() throws {
        let notes = source()
        let rejected = Note(id: "reject", text: "the server refuses this one")
        let error = try #require(notes.putAll([ada, rejected, grace]).error as? DataError)
        #expect(error.code == .partiallyApplied)
        #expect(error.failedIDs == ["reject"])
        #expect((error.underlying as? HTTPError)?.status == 422)
        #expect(try notes.getAll(AllObjectsQuery()).get().map(\.id) == ["ada", "grace"])
        let many = (0..<20).map { Note(id: "n\($0)", text: "t") }
        _ = try notes.putAll(many).get()
        #expect(try notes.getAll(AllObjectsQuery()).get().map(\.id) == ["ada", "grace"] + many.map(\.id))
    }

    @Test func aPutAnsweredWithAnEmptyBodyAnswersTheValueSent() throws {
        let quiet = source("quiet-notes")
        #expect(try quiet.put(ada).get() == ada)
        #expect(try quiet.get(IdQuery("ada")).get().revision == 1)
    }

    @Test func deleteAcceptsOKAsWellAsNoContent() throws {
        let quiet = source("quiet-notes")
        _ = try quiet.put(ada).get()
        try quiet.delete(IdQuery("ada")).get()
        #expect(try quiet.getAll(AllObjectsQuery()).get().isEmpty)
    }

    @Test func getAllOfIdsAnswersThoseFoundInQueryOrder() throws {
        let notes = source()
        _ = try notes.putAll([ada, grace, alan]).get()
        let found = try notes.getAll(IdsQuery(["alan", "nobody", "ada"])).get()
        #expect(found.map(\.id) == ["alan", "ada"])
        #expect(try notes.getAll(IdQuery("nobody")).get().isEmpty)
    }

    @Test func deleteAllDeletesTheCollectionOrTheIds() throws {
        let notes = source()
        _ = try notes.putAll([ada, grace, alan]).get()
        try notes.deleteAll(IdsQuery(["ada", "grace"])).get()
        #expect(try notes.getAll(AllObjectsQuery()).get().map(\.id) == ["alan"])
        try notes.deleteAll(AllObjectsQuery()).get()
        #expect(try notes.getAll(AllObjectsQuery()).get().isEmpty)
    }

    @Test func a404IsNotFoundForEveryMethod() throws {
        let gone = source("gone")
        let failures = [
            gone.get(IdQuery("ada")).dataError, gone.getAll(AllObjectsQuery()).dataError,
            gone.put(ada).dataError, gone.putAll([ada]).dataError,
            gone.delete(IdQuery("ada")).dataError, gone.deleteAll(AllObjectsQuery()).dataError,
        ]
        for failure in failures {
            let error = try #require(failure)
            #expect(error.code == .notFound)
            #expect((error.underlying as? HTTPError)?.status == 404)
        }
        #expect(source().delete(IdQuery("nobody")).dataError?.code == .notFound)
    }

    @Test func otherStatusesAreHTTPErrors() throws {
        let error = try #require(source("status").get(IdQuery("500")).error as? HTTPError)
        #expect(error.status == 500)
        #expect(error.bodyText == "server says 500")
    }

    @Test func queriesARESTCollectionCannotAnswerFailWithoutARequest() throws {
        server.stop()
        let notes = source()
        #expect(notes.get(FilterQuery<Note> { _ in true }).dataError?.code == .queryNotSupported)
        #expect(notes.getAll(FilterQuery<Note> { _ in true }).dataError?.code == .queryNotSupported)
        #expect(notes.get(IdQuery(1)).dataError?.code == .queryNotSupported)
        #expect(notes.getAll(TextSearchQuery(term: "x")).dataError?.code == .queryNotSupported)
        #expect(notes.delete(AllObjectsQuery()).dataError?.code == .queryNotSupported)
        #expect(notes.deleteAll(FilterQuery<Note> { _ in true }).dataError?.code == .queryNotSupported)
    }
}
#endif
