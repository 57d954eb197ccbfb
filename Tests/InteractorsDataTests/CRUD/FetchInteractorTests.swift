import DataTestSupport
import Dispatch
import Foundation
import Interactors
import InteractorsData
import InteractorsTestKit
import TestThreads
import Testing

/// Where an answer came from and how old it is reach the screen through the executor too: `FetchInteractor` and
/// `FetchAllInteractor`, registered like the other six, answer `Fetched` values.
@Suite(.onThreadsOfTheirOwn) struct FetchInteractorTests {
    let main = RecordingSource("main")
    let cache = InMemoryDataSource<Note>()
    let books: CacheRepository<Note>
    let executor = InteractorExecutor()

    init() {
        books = CacheRepository(main: main, cache: cache)
        let queue = DispatchQueue(label: "books")
        executor.register(FetchInteractor(repository: books, queue: queue))
        executor.register(FetchAllInteractor(repository: books, queue: queue))
        executor.register(PutInteractor(repository: books, queue: queue))
    }

    @Test func aReadThroughTheExecutorSaysWhereItCameFromAndHowOldItIs() throws {
        try main.seed(ada, grace)
        let before = Date()
        let first = try executor.execute(FetchAllRequest<Note>(AllObjectsQuery())).get()
        #expect(first.value == [ada, grace])
        #expect({ if case .main = first.origin { true } else { false } }())
        let again = try executor.execute(FetchAllRequest<Note>(AllObjectsQuery())).get()
        #expect({ if case .cache = again.origin { true } else { false } }())
        #expect(try #require(again.storedAt) >= before)

        main.isOffline = true
        let offline = try executor.execute(FetchRequest<Note>(IdQuery("ada"), operation: .mainSync)).get()
        #expect(offline.value == ada)
        #expect({ if case .cacheAfterFailure(let error) = offline.origin { error is URLError } else { false } }())
        #expect(offline.storedAt == again.storedAt)
    }

    @Test func theRequestsDefaultToCacheSyncAndCarryTheirOperation() throws {
        #expect(FetchRequest<Note>(IdQuery("a")).operation == .cacheSync)
        #expect(FetchAllRequest<Note>(AllObjectsQuery()).operation == .cacheSync)
        let request = FetchAllRequest<Note>(IdsQuery(["a"]), operation: .main)
        #expect(request.operation == .main && (request.query as? IdsQuery<String>)?.ids == ["a"])
        try main.seed(ada)
        _ = try cache.put(Note(id: "ada", text: "stale")).get()
        let fetched = try executor.execute(FetchRequest<Note>(IdQuery("ada"), operation: .main)).get()
        #expect(fetched.value == ada && fetched.storedAt == nil)
    }

    @Test func theInteractorsCanBeCalledDirectlyAndErased() throws {
        try main.seed(ada)
        let queue = DispatchQueue(label: "direct")
        let fetch = FetchInteractor(repository: books, queue: queue)
        let fetchAll = FetchAllInteractor(repository: books, queue: queue)
        #expect(try fetch.execute(id: "ada").get().value == ada)
        #expect(try fetchAll.execute().get().value == [ada])
        let erased: any Interactor<FetchRequest<Note>, Fetched<Note>> = fetch
        #expect(try erased.execute(FetchRequest(IdQuery("ada"))).get().value == ada)
    }

    @Test func aSpyStandsInForAFetchInteractor() throws {
        let spy = InteractorSpy<FetchAllRequest<Note>, Fetched<[Note]>>()
        spy.alwaysAnswer(with: Fetched(value: [grace], origin: .cache, storedAt: nil))
        executor.register(spy)
        #expect(try executor.execute(FetchAllRequest<Note>(AllObjectsQuery())).get().value == [grace])
    }
}
