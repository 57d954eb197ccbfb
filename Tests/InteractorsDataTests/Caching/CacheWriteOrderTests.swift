import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import TestThreads
import Testing

/// `CacheIndexStore`'s order of writes, store by store, and the rule it serves: a read's answer, applied after
/// writes made once it was sent, leaves what those writes left, in the values and in every list. Over every
/// store that keeps its index (in memory, a file, a SQLite file, a SQLite database in memory).
@Suite(.onThreadsOfTheirOwn) struct CacheWriteOrderTests {
    let a = Note(id: "a", text: "A")
    let b = Note(id: "b", text: "B")
    let c = Note(id: "c", text: "C")

    func position(_ store: any DataSource<Note>) throws -> CacheWritePosition {
        let ordered = try #require(store as? any CacheIndexStore<Note>)
        return try #require(try ordered.writePosition().get())
    }

    @Test(arguments: CacheStoreKind.allCases)
    func everyPutAndDeleteTakesTheNextPosition(kind: CacheStoreKind) throws {
        let cache = try kind.make()  // its directory lives as long as the test
        let store = cache.source
        #expect(try position(store) == CacheWritePosition(epoch: 0, sequence: 0))  // before the first write
        _ = try store.put(a).get()
        let first = try position(store)
        #expect(first.sequence == 1 && first.epoch != 0)
        _ = try store.putAll([b, c]).get()
        try store.delete(IdQuery("never-held")).get()  // a deletion of an id the store never held counts too
        try store.deleteAll(IdsQuery(["b"])).get()
        #expect(try position(store) == CacheWritePosition(epoch: first.epoch, sequence: 5))
        _ = try store.getAll(AllObjectsQuery()).get()  // reads take none
        #expect(try position(store).sequence == 5)
    }

    @Test(arguments: CacheStoreKind.persistent)
    func theOrderIsKeptWithTheFileAndSharedByEveryInstanceOnIt(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let directory = try #require(cache.directory)
        _ = try cache.source.putAll([a, b]).get()
        let before = try position(cache.source)
        let other = try kind.open(in: directory)  // another instance, as another process would open it
        try other.delete(IdQuery("a")).get()
        #expect(try position(cache.source) == CacheWritePosition(epoch: before.epoch, sequence: 3))
        #expect(try position(kind.open(in: directory)) == CacheWritePosition(epoch: before.epoch, sequence: 3))
    }

    // MARK: A read's answer, applied as of when it was sent

