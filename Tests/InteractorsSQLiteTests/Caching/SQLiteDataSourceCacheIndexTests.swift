import DataTestSupport
import Dispatch
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Testing

/// `CacheIndexStore` as a `SQLiteDataSource` adopts it: a change is one transaction in the steps `CacheChange`
/// lists, the plain writes keep the index consistent, and each source's index is its own.
@Suite struct SQLiteDataSourceCacheIndexTests {
    let earlier = Date(timeIntervalSince1970: 1_700_000_000.25)
    let later = Date(timeIntervalSince1970: 1_700_000_100.5)

    @Test(arguments: DatabaseKind.allCases)
    func aChangeStoresItsValuesAtItsTimeAndReplacesItsList(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([])
        try notes.applyCacheChange(CacheChange(date: earlier, values: [ada, grace], listKey: "all")).get()
        let list = try #require(try notes.cachedList(forKey: "all").get())
        #expect(list.storedAt == earlier)
        #expect(list.ids == ["ada", "grace"])
        #expect(list.entries.map(\.value) == [ada, grace])
        #expect(list.entries.map(\.storedAt) == [earlier, earlier])

        try notes.applyCacheChange(CacheChange(date: later, values: [alan, ada], listKey: "all")).get()
        let replaced = try #require(try notes.cachedList(forKey: "all").get())
        #expect(replaced.storedAt == later)
        #expect(replaced.ids == ["alan", "ada"])
        #expect(try notes.cachedEntries(["grace", "ada", "nobody"]).get().map(\.storedAt) == [earlier, later])
        #expect(try notes.cachedList(forKey: "other").get() == nil)
    }

    @Test(arguments: DatabaseKind.allCases)
    func plainWritesKeepTheIndexConsistent(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([])
        try notes.applyCacheChange(CacheChange(date: earlier, values: [ada, grace, alan], listKey: "all")).get()
        try notes.applyCacheChange(CacheChange(date: earlier, values: [grace, alan], listKey: "some")).get()

        _ = try notes.put(ada).get()  // a plain put: no longer stored by a repository
        #expect(try notes.cachedEntries(["ada", "grace"]).get().map(\.storedAt) == [nil, earlier])
        try notes.delete(IdQuery("grace")).get()  // leaves every list, loses its time
        #expect(try notes.cachedList(forKey: "all").get()?.ids == ["ada", "alan"])
        #expect(try notes.cachedList(forKey: "some").get()?.ids == ["alan"])
        try notes.deleteAll(FilterQuery<Note> { $0.id == "alan" }).get()
        #expect(try notes.cachedList(forKey: "some").get()?.ids == [])
        _ = try notes.put(grace).get()
        #expect(try notes.cachedEntries(["grace"]).get().map(\.storedAt) == [nil])  // its old time is gone
        try notes.deleteAll(AllObjectsQuery()).get()  // drops every list
        #expect(try notes.cachedList(forKey: "all").get() == nil)
        #expect(try notes.cachedList(forKey: "some").get() == nil)
    }

    @Test(arguments: DatabaseKind.allCases)
    func removalsComeFirstAndExtendedListsGainOnlyWhatTheyLack(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([])
        try notes.applyCacheChange(CacheChange(date: earlier, values: [ada, grace, alan], listKey: "all")).get()
        try notes.applyCacheChange(CacheChange(date: earlier, values: [ada], listKey: "ada")).get()

        // Every value but those of the change goes, and leaves every list.
        try notes.applyCacheChange(CacheChange(date: later, removal: .allOthers, values: [grace], listKey: "all"))
            .get()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [grace])
        #expect(try notes.cachedList(forKey: "ada").get()?.ids == [])

