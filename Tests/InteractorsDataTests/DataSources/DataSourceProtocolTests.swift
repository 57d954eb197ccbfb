import DataTestSupport
import Interactors
import InteractorsData
import TestThreads
import Testing

/// `DataSource` is one protocol: it constrains a generic parameter and is adopted directly, while every
/// parameter that takes a data source still accepts a type that adopts the three protocols one by one.
@Suite(.onThreadsOfTheirOwn) struct DataSourceProtocolTests {
    /// A source over any other, retrying nothing but counting failures: generic over `DataSource`.
    struct Resilient<S: DataSource>: DataSource {
        let base: S
        let failures = LockedBox(0)

        func get(_ query: any Query) -> Response<S.Value> { counted(base.get(query)) }
        func getAll(_ query: any Query) -> Response<[S.Value]> { counted(base.getAll(query)) }
        func put(_ value: S.Value) -> Response<S.Value> { counted(base.put(value)) }
        func putAll(_ values: [S.Value]) -> Response<[S.Value]> { counted(base.putAll(values)) }
        func delete(_ query: any Query) -> Response<Void> { counted(base.delete(query)) }
        func deleteAll(_ query: any Query) -> Response<Void> { counted(base.deleteAll(query)) }

        private func counted<T>(_ response: Response<T>) -> Response<T> {
            response.onFailure(on: ImmediateCallbackQueue.shared) { [failures] _ in failures.withLock { $0 += 1 } }
        }
    }

    /// A test double adopting `DataSource` itself.
    final class Fake: DataSource {
        typealias Value = Note
        let notes = InMemoryDataSource<Note>()

        func get(_ query: any Query) -> Response<Note> { notes.get(query) }
        func getAll(_ query: any Query) -> Response<[Note]> { notes.getAll(query) }
        func put(_ value: Note) -> Response<Note> { notes.put(value) }
        func putAll(_ values: [Note]) -> Response<[Note]> { notes.putAll(values) }
        func delete(_ query: any Query) -> Response<Void> { notes.delete(query) }
        func deleteAll(_ query: any Query) -> Response<Void> { notes.deleteAll(query) }
    }

    func count<S: DataSource>(_ source: S) throws -> Int { try source.getAll(AllObjectsQuery()).get().count }

    @Test func aGenericSourceOverAnyDataSourceWorks() throws {
        let resilient = Resilient(base: Fake())
        _ = try resilient.put(ada).get()
        #expect(resilient.get(IdQuery("nobody")).dataError?.code == .notFound)
        #expect(resilient.failures.withLock { $0 } == 1)
        #expect(try count(resilient) == 1)
        let repository = CacheRepository(main: resilient, cache: Resilient(base: InMemoryDataSource<Note>()))
        #expect(try repository.get(IdQuery("ada")).get() == ada)
    }

    @Test func everyLandedStoreIsADataSource() throws {
        func isDataSource<S: DataSource>(_: S.Type) -> Bool { true }
        #expect(isDataSource(InMemoryDataSource<Note>.self))
        #expect(isDataSource(FileDataSource<Note>.self))
        #expect(isDataSource(RESTDataSource<Note>.self))
        #expect(isDataSource(UserDefaultsDataSource<Note>.self))
        let source: any DataSource<Note> = Fake()
        #expect(try source.getAll(AllObjectsQuery()).get().isEmpty)
    }

    @Test func aTypeAdoptingTheThreeProtocolsOneByOneIsStillAccepted() throws {
        let recording = RecordingSource("three by three")  // adopts Get, Put and DeleteDataSource one by one
        let cached = CacheRepository(main: recording, cache: RecordingSource("cache"))
        _ = try cached.put(ada).get()
        let single = SingleSourceRepository(RecordingSource("single"))
        _ = try single.put(grace).get()
        #expect(try single.getAll(AllObjectsQuery()).get() == [grace])
        #expect(recording.calls == ["put"])
    }
}
