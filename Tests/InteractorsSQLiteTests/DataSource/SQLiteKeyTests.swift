import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Testing

/// Ids of any `Codable & Hashable & Sendable` type, and how they are stored: text for strings, integers for
/// whole numbers, JSON with sorted keys for anything else.
@Suite struct SQLiteKeyTests {
    struct Counter: Codable, Identifiable, Sendable, Equatable {
        var id: Int
        var count: Int
    }

    struct Tagged: Codable, Identifiable, Sendable, Equatable {
        var id: UUID
    }

    struct Cell: Codable, Identifiable, Sendable, Equatable {
        struct Position: Codable, Hashable, Sendable {
            var row: Int
            var column: Int
        }
        var id: Position
        var formula: String
    }

    enum Shelf: String, Codable, Hashable, Sendable {
        case top, bottom
    }

    struct Book: Codable, Identifiable, Sendable, Equatable {
        var id: Shelf
    }

    @Test func everyKindOfIdFindsReplacesAndDeletesItsRow() throws {
        let database = try DatabaseKind.inMemory.make()
        let counters = try database.source("counters", of: Counter.self)
        _ = try counters.putAll([Counter(id: 1, count: 0), Counter(id: 2, count: 0), Counter(id: 1, count: 5)]).get()
        #expect(try counters.getAll(AllObjectsQuery()).get() == [Counter(id: 1, count: 5), Counter(id: 2, count: 0)])
        try counters.delete(IdQuery(2)).get()
        #expect(try counters.getAll(IdsQuery([1, 2])).get() == [Counter(id: 1, count: 5)])

        let uuid = UUID()
        let tagged = try database.source("tagged", of: Tagged.self)
        _ = try tagged.put(Tagged(id: uuid)).get()
        #expect(try tagged.get(IdQuery(uuid)).get() == Tagged(id: uuid))

        let cells = try database.source("cells", of: Cell.self)
        let a1 = Cell.Position(row: 1, column: 1)
        _ = try cells.putAll([Cell(id: a1, formula: "=1"), Cell(id: a1, formula: "=2")]).get()
        #expect(try cells.getAll(AllObjectsQuery()).get() == [Cell(id: a1, formula: "=2")])
        try cells.delete(IdQuery(a1)).get()
        #expect(try cells.getAll(AllObjectsQuery()).get().isEmpty)

        let books = try database.source("books", of: Book.self)
        _ = try books.put(Book(id: .top)).get()
        #expect(try books.get(IdQuery(Shelf.top)).get() == Book(id: .top))
    }

    @Test func keysAreStoredAsTextIntegersOrSortedJSON() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("keys.sqlite")
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        do {
            let database = try SQLiteDatabase(fileURL: url)
            _ = try SQLiteDataSource<Note>(database: database, table: "notes").put(ada).get()
            _ = try SQLiteDataSource<Counter>(database: database, table: "counters").put(Counter(id: 7, count: 0)).get()
            _ = try SQLiteDataSource<Tagged>(database: database, table: "tagged").put(Tagged(id: uuid)).get()
            let cell = Cell(id: Cell.Position(row: 2, column: 3), formula: "")
            _ = try SQLiteDataSource<Cell>(database: database, table: "cells").put(cell).get()
            _ = try SQLiteDataSource<Book>(database: database, table: "books").put(Book(id: .bottom)).get()
        }
        let raw = RawSQLite(url)
        #expect(raw.rows("SELECT id FROM notes") == [["text ada"]])
        #expect(raw.rows("SELECT id FROM counters") == [["integer 7"]])
        #expect(raw.rows("SELECT id FROM tagged") == [["text E621E1F8-C36C-495A-93FC-0C247A3E6E5F"]])
        #expect(raw.rows("SELECT id FROM cells") == [["text {\"column\":3,\"row\":2}"]])
        #expect(raw.rows("SELECT id FROM books") == [["text bottom"]])
        // The value as JSON text, and when it was stored as seconds since 1970.
        let row = try #require(raw.rows("SELECT value, stored_at FROM notes").first)
        #expect(try JSONDecoder().decode(Note.self, from: Data(row[0].dropFirst("text ".count).utf8)) == ada)
        #expect(row[1].hasPrefix("real "))
        let storedAt = try #require(Double(row[1].dropFirst("real ".count)))
        #expect(abs(storedAt - Date().timeIntervalSince1970) < 3_600)
    }
}
