import Foundation
import Interactors
import InteractorsData
import InteractorsPresentation
import InteractorsSQLite
import InteractorsTestKit
import Testing

// The shapes issue 36 fixed before the 0.9.0 API was frozen, written as users' code is written against them: if
// one of these stops compiling, the release contract broke (the API check in `.ci/api-check` says which symbol).

// MARK: Repository is a protocol

/// A repository of the user's own, generic over any `Repository`: compiles only if `Repository` is a protocol.
private struct Logged<Base: Repository>: Repository {
    typealias Value = Base.Value

    let base: Base
    let log: LockedBox<[String]>

    func get(_ query: any Query, operation: RepositoryOperation) -> Response<Value> {
        log.withLock { $0.append("get") }
        return base.get(query, operation: operation)
    }

    func getAll(_ query: any Query, operation: RepositoryOperation) -> Response<[Value]> {
        log.withLock { $0.append("getAll") }
        return base.getAll(query, operation: operation)
    }

    func put(_ value: Value, operation: RepositoryOperation) -> Response<Value> {
        log.withLock { $0.append("put") }
        return base.put(value, operation: operation)
    }

    func putAll(_ values: [Value], operation: RepositoryOperation) -> Response<[Value]> {
        base.putAll(values, operation: operation)
    }

    func delete(_ query: any Query, operation: RepositoryOperation) -> Response<Void> {
        base.delete(query, operation: operation)
    }

    func deleteAll(_ query: any Query, operation: RepositoryOperation) -> Response<Void> {
        base.deleteAll(query, operation: operation)
    }
}

private struct Card: Codable, Identifiable, Sendable, Equatable {
    var id: String
    var title: String
}

@Suite struct ReleaseContractTests {
    @Test func aRepositoryOfYourOwnWrapsAnyRepositoryAndTheLibrarysAdoptIt() throws {
        let log = LockedBox<[String]>([])
        let cards = Logged(base: SingleSourceRepository(InMemoryDataSource<Card>()), log: log)
        let cached = Logged(
            base: CacheRepository(main: InMemoryDataSource<Card>(), cache: InMemoryDataSource<Card>()),
            log: log
        )
        let mapped: some Repository<Card> = MappedRepository(cards, toEntity: { $0 }, toDTO: { $0 })
        _ = try cards.put(Card(id: "c1", title: "Read"), operation: .mainSync).get()
        _ = try cached.put(Card(id: "c2", title: "Write"), operation: .mainSync).get()
        #expect(try mapped.get(IdQuery("c1"), operation: .main).get().title == "Read")
        #expect(log.withLock { $0 } == ["put", "put", "get"])
        // A parameter that takes a repository still takes one of your own wrappers.
        let interactor = GetInteractor(repository: cached, queue: DispatchQueue(label: "contract"))
        #expect(try interactor.execute(IdQuery("c2")).get().title == "Write")
    }

    // MARK: Enums that will grow are structs

