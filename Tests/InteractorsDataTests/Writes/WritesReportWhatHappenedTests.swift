// Foundation's Process, which the fixture server needs, exists on macOS and Linux only.
#if os(macOS) || os(Linux)
import DataTestSupport
import Dispatch
import Foundation
import Interactors
import InteractorsData
import TestThreads
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A write reports what happened (issue 34): once handed to its store or sent to its server, cancelling its
/// response is ignored and it answers its outcome; one that has not begun is withdrawn, and nothing is written. For
/// the REST and file sources, a repository over them, and the CRUD interactors through an executor.
@Suite(.onThreadsOfTheirOwn) struct WritesReportWhatHappenedTests {
    let server: RESTServer
    let client: HTTPClient

    init() async throws {
        server = try await RESTServer.start()
        client = HTTPClient(baseURL: server.baseURL)
    }

    // MARK: REST

    @Test func aPutCancelledAfterItWasSentAnswersWhatTheServerStoredThroughTheExecutor() throws {
        let cache = InMemoryDataSource<Note>()
        let books = CacheRepository(main: RESTDataSource<Note>(client: client, path: "slowly-books"), cache: cache)
        let executor = InteractorExecutor()
        executor.register(PutInteractor(repository: books, queue: DispatchQueue(label: "puts")))
        let put = executor.execute(PutRequest(ada))
        #expect(server.waitFor("slowly PUT started"))  // the server has stored it, and answers in a second
        put.cancel()
        #expect(!put.isCancelled)
        let stored = try put.get(timeout: .seconds(30))
        #expect(stored == Note(id: "ada", text: ada.text, revision: 1))
        #expect(try cache.get(IdQuery("ada")).get() == stored)  // the repository kept what the server answered
    }

    @Test func aDeleteCancelledAfterItWasSentSucceedsAndAnAwaitingTaskGetsThatToo() async throws {
        let books = RESTDataSource<Note>(client: client, path: "slowly-books")
        _ = try await books.put(ada).value
        let server = server
        let task = Task { try await books.delete(IdQuery("ada")).value }
        try await onAThreadOfItsOwn { #expect(server.waitFor("slowly DELETE started")) }
        task.cancel()
        try await task.value  // the delete's outcome, not a CancellationError
        #expect(books.get(IdQuery("ada")).dataError?.code == .notFound)
    }

    @Test func aDeleteAllOfIdsCancelledAfterTheFirstDeleteWasSentDeletesEveryOne() throws {
        let books = RESTDataSource<Note>(client: client, path: "slowly-books")
        _ = try books.putAll([ada, grace, alan]).get()
        let deletion = books.deleteAll(IdsQuery(["ada", "grace", "alan"]))
        #expect(server.waitFor("slowly DELETE started"))
        deletion.cancel()
        #expect(!deletion.isCancelled)
        try deletion.get(timeout: .seconds(30))
        #expect(try books.getAll(AllObjectsQuery()).get() == [])
    }

    @Test func aPutCancelledBeforeItWasSentIsNeverSent() throws {
        let holding = HoldingInterceptor()
        let books = RESTDataSource<Note>(
            client: HTTPClient(baseURL: server.baseURL, interceptors: [holding]),
            path: "books"
        )
        let put = books.put(ada)
        #expect(holding.adapting.wait(timeout: .now() + 30) == .success)
        put.cancel()
        #expect(put.isCancelled)
        holding.release()
        #expect(try server.requestLines() == [])
    }

    // MARK: Files

    @Test func aFilePutCancelledOnceItsBatchBeganAnswersItsOutcome() throws {
        let directory = try TemporaryDirectory()
        let notes = FileDataSource<SlowNote>(fileURL: directory.file("notes.json"))
        let note = SlowNote(id: "slow")
        let put = notes.put(note)
        #expect(SlowNote.encoding.wait(timeout: .now() + 30) == .success)  // applied in its batch, being encoded
        put.cancel()
        #expect(!put.isCancelled)
        SlowNote.release.signal()
        #expect(try put.get(timeout: .seconds(30)) == note)
        #expect(
            try FileDataSource<SlowNote>(fileURL: directory.file("notes.json")).getAll(AllObjectsQuery()).get() == [
                note
            ]
        )
    }

    @Test func aFilePutCancelledWhileQueuedIsWithdrawnAndWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let notes = FileDataSource<Note>(fileURL: directory.file("notes.json"))
        _ = try notes.put(grace).get()
        let put = try DirectoryLock.holding(directory.url) {
            let put = notes.put(ada)  // its batch waits for the directory's lock
            put.cancel()
            return put
        }
        #expect(put.isCancelled)
        #expect(try notes.getAll(AllObjectsQuery()).get() == [grace])
    }
}

/// An interceptor whose `adapt` waits for ``release()``: a request that has not been sent yet.
private final class HoldingInterceptor: HTTPInterceptor {
    let adapting = DispatchSemaphore(value: 0)
    private let held = LockedBox<(Resolver<URLRequest>, URLRequest)?>(nil)

    func adapt(_ request: URLRequest) -> Response<URLRequest> {
        let (response, resolver) = Response<URLRequest>.makePending()
        held.withLock { $0 = (resolver, request) }
        adapting.signal()
        return response
    }

    func retry(_ request: URLRequest, after error: any Error, attempt: Int) -> Response<Bool> {
        Response(value: false)
    }

    func release() {
        if let (resolver, request) = held.withLock({ $0 }) { resolver.succeed(request) }
    }
}

/// A note whose encoding waits, once, for the test: a file store's write held inside its batch.
private struct SlowNote: Codable, Identifiable, Sendable, Hashable {
    static let encoding = DispatchSemaphore(value: 0)
    static let release = DispatchSemaphore(value: 0)
    private static let first = LockedBox(true)

    var id: String

    func encode(to encoder: any Encoder) throws {
        let isFirst = Self.first.withLock { first in
            defer { first = false }
            return first
        }
        if isFirst {
            Self.encoding.signal()
            _ = Self.release.wait(timeout: .now() + 30)
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
    }
}
#endif
