import DataTestSupport
import Interactors
import InteractorsData
import Testing

/// A single-source repository sends every call to its source, whatever the operation.
@Suite struct SingleSourceRepositoryTests {
    @Test(arguments: RepositoryOperation.allCases)
    func everyCallGoesToTheSource(operation: RepositoryOperation) throws {
        let source = RecordingSource("only")
        let repository = SingleSourceRepository(source)
        _ = try repository.put(ada, operation: operation).get()
        _ = try repository.putAll([grace], operation: operation).get()
        #expect(try repository.get(IdQuery("ada"), operation: operation).get() == ada)
        #expect(try repository.getAll(AllObjectsQuery(), operation: operation).get() == [ada, grace])
        try repository.delete(IdQuery("ada"), operation: operation).get()
        try repository.deleteAll(AllObjectsQuery(), operation: operation).get()
        #expect(source.calls == ["put", "putAll", "get", "getAll", "delete", "deleteAll"])
        #expect(source.contents.isEmpty)
    }

    @Test func failuresComeThroughUnchanged() throws {
        let repository = SingleSourceRepository(InMemoryDataSource<Note>())
        #expect(repository.get(IdQuery("nobody")).dataError?.code == .notFound)
        #expect(repository.get(IdQuery(7)).dataError?.code == .queryNotSupported)
    }
}
