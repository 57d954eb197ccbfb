import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Testing

// The code blocks of Sources/InteractorsSQLite/InteractorsSQLite.docc, run for real on a database file in a
// temporary directory.

@Suite private struct InteractorsSQLiteSnippets {
    struct Note: Codable, Identifiable, Sendable, Equatable {
        var id: String
        var text: String
        var isPinned = false
    }

    @Test func theOverviewStoresAndReadsNotes() throws {
        let appSupport = FileManager.default.temporaryDirectory.appendingPathComponent("snippets-\(UUID())")
        defer { try? FileManager.default.removeItem(at: appSupport) }

        let database = try SQLiteDatabase(fileURL: appSupport.appendingPathComponent("app.sqlite"))
        let notes = try SQLiteDataSource<Note>(database: database, table: "notes")

        _ = try notes.put(Note(id: "n1", text: "Buy milk")).get()
        let pinned = try notes.getAll(FilterQuery<Note> { $0.isPinned }).get()

        #expect(pinned.isEmpty)
        #expect(try notes.get(IdQuery("n1")).get().text == "Buy milk")
    }

    @Test func aTransactionMovesANoteBetweenTables() throws {
        let database = try SQLiteDatabase.inMemory()
        let inbox = try SQLiteDataSource<Note>(database: database, table: "inbox")
        let archive = try SQLiteDataSource<Note>(database: database, table: "archive")
        let note = Note(id: "n1", text: "Buy milk")
        _ = try inbox.put(note).get()

        try database.write { transaction in
            try transaction.delete(IdQuery(note.id), in: inbox)
            try transaction.put(note, in: archive)
        }.get()

        #expect(try inbox.getAll(AllObjectsQuery()).get().isEmpty)
        #expect(try archive.getAll(AllObjectsQuery()).get() == [note])
    }

    /// Compiled, not run: its handler runs on the main queue, which a Linux test process does not service.
    func observingChanges(notes: SQLiteDataSource<Note>) -> DataObservation {
        let observation = notes.observe(AllObjectsQuery(), on: DispatchQueue.main) { result in
            if case .success(let notes) = result { print("\(notes.count) notes") }
        }
        return observation
    }
}
