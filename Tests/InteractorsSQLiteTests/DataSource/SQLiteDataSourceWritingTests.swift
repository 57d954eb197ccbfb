import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Testing

/// What `put`, `putAll`, `delete` and `deleteAll` do, on a file database and an in-memory one.
@Suite struct SQLiteDataSourceWritingTests {
    @Test(arguments: DatabaseKind.allCases)
    func putAnswersTheValueAndReplacesByID(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.source()
        #expect(try notes.put(ada).get() == ada)
        let revised = Note(id: "ada", text: "Bernoulli numbers", revision: 1)
        #expect(try notes.put(revised).get() == revised)
        #expect(try notes.getAll(AllObjectsQuery()).get() == [revised])
    }

    @Test(arguments: DatabaseKind.allCases)
    func putAllStoresInOrderAndAnswersTheValues(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.source()
        #expect(try notes.putAll([ada, grace, alan]).get() == [ada, grace, alan])
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada, grace, alan])
    }

    @Test(arguments: DatabaseKind.allCases)
    func putAllWithAValueThatDoesNotEncodeStoresNoneOfIt(kind: DatabaseKind) throws {
        let database = try kind.make()
        let fragile = try database.source("fragile", of: Fragile.self)
        _ = try fragile.put(Fragile(id: "kept")).get()
        let batch = [Fragile(id: "a"), Fragile(id: "bad", refusesToEncode: true), Fragile(id: "c")]
        let error = try #require(fragile.putAll(batch).dataError)
        #expect(error.code == .mappingFailed)
        #expect(error.message.contains("bad"))
        #expect(error.underlying is Fragile.Refused)
        #expect(try fragile.getAll(AllObjectsQuery()).get() == [Fragile(id: "kept")])
    }

    @Test(arguments: DatabaseKind.allCases)
    func deleteOfAMissingIdSucceeds(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada])
        try notes.delete(IdQuery("nobody")).get()
        try notes.delete(IdQuery("ada")).get()
        #expect(try notes.getAll(AllObjectsQuery()).get().isEmpty)
    }

    @Test(arguments: DatabaseKind.allCases)
    func deleteAnswersOnlyIdQueries(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada])
        #expect(notes.delete(AllObjectsQuery()).dataError?.code == .queryNotSupported)
        #expect(notes.delete(TextSearchQuery(term: "x")).dataError?.code == .queryNotSupported)
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada])
    }

    @Test(arguments: DatabaseKind.allCases)
    func deleteAllRemovesWhatEachQuerySelects(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada, grace, alan])
        try notes.deleteAll(IdsQuery(["ada", "nobody"])).get()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [grace, alan])
        try notes.deleteAll(FilterQuery<Note> { $0.id == "alan" }).get()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [grace])
        try notes.deleteAll(IdQuery("grace")).get()
        #expect(try notes.getAll(AllObjectsQuery()).get().isEmpty)
        _ = try notes.putAll([ada, grace]).get()
        try notes.deleteAll(AllObjectsQuery()).get()
        #expect(try notes.getAll(AllObjectsQuery()).get().isEmpty)
        #expect(notes.deleteAll(TextSearchQuery(term: "x")).dataError?.code == .queryNotSupported)
    }

    @Test(arguments: DatabaseKind.allCases)
    func sourcesOnTwoTablesAreIndependent(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada])
        let archive = try database.source("archive")
        _ = try archive.put(grace).get()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada])
        #expect(try archive.getAll(AllObjectsQuery()).get() == [grace])
        try archive.deleteAll(AllObjectsQuery()).get()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada])
    }

    @Test(arguments: DatabaseKind.allCases)
    func twoSourcesOnOneTableShareItsRows(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada])
        let sameTable = try database.source("notes")
        #expect(try sameTable.get(IdQuery("ada")).get() == ada)
        _ = try sameTable.put(grace).get()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada, grace])
    }

    @Test(arguments: DatabaseKind.allCases)
    func manyThreadsPuttingAtOnceLoseNothing(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.source()
        let failures = LockedBox(0)
        onThreads(8) { thread in
            for index in 0..<50 {
                if notes.put(Note(id: "\(thread)-\(index)", text: "t")).error != nil { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try notes.getAll(AllObjectsQuery()).get().count == 400)
    }
}
