import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import TestThreads
import Testing

/// Text is bound with its length and read back with it: ids, list keys and values that hold a NUL round-trip,
/// and stay distinct from the text before the NUL.
@Suite(.onThreadsOfTheirOwn) struct SQLiteDataSourceExactTextTests {
    let first = Note(id: "a\0x", text: "first")
    let second = Note(id: "a\0y", text: "second")

    @Test(arguments: DatabaseKind.allCases)
    func idsThatDifferAfterANulAreTwoValues(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([first, second])
        #expect(try notes.getAll(AllObjectsQuery()).get() == [first, second])
        #expect(try notes.get(IdQuery("a\0x")).get() == first)
        #expect(try notes.get(IdQuery("a\0y")).get() == second)
        #expect(notes.get(IdQuery("a")).dataError?.code == .notFound)
        #expect(try notes.getAll(IdsQuery(["a\0y", "a", "a\0x"])).get() == [second, first])
        try notes.delete(IdQuery("a\0x")).get()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [second])
        _ = try notes.put(Note(id: "a", text: "plain")).get()
        #expect(try notes.getAll(AllObjectsQuery()).get().map(\.id) == ["a\0y", "a"])
    }

    @Test func theIdColumnHoldsEveryByteOfTheId() throws {
        let database = try DatabaseKind.file.make()
        _ = try database.notes([first])
        let raw = RawSQLite(try #require(database.database.fileURL))
        #expect(raw.rows("SELECT length(CAST(id AS BLOB)), hex(id) FROM notes") == [["integer 3", "text 610078"]])
    }

    @Test(arguments: DatabaseKind.allCases)
    func valuesHoldingANulRoundTrip(kind: DatabaseKind) throws {
        let database = try kind.make()
        let note = Note(id: "n", text: "before\0after")
        let notes = try database.notes([note])
        #expect(try notes.get(IdQuery("n")).get() == note)
        #expect(try notes.getAll(AllObjectsQuery()).get() == [note])
    }

    @Test(arguments: DatabaseKind.allCases)
    func listKeysThatDifferAfterANulAreTwoLists(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([])
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        try notes.applyCacheChange(CacheChange(date: date, values: [first], listKey: "list\0one")).get()
        try notes.applyCacheChange(CacheChange(date: date, values: [second], listKey: "list\0two")).get()
        #expect(try notes.cachedList(forKey: "list\0one").get()?.ids == ["a\0x"])
        #expect(try notes.cachedList(forKey: "list\0two").get()?.ids == ["a\0y"])
        #expect(try notes.cachedList(forKey: "list").get() == nil)
        #expect(try notes.cachedEntries(["a\0y", "a"]).get().map(\.value) == [second])
    }
}
