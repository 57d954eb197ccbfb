import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Testing

/// The stores that keep a cache repository's lists and times themselves (`CacheIndexStore`), so that each cache
/// behaviour is tested on every one of them.
enum CacheStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory
    case file
    case sqliteFile
    case sqliteInMemory

    var testDescription: String { rawValue }

    /// The kinds kept in a file, which a restarted app opens again.
    static let persistent: [CacheStoreKind] = [.file, .sqliteFile]
    /// The kinds gone with their instance.
    static let inMemoryKinds: [CacheStoreKind] = [.inMemory, .sqliteInMemory]

    /// A fresh, empty store of this kind (a file one in a new temporary directory).
    func make() throws -> CacheStore {
        switch self {
        case .inMemory:
            return CacheStore(source: InMemoryDataSource<Note>(), directory: nil)
        case .sqliteInMemory:
            return CacheStore(
                source: try SQLiteDataSource<Note>(database: SQLiteDatabase.inMemory(), table: "notes"),
                directory: nil
            )
        case .file, .sqliteFile:
            let directory = try TemporaryDirectory()
            return CacheStore(source: try open(in: directory), directory: directory)
        }
    }

    /// For a file kind, a new source on its file in `directory`, as a restarted app opens it (for SQLite, through
    /// a new database on the file); for an in-memory kind, a new empty one.
    func open(in directory: TemporaryDirectory) throws -> any DataSource<Note> {
        switch self {
        case .file:
            return FileDataSource<Note>(fileURL: directory.file("notes.json"))
        case .sqliteFile:
            return try SQLiteDataSource<Note>(
                database: SQLiteDatabase(fileURL: directory.file("notes.sqlite")),
                table: "notes"
            )
        case .inMemory, .sqliteInMemory:
            return try make().source
        }
    }
}

/// A store under test, and the directory that must outlive it.
struct CacheStore {
    let source: any DataSource<Note>
    let directory: TemporaryDirectory?
}
