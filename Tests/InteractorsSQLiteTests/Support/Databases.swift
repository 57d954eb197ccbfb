import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Testing

/// The two kinds of database, so each behaviour they share is tested on both.
enum DatabaseKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case file
    case inMemory

    var testDescription: String { rawValue }

    /// A fresh, empty database of this kind (a file one in a new temporary directory).
    func make() throws -> TestDatabase {
        switch self {
        case .file:
            let directory = try TemporaryDirectory()
            return TestDatabase(
                database: try SQLiteDatabase(fileURL: directory.file("app.sqlite")),
                directory: directory
            )
        case .inMemory:
            return TestDatabase(database: try SQLiteDatabase.inMemory(), directory: nil)
        }
    }
}

/// A database under test, and the directory that must outlive it.
struct TestDatabase {
    let database: SQLiteDatabase
    let directory: TemporaryDirectory?

    /// A source on `table`, of values of type `Value`.
    func source<Value>(
        _ table: String = "notes",
        of type: Value.Type = Note.self,
        undecodableRows: UndecodableRows = .fail
    ) throws -> SQLiteDataSource<Value> {
        try SQLiteDataSource<Value>(database: database, table: table, undecodableRows: undecodableRows)
    }

    /// A source of notes holding `notes`.
    func notes(_ notes: [Note]) throws -> SQLiteDataSource<Note> {
        let source = try source()
        _ = try source.putAll(notes).get()
        return source
    }
}
