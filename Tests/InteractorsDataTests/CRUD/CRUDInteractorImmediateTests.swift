import DataTestSupport
import Interactors
import InteractorsData
import TestThreads
import Testing

/// The CRUD interactors on `.immediate` (a server's request path): the repository is called at once, on the
/// caller's thread, and the interactor's response follows the repository's, as one consumer of it among others.
@Suite(.onThreadsOfTheirOwn) struct CRUDInteractorImmediateTests {
    @Test func theRepositoryIsCalledAtOnceAndItsAnswerComesThrough() throws {
        let repository = SharedAnswerRepository()
        let response = GetInteractor(repository: repository, queue: .immediate).execute(id: "ada")
        #expect(repository.gets == 1, "called before execute returned")
        #expect(!response.isDone)
        repository.resolver.succeed(ada)
        #expect(try response.get() == ada)
    }

    @Test func aFailureComesThroughUnchanged() throws {
        let repository = SharedAnswerRepository()
        let response = GetInteractor(repository: repository, queue: .immediate).execute(id: "ada")
        repository.resolver.fail(DataError(code: .notFound, message: "no ada"))
        #expect(throws: DataError.self) { try response.get() }
    }

    @Test func cancellingTheOnlyCallCancelsTheRepositorysWork() {
        let repository = SharedAnswerRepository()
        let response = GetInteractor(repository: repository, queue: .immediate).execute(id: "ada")
        response.cancel()
        #expect(response.isCancelled)
        #expect(repository.resolver.isCancelled)
    }

    @Test func cancellingOneCallKeepsTheWorkAnotherCallWaitsFor() throws {
        // A repository may hand several callers one response (a read already under way): cancelling one caller's
        // response withdraws only its demand.
        let repository = SharedAnswerRepository()
        let interactor = GetInteractor(repository: repository, queue: .immediate)
        let cancelled = interactor.execute(id: "ada")
        let kept = interactor.execute(id: "ada")
        cancelled.cancel()
        #expect(cancelled.isCancelled)
        #expect(!repository.resolver.isCancelled)
        repository.resolver.succeed(ada)
        #expect(try kept.get() == ada)
    }
}

/// A repository whose every `get` answers with one shared pending response, settled by the test.
private final class SharedAnswerRepository: GetRepository, PutRepository, DeleteRepository {
    typealias Value = Note

    let answer: Response<Note>
    let resolver: Resolver<Note>
    private let count = LockedBox(0)

    init() {
        (answer, resolver) = Response<Note>.makePending()
    }

    /// How many `get`s were made.
    var gets: Int { count.withLock { $0 } }

    func get(_ query: any Query, operation: RepositoryOperation) -> Response<Note> {
        count.withLock { $0 += 1 }
        return answer
    }

    func getAll(_ query: any Query, operation: RepositoryOperation) -> Response<[Note]> { unused() }
    func put(_ value: Note, operation: RepositoryOperation) -> Response<Note> { unused() }
    func putAll(_ values: [Note], operation: RepositoryOperation) -> Response<[Note]> { unused() }
    func delete(_ query: any Query, operation: RepositoryOperation) -> Response<Void> { unused() }
    func deleteAll(_ query: any Query, operation: RepositoryOperation) -> Response<Void> { unused() }

    private func unused<T>() -> Response<T> {
        Response(error: DataError(code: .invalidQuery, message: "not used by these tests"))
    }
}
