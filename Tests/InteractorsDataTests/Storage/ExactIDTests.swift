import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import TestThreads
import Testing

/// Two ids whose Unicode scalars differ are two values in every store, as in SQLite and on a server, though
/// Swift's `==` calls `"café"` spelled with `é` (NFC) and with `e` and a combining accent (NFD) equal.
@Suite(.onThreadsOfTheirOwn) struct ExactIDTests {
    let composed = "caf\u{E9}"  // NFC
    let decomposed = "cafe\u{301}"  // NFD

    @Test func theTwoSpellingsAreEqualStringsButDifferentScalars() {
        #expect(composed == decomposed)
        #expect(Array(composed.unicodeScalars) != Array(decomposed.unicodeScalars))
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aStoreKeepsTwoIdsApartExactlyWhenTheirScalarsDiffer(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let store = cache.source
        let first = Note(id: composed, text: "Café, composed")
        let second = Note(id: decomposed, text: "Café, decomposed")
        _ = try store.putAll([first, second]).get()

        #expect(try store.getAll(AllObjectsQuery()).get() == [first, second])
        #expect(try store.get(IdQuery(composed)).get().text == first.text)
        #expect(try store.get(IdQuery(decomposed)).get().text == second.text)
        try store.delete(IdQuery(composed)).get()
        #expect(try store.getAll(AllObjectsQuery()).get().map(\.text) == [second.text])
        if let directory = cache.directory {
            let reopened = try kind.open(in: directory)
            #expect(try reopened.getAll(AllObjectsQuery()).get().map(\.text) == [second.text])
        }
    }

    @Test(arguments: CacheStoreKind.allCases)
    func aRepositorysListsAndTimesKeepTheTwoApart(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        let main = InMemoryDataSource<Note>()
        let first = Note(id: composed, text: "Café, composed")
        let second = Note(id: decomposed, text: "Café, decomposed")
        _ = try main.putAll([first, second]).get()
        let books = CacheRepository(main: main, cache: cache.source)

        #expect(try books.getAll(AllObjectsQuery()).get().count == 2)  // the list of everything: both
        #expect(try books.getAll(IdQuery(composed)).get() == [first])  // two keys, two lists
        #expect(try books.getAll(IdQuery(decomposed)).get() == [second])
        _ = try main.delete(IdQuery(decomposed)).get()  // answered from the cache: the lists stand
        #expect(try books.getAll(IdQuery(decomposed)).get() == [second])
        #expect(try books.fetchAll(AllObjectsQuery()).get().value == [first, second])
        if let directory = cache.directory {
            let reopened = CacheRepository(main: main, cache: try kind.open(in: directory))
            #expect(try reopened.fetchAll(IdQuery(composed)).get().value == [first])
            #expect(try reopened.fetchAll(IdQuery(decomposed)).get().value == [second])
        }
    }
}