    @Test(arguments: CacheStoreKind.allCases)
    func aListOtherThanEverythingKeepsWhatItsAnswerHoldsAsTheWritesLeftIt(kind: CacheStoreKind) throws {
        let main = try HeldSource([a, b, c])
        let cache = try kind.make()
        let repository = CacheRepository(main: main, cache: cache.source)
        main.holdReads()
        let refresh = repository.getAll(IdsQuery(["a", "b", "c"]), operation: .mainSync)
        #expect(main.waitForAHeldRead())

        let edited = try repository.put(Note(id: "b", text: "B, edited")).get()
        try repository.delete(IdQuery("c")).get()
        _ = try repository.put(Note(id: "d", text: "D, not asked for")).get()
        main.release()

        #expect(try refresh.get() == [a, b, c])  // the caller gets what the main source said
        let list = try repository.fetchAll(IdsQuery(["a", "b", "c"])).get()
        #expect({ if case .cache = list.origin { true } else { false } }())
        #expect(list.value == [a, edited])  // b with its new value; c stays deleted; d was not in the answer
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aValueReadWhileItWasDeletedOrPutKeepsTheWrite(kind: CacheStoreKind) throws {
        let main = try HeldSource([a, b])
        let cache = try kind.make()
        let repository = CacheRepository(main: main, cache: cache.source)
        main.holdReads()
        let readA = repository.get(IdQuery("a"), operation: .mainSync)
        #expect(main.waitForAHeldRead())
        let readB = repository.get(IdQuery("b"), operation: .mainSync)
        #expect(main.waitForAHeldRead())
        try repository.delete(IdQuery("a")).get()
        let edited = try repository.put(Note(id: "b", text: "B, edited")).get()
        main.release()

        #expect(try readA.get() == a)
        #expect(try readB.get() == b)
        #expect(repository.get(IdQuery("a"), operation: .cache).dataError?.code == .notFound)
        #expect(try repository.get(IdQuery("b"), operation: .cache).get() == edited)
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aNotFoundReadWhileTheValueWasPutKeepsThePut(kind: CacheStoreKind) throws {
        let main = try HeldSource()
        let cache = try kind.make()
        let repository = CacheRepository(main: main, cache: cache.source)
        main.holdReads()
        let read = repository.get(IdQuery("a"), operation: .mainSync)
        #expect(main.waitForAHeldRead())
        _ = try repository.put(a).get()
        main.release()

        #expect(read.dataError?.code == .notFound)  // the main source's answer, as it was
        #expect(try repository.get(IdQuery("a"), operation: .cache).get() == a)
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aReadOlderThanTheWritesTheStoreRemembersChangesNothing(kind: CacheStoreKind) throws {
        let main = try HeldSource([a, b])
        let cache = try kind.make()
        let repository = CacheRepository(main: main, cache: cache.source)
        main.holdReads()
        let refresh = repository.getAll(AllObjectsQuery(), operation: .mainSync)
        #expect(main.waitForAHeldRead())
        // More writes than the order remembers (1,000): the store can no longer tell which ids they touched.
        _ = try cache.source.putAll((0..<1_100).map { Note(id: "n\($0)", text: "bulk") }).get()
        main.release()

        #expect(try refresh.get() == [a, b])
        #expect(try cache.source.getAll(AllObjectsQuery()).get().count == 1_100)  // a and b were not added
        _ = try repository.getAll(AllObjectsQuery()).get()  // no list was stored: the main source is asked again
        #expect(try cache.source.getAll(AllObjectsQuery()).get().count == 2)
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aRefreshAnsweredAfterEverythingWasDeletedChangesNothing(kind: CacheStoreKind) throws {
        let main = try HeldSource([a, b])
        let cache = try kind.make()
        let repository = CacheRepository(main: main, cache: cache.source)
        _ = try repository.getAll(AllObjectsQuery()).get()
        main.holdReads()
        let refresh = repository.getAll(AllObjectsQuery(), operation: .mainSync)
        #expect(main.waitForAHeldRead())
        try cache.source.deleteAll(AllObjectsQuery()).get()
        main.release()

        _ = try refresh.get()
        #expect(try cache.source.getAll(AllObjectsQuery()).get().isEmpty)
    }

    // MARK: Caches of other kinds

    /// A cache of someone else's that adopts `CacheIndexStore` without an order of writes: the default
    /// `writePosition()` answers nil, and the answer is applied as it comes, as before.
    final class OrderlessCache: CacheIndexStore {
        typealias Value = Note
        let base = InMemoryDataSource<Note>()
        let changes = LockedBox([CacheChange<Note>]())

        func get(_ query: any Query) -> Response<Note> { base.get(query) }
        func getAll(_ query: any Query) -> Response<[Note]> { base.getAll(query) }
        func put(_ value: Note) -> Response<Note> { base.put(value) }
        func putAll(_ values: [Note]) -> Response<[Note]> { base.putAll(values) }
        func delete(_ query: any Query) -> Response<Void> { base.delete(query) }
        func deleteAll(_ query: any Query) -> Response<Void> { base.deleteAll(query) }
        func cachedEntries(_ ids: [Note.ID]) -> Response<[CacheEntry<Note>]> { base.cachedEntries(ids) }
        func cachedList(forKey key: String) -> Response<CachedList<Note>?> { base.cachedList(forKey: key) }
        func applyCacheChange(_ change: CacheChange<Note>) -> Response<Void> {
            changes.withLock { $0.append(change) }
            var write = change
            write.readPosition = nil
            return base.applyCacheChange(write)
        }
    }

    @Test func aCacheWithoutAnOrderOfWritesIsRefreshedAsBefore() throws {
        let main = try HeldSource([a, b])
        let cache = OrderlessCache()
        #expect(try cache.writePosition().get() == nil)
        let repository = CacheRepository(main: main, cache: cache)
        let sentAfter = Date()
        _ = try repository.getAll(AllObjectsQuery(), operation: .mainSync).get()
        let change = try #require(cache.changes.withLock { $0.first })
        #expect(change.readPosition == nil)
        #expect(change.date >= sentAfter)
        #expect(try repository.getAll(AllObjectsQuery()).get() == [a, b])
    }

    @Test func aPlainSourceAsTheCacheKeepsTheRuleForTheRepositorysOwnWrites() throws {
        let main = try HeldSource([a, b])
        let repository = CacheRepository(main: main, cache: RecordingSource("cache"))
        main.holdReads()
        let refresh = repository.getAll(AllObjectsQuery(), operation: .mainSync)
        #expect(main.waitForAHeldRead())
        try repository.delete(IdQuery("a")).get()
        _ = try repository.put(c).get()
        main.release()

        #expect(try refresh.get() == [a, b])
        #expect(try repository.getAll(AllObjectsQuery()).get() == [b, c])
    }
}
