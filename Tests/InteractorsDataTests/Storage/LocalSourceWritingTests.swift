import DataTestSupport
import Dispatch
import Interactors
import InteractorsData
import Testing

/// What `put`, `putAll`, `delete` and `deleteAll` do, on both local sources.
@Suite struct LocalSourceWritingTests {
    @Test(arguments: LocalSourceKind.allCases)
    func putAnswersTheValueAndReplacesById(kind: LocalSourceKind) throws {
        let local = try kind.make()
        #expect(try local.source.put(ada).get() == ada)
        let edited = Note(id: "ada", text: "Edited", revision: 2)
        #expect(try local.source.put(edited).get() == edited)
        #expect(try local.source.getAll(AllObjectsQuery()).get() == [edited])
    }

    @Test(arguments: LocalSourceKind.allCases)
    func putAllStoresEveryValueInOrder(kind: LocalSourceKind) throws {
        let local = try kind.make()
        #expect(try local.source.putAll([grace, ada]).get() == [grace, ada])
        #expect(try local.source.getAll(AllObjectsQuery()).get() == [grace, ada])
    }

    @Test(arguments: LocalSourceKind.allCases)
    func deleteRemovesTheValueWithTheId(kind: LocalSourceKind) throws {
        let local = try kind.make()
        try local.seed([ada, grace])
        try local.source.delete(IdQuery("ada")).get()
        #expect(try local.source.getAll(AllObjectsQuery()).get() == [grace])
    }

    @Test(arguments: LocalSourceKind.allCases)
    func deletingAMissingIdSucceeds(kind: LocalSourceKind) throws {
        let local = try kind.make()
        try local.seed([ada])
        try local.source.delete(IdQuery("nobody")).get()
        #expect(try local.source.getAll(AllObjectsQuery()).get() == [ada])
    }

    @Test(arguments: LocalSourceKind.allCases)
    func deleteOfAnythingButAnIdQueryIsNotSupported(kind: LocalSourceKind) throws {
        let local = try kind.make()
        try local.seed([ada])
        #expect(local.source.delete(AllObjectsQuery()).dataError?.code == .queryNotSupported)
        #expect(try local.source.getAll(AllObjectsQuery()).get() == [ada])
    }

    @Test(arguments: LocalSourceKind.allCases)
    func deleteAllRemovesWhatTheQuerySelects(kind: LocalSourceKind) throws {
        let local = try kind.make()
        try local.seed([ada, grace, alan])
        try local.source.deleteAll(IdsQuery(["ada", "nobody"])).get()
        #expect(try local.source.getAll(AllObjectsQuery()).get() == [grace, alan])
        try local.source.deleteAll(FilterQuery<Note> { $0.id == "alan" }).get()
        #expect(try local.source.getAll(AllObjectsQuery()).get() == [grace])
        try local.source.deleteAll(AllObjectsQuery()).get()
        #expect(try local.source.getAll(AllObjectsQuery()).get().isEmpty)
    }

    @Test(arguments: LocalSourceKind.allCases)
    func eightThreadsTimesTwoHundredPutsLoseNothing(kind: LocalSourceKind) throws {
        let local = try kind.make()
        let source = local.source
        let failures = LockedBox([any Error]())
        onThreads(8) { thread in
            for index in 0..<200 {
                do {
                    _ = try source.put(Note(id: "\(thread)-\(index)", text: "t\(thread)")).get()
                } catch {
                    failures.withLock { $0.append(error) }
                }
            }
        }
        #expect(failures.withLock { $0.isEmpty })
        let stored = try source.getAll(AllObjectsQuery()).get()
        #expect(stored.count == 1_600)
        #expect(Set(stored.map(\.id)).count == 1_600)
    }
}