    @Test func policiesThatMayGrowAreStructsWithStaticMembers() {
        let method = HTTPMethod(rawValue: "QUERY")
        #expect(method.rawValue == "QUERY")
        #expect(
            [HTTPMethod.get, .head, .post, .put, .patch, .delete, .options].map(\.rawValue)
                == ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
        )
        #expect(DataError.Code.conflict != .notFound)
        #expect(CorruptDatabase.moveAside != .fail)
        #expect(UndecodableRows.skip != .fail)
        #expect(FileDataSource<Card>.CorruptFile.moveAside != .fail)
        #expect("\(CorruptDatabase.moveAside)" == "moveAside")
    }

    @Test func enumsDocumentedCompleteMayBeSwitchedOverWithoutDefault() {
        func name(_ operation: RepositoryOperation) -> String {
            switch operation {
            case .main: "main"
            case .cache: "cache"
            case .mainSync: "mainSync"
            case .cacheSync: "cacheSync"
            }
        }
        func name(_ origin: Fetched<Card>.Origin) -> String {
            switch origin {
            case .main: "main"
            case .cache: "cache"
            case .cacheAfterFailure: "cacheAfterFailure"
            case .cacheWhileRefreshing: "cacheWhileRefreshing"
            }
        }
        func name(_ removal: CacheChange<Card>.Removal) -> String {
            switch removal {
            case .nothing: "nothing"
            case .ids: "ids"
            case .allOthers: "allOthers"
            case .all: "all"
            }
        }
        func name(_ event: LifecycleEvent) -> String {
            switch event {
            case .didFinishLaunching: "didFinishLaunching"
            case .willEnterForeground: "willEnterForeground"
            case .didBecomeActive: "didBecomeActive"
            case .willResignActive: "willResignActive"
            case .didEnterBackground: "didEnterBackground"
            case .didReceiveMemoryWarning: "didReceiveMemoryWarning"
            case .willTerminate: "willTerminate"
            }
        }
        #expect(RepositoryOperation.allCases.map(name) == ["main", "cache", "mainSync", "cacheSync"])
        #expect(name(Fetched<Card>.Origin.cacheWhileRefreshing) == "cacheWhileRefreshing")
        #expect(name(CacheChange<Card>.Removal.allOthers) == "allOthers")
        #expect(name(LifecycleEvent.willTerminate) == "willTerminate")
    }

    // MARK: One observation shape

    @Test func observationsEndWithCancelAndWhenReleased() throws {
        let cards = try SQLiteDataSource<Card>(database: SQLiteDatabase.inMemory(), table: "cards")
        let observation: DataObservation = cards.observe(AllObjectsQuery(), on: .immediate) { _ in }
        #expect(!observation.isCancelled)
        observation.cancel()
        #expect(observation.isCancelled)
        let store = Store(0, queue: .immediate)
        let storeObservation: StoreObservation = store.observe { _ in }
        #expect(!storeObservation.isCancelled)
        storeObservation.cancel()
        #expect(storeObservation.isCancelled)
    }

    // MARK: Service failures are errors

    @Test func aServiceFailureCanBeThrownAndNamesTheEvent() throws {
        final class Failing: Service {
            struct Refused: Error {}
            func didBecomeActive() throws { throw Refused() }
        }
        let registry = ServiceRegistry()
        registry.register(Failing())
        let failures = registry.send(.didFinishLaunching([:])) + registry.send(.didBecomeActive)
        let failure = try #require(failures.first)
        #expect(throws: ServiceFailure.self) { throw failure }
        #expect("\(failure)".contains("didBecomeActive"))
    }

    // MARK: Diagnostics go where the app says

    @Test func diagnosticsHaveAProductAMessageAndAHandler() {
        let diagnostic = Diagnostic(product: "InteractorsData", message: "a corrupt store moved aside")
        #expect(diagnostic.product == "InteractorsData")
        #expect(diagnostic.message == "a corrupt store moved aside")
        #expect("\(diagnostic)".contains("a corrupt store moved aside"))
        let setHandler: (@escaping @Sendable (Diagnostic) -> Void) -> Void = Diagnostics.setHandler
        let standardError: @Sendable (Diagnostic) -> Void = Diagnostics.standardError
        _ = (setHandler, standardError)
    }

    // MARK: Errors say what happened

    @Test func dataProductsErrorsAreLocalizedAndTheCoresDescribeThemselves() {
        let data: any LocalizedError = DataError(code: .conflict, message: "card c1 exists")
        #expect(data.errorDescription?.contains("card c1 exists") == true)
        let http: any LocalizedError = HTTPError(status: 503, body: Data(), headers: HTTPHeaders([:]))
        #expect(http.errorDescription?.isEmpty == false)
        let core: any CustomStringConvertible & Error = ResponseError.timedOut
        #expect(!core.description.isEmpty)
    }
}