        // A value joins the lists that exist and lack it, at their end; their times stay.
        try notes.applyCacheChange(
            CacheChange(date: later, values: [alan, grace], extendedListKeys: ["all", "ada", "missing"])
        ).get()
        #expect(try notes.cachedList(forKey: "all").get()?.ids == ["grace", "alan"])
        #expect(try notes.cachedList(forKey: "ada").get()?.ids == ["alan", "grace"])
        #expect(try notes.cachedList(forKey: "ada").get()?.storedAt == earlier)
        #expect(try notes.cachedList(forKey: "missing").get() == nil)

        try notes.applyCacheChange(CacheChange(date: later, removal: .ids(["alan"]))).get()
        #expect(try notes.cachedList(forKey: "all").get()?.ids == ["grace"])
        try notes.applyCacheChange(CacheChange(date: later, removal: .all, values: [ada])).get()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada])
        #expect(try notes.cachedList(forKey: "all").get() == nil)
    }

    @Test(arguments: DatabaseKind.allCases)
    func aChangeThatFailsLeavesValuesListsAndTimesAsTheyWere(kind: DatabaseKind) throws {
        let database = try kind.make()
        let values = try database.source("fragile", of: Fragile.self)
        let a = Fragile(id: "a"), b = Fragile(id: "b")
        try values.applyCacheChange(CacheChange(date: earlier, values: [a, b], listKey: "all")).get()
        let refused = Fragile(id: "c", refusesToEncode: true)
        let change = CacheChange(date: later, removal: .allOthers, values: [Fragile(id: "b"), refused], listKey: "all")
        #expect(values.applyCacheChange(change).dataError?.code == .mappingFailed)
        let list = try #require(try values.cachedList(forKey: "all").get())
        #expect(list.ids == ["a", "b"])
        #expect(list.storedAt == earlier)
        #expect(list.entries.map(\.storedAt) == [earlier, earlier])
    }

    @Test(arguments: DatabaseKind.allCases)
    func eachSourceHasAnIndexOfItsOwnApartFromTheAppsTables(kind: DatabaseKind) throws {
        let database = try kind.make()
        // Tables of the app's own whose names look like the index's.
        let lists = try database.source("cache_lists")
        let times = try database.source("interactors cache times")
        let notes = try database.source("notes")
        let books = try database.source("books")
        try notes.applyCacheChange(CacheChange(date: earlier, values: [ada, grace], listKey: "all")).get()
        try books.applyCacheChange(CacheChange(date: later, values: [alan], listKey: "all")).get()
        _ = try lists.put(ada).get()
        _ = try times.put(grace).get()
        #expect(try notes.cachedList(forKey: "all").get()?.ids == ["ada", "grace"])
        #expect(try books.cachedList(forKey: "all").get()?.ids == ["alan"])
        try books.deleteAll(AllObjectsQuery()).get()
        #expect(try notes.cachedList(forKey: "all").get()?.storedAt == earlier)
        #expect(try notes.cachedEntries(["ada"]).get().first?.storedAt == earlier)
        // SQLite's table names ignore case, and so does the index: "NOTES" is the notes table.
        let shouting = try database.source("NOTES")
        #expect(try shouting.cachedList(forKey: "all").get()?.ids == ["ada", "grace"])
        try shouting.delete(IdQuery("ada")).get()
        #expect(try notes.cachedList(forKey: "all").get()?.ids == ["grace"])
        #expect(try lists.getAll(AllObjectsQuery()).get() == [ada])
    }

    @Test(arguments: DatabaseKind.allCases)
    func anObserverIsToldAfterACacheChangeCommits(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada])
        let heard = Heard<Note>()
        let observation = notes.observe(AllObjectsQuery(), on: DispatchQueue(label: "observer")) { heard.append($0) }
        #expect(heard.wait(for: 1) == [[ada]])
        try notes.applyCacheChange(
            CacheChange(date: later, removal: .allOthers, values: [grace, alan], listKey: "all")
        )
        .get()
        #expect(heard.wait(for: 2) == [[ada], [grace, alan]])
        withExtendedLifetime(observation) {}
    }
}
