// Foundation's Process, which the fixture server needs, exists on macOS and Linux only.
#if os(macOS) || os(Linux)
import DataTestSupport
import Dispatch
import Foundation
import Interactors
import InteractorsData
import TestThreads
import Testing

/// What a server needs of a `CacheRepository` (issue 34): one main-source read for many identical misses, each
/// caller keeping its own cancellation, and an answer from the cache by a deadline while the read goes on.
@Suite(.onThreadsOfTheirOwn) struct CacheRepositoryServingManyTests {
    let server: RESTServer
    let remote: RESTDataSource<Note>

    init() async throws {
        server = try await RESTServer.start()
        remote = RESTDataSource<Note>(client: HTTPClient(baseURL: server.baseURL), path: "books")
        _ = try await remote.putAll([ada, grace]).value
    }

    func gets(of path: String) throws -> Int {
        try server.requestLines().filter { $0 == "GET \(path)" }.count
    }

    // MARK: One read for many identical misses

    @Test func thirtyTwoConcurrentReadsOfOneListSendOneRequest() throws {
        let books = CacheRepository(main: remote, cache: InMemoryDataSource<Note>())
        try server.hold("books")
        let reads = (0..<32).map { _ in books.getAll(AllObjectsQuery(), operation: .mainSync) }
        #expect(server.waitFor("held books"))
        try server.release("books")
        for read in reads { #expect(try read.get(timeout: .seconds(30)).map(\.id) == ["ada", "grace"]) }
        #expect(try gets(of: "/books") == 1)
        // Once answered, the next read is a read of its own.
        _ = try books.getAll(AllObjectsQuery(), operation: .mainSync).get()
        #expect(try gets(of: "/books") == 2)
    }

    @Test func thirtyTwoConcurrentReadsOfDistinctIdsSendThirtyTwo() throws {
        let notes = (0..<32).map { Note(id: "n\($0)", text: "\($0)") }
        _ = try remote.putAll(notes).get()
        let books = CacheRepository(main: remote, cache: InMemoryDataSource<Note>())
        let reads = notes.map { books.get(IdQuery($0.id), operation: .mainSync) }
        for (read, note) in zip(reads, notes) { #expect(try read.get(timeout: .seconds(30)).id == note.id) }
        #expect(try server.requestLines().filter { $0.hasPrefix("GET /books/n") }.count == 32)
    }

    @Test func identicalReadsOfAnIdShareOneReadOfTheMainSource() throws {
        let main = ControlledSource()
        let books = CacheRepository(main: main, cache: InMemoryDataSource<Note>())
        let reads = (0..<32).map { _ in books.get(IdQuery("ada")) }  // .cacheSync misses
        #expect(main.started.count == 1)
        main.started[0].answer(ada)
        for read in reads { #expect(try read.get(timeout: .seconds(30)) == ada) }
        // Another id, another read.
        _ = books.get(IdQuery("grace"))
        #expect(main.started.count == 2)
    }

    @Test func cancellingOneCallerLeavesTheReadToTheOthersAndCancellingAllCancelsIt() throws {
        let main = ControlledSource()
        let books = CacheRepository(main: main, cache: InMemoryDataSource<Note>())
        let first = books.getAll(AllObjectsQuery(), operation: .mainSync)
        let second = books.getAll(AllObjectsQuery(), operation: .mainSync)
        #expect(main.started.count == 1)
        first.cancel()
        #expect(first.isCancelled)
        #expect(!main.started[0].isCancelled())
        let third = books.getAll(AllObjectsQuery(), operation: .mainSync)  // joins the read still wanted
        #expect(main.started.count == 1)
        second.cancel()
        third.cancel()
        #expect(main.started[0].isCancelled())
        // With nobody left, a new call starts a new read.
        let fourth = books.getAll(AllObjectsQuery(), operation: .mainSync)
        #expect(main.started.count == 2)
        main.started[1].answerAll([ada])
        #expect(try fourth.get(timeout: .seconds(30)) == [ada])
    }

    // MARK: An answer by a deadline

    @Test func aSlowServerIsAnsweredFromTheCacheByTheDeadlineAndTheCacheThenHoldsItsAnswer() throws {
        let cache = InMemoryDataSource<Note>()
        let books = CacheRepository(main: remote, cache: cache, answerFromCacheAfter: .milliseconds(300))
        let before = Date()
        _ = try books.fetchAll(AllObjectsQuery(), operation: .mainSync).get()  // the list, kept
        let kept = Date()
        _ = try remote.put(alan).get()  // changed on the server meanwhile
        try server.hold("books")
        let clock = ContinuousClock()
        let started = clock.now
        let answer = try books.fetchAll(AllObjectsQuery(), operation: .mainSync).get(timeout: .seconds(20))
        let waited = clock.now - started
        #expect(answer.value.map(\.id) == ["ada", "grace"])
        #expect({ if case .cacheWhileRefreshing = answer.origin { true } else { false } }())
        let storedAt = try #require(answer.storedAt)  // when the list was stored, as stored
        #expect(storedAt >= before.addingTimeInterval(-0.001) && storedAt <= kept)
        #expect(waited < .seconds(5), "answered after \(waited)")  // a guard: the deadline is 300 ms
        #expect(server.waitFor("held books"))
        try server.release("books")
        // The read went on: its answer reaches the cache.
        #expect(
            waitUntil(guardSeconds: 20) { (try? books.getAll(AllObjectsQuery(), operation: .cache).get())?.count == 3 }
        )
        let list = try books.fetchAll(AllObjectsQuery()).get()
        #expect(list.value.map(\.id) == ["ada", "grace", "alan"])
        #expect({ if case .cache = list.origin { true } else { false } }())
    }

    @Test func withoutACachedValueTheCallWaitsForTheServer() throws {
        let books = CacheRepository(
            main: remote,
            cache: InMemoryDataSource<Note>(),
            answerFromCacheAfter: .milliseconds(50)
        )
        try server.hold("books")
        let answer = books.fetchAll(AllObjectsQuery(), operation: .mainSync)
        #expect(server.waitFor("held books"))
        Thread.sleep(forTimeInterval: 0.2)  // past the deadline: nothing in the cache, so nothing answered
        #expect(!answer.isDone)
        try server.release("books")
        let fetched = try answer.get(timeout: .seconds(20))
        #expect({ if case .main = fetched.origin { true } else { false } }())
    }

    @Test func aStaleValueAnswersByTheDeadlineWithWhenItWasStored() throws {
        let main = ControlledSource()
        let cache = InMemoryDataSource<Note>()
        let books = CacheRepository(
            main: main,
            cache: cache,
            maxAge: .seconds(3_600),
            answerFromCacheAfter: .milliseconds(20)
        )
        let stored = Date(timeIntervalSinceNow: -7_200)
        _ = try cache.applyCacheChange(CacheChange(date: stored, values: [ada])).get()  // two hours old: stale
        let answer = try books.fetch(IdQuery("ada")).get(timeout: .seconds(20))
        #expect(answer.value == ada)
        #expect({ if case .cacheWhileRefreshing = answer.origin { true } else { false } }())
        #expect(answer.storedAt == stored)
        #expect(main.started.count == 1)  // and the read goes on
        let newer = Note(id: "ada", text: "newer")
        main.started[0].answer(newer)
        #expect(try cache.get(IdQuery("ada")).get() == newer)
    }
}

/// A main source whose reads the test answers, one by one, and counts.
private final class ControlledSource: DataSource {
    typealias Value = Note

    /// A read the repository started: the response it waits on, and how to answer it.
    struct Started {
        let isCancelled: @Sendable () -> Bool
        let answer: @Sendable (Note) -> Void
        let answerAll: @Sendable ([Note]) -> Void
    }

    private let reads = LockedBox<[Started]>([])

    var started: [Started] { reads.withLock { $0 } }

    func get(_ query: any Query) -> Response<Note> {
        let (response, resolver) = Response<Note>.makePending()
        record(resolver, { resolver.succeed($0) }, { resolver.succeed($0[0]) })
        return response
    }

    func getAll(_ query: any Query) -> Response<[Note]> {
        let (response, resolver) = Response<[Note]>.makePending()
        record(resolver, { resolver.succeed([$0]) }, { resolver.succeed($0) })
        return response
    }

    func put(_ value: Note) -> Response<Note> { Response(value: value) }
    func putAll(_ values: [Note]) -> Response<[Note]> { Response(value: values) }
    func delete(_ query: any Query) -> Response<Void> { Response(value: ()) }
    func deleteAll(_ query: any Query) -> Response<Void> { Response(value: ()) }

    private func record<T>(
        _ resolver: Resolver<T>,
        _ answer: @escaping @Sendable (Note) -> Void,
        _ answerAll: @escaping @Sendable ([Note]) -> Void
    ) {
        let started = Started(isCancelled: { resolver.isCancelled }, answer: answer, answerAll: answerAll)
        reads.withLock { $0.append(started) }
    }
}
#endif
