import Interactors
import InteractorsData
import Testing

/// The shape issue 9's `Interactor` protocol gives use cases: one request in, a response out. The CRUD
/// interactors must conform to it with an empty extension once it lands; this stand-in checks they already can.
protocol OneRequestInteractor<Request, Output> {
    associatedtype Request
    associatedtype Output: Sendable
    func execute(_ request: Request) -> Response<Output>
}

extension GetInteractor: OneRequestInteractor {}
extension GetAllInteractor: OneRequestInteractor {}
extension PutInteractor: OneRequestInteractor {}
extension PutAllInteractor: OneRequestInteractor {}
extension DeleteInteractor: OneRequestInteractor {}
extension DeleteAllInteractor: OneRequestInteractor {}

@Suite struct InteractorShapeTests {
    @Test func theOneRequestFormUsesTheDefaultOperation() throws {
        let main = RecordingSource("main")
        let cache = RecordingSource("cache")
        let repository = CacheRepository(main: main, cache: cache)
        let put: any OneRequestInteractor<Note, Note> = PutInteractor(
            repository: repository,
            queue: ImmediateCallbackQueue.shared
        )
        let get: any OneRequestInteractor<any Query, Note> = GetInteractor(
            repository: repository,
            queue: ImmediateCallbackQueue.shared
        )
        #expect(try put.execute(ada).get() == ada)
        #expect(try get.execute(IdQuery("ada")).get() == ada)
        #expect(main.calls == ["put"])  // put: mainSync; get: cacheSync, answered by the cache
        #expect(cache.calls == ["put", "get"])
    }
}
