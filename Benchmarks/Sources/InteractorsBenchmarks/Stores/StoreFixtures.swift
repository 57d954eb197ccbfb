import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Synchronization

/// The stores the stores cases measure, one of each kind per size, filled once (untimed) and reused by every
/// row of that size. Puts replace existing values, so a store keeps its size whatever the rows do to it.
final class StoreFixtures: Sendable {
    static let shared = StoreFixtures()

    private struct Stores: Sendable {
        let inMemory: InMemoryDataSource<StoreNote>
        let file: FileDataSource<StoreNote>
        let sqlite: SQLiteDataSource<StoreNote>
        let raw: RawSQLiteStore
    }

    private let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("InteractorsBenchmarks-stores-\(UUID().uuidString)", isDirectory: true)
    private let bySize = Mutex([Int: Stores]())

    func inMemory(_ size: Int) -> InMemoryDataSource<StoreNote> { stores(size).inMemory }
    func file(_ size: Int) -> FileDataSource<StoreNote> { stores(size).file }
    func sqlite(_ size: Int) -> SQLiteDataSource<StoreNote> { stores(size).sqlite }
    func raw(_ size: Int) -> RawSQLiteStore { stores(size).raw }

    /// Removes the stores' files (the process is about to end).
    func removeFiles() {
        bySize.withLock { $0 = [:] }
        try? FileManager.default.removeItem(at: directory)
    }

    private func stores(_ size: Int) -> Stores {
        if let stores = bySize.withLock({ $0[size] }) { return stores }
        let stores = fill(size)
        bySize.withLock { $0[size] = stores }
        return stores
    }

    private func fill(_ size: Int) -> Stores {
        let notes = (0..<size).map { StoreNote.number($0) }
        let folder = directory.appendingPathComponent("\(size)", isDirectory: true)
        do {
            let inMemory = InMemoryDataSource<StoreNote>()
            _ = try inMemory.putAll(notes).get()
            let file = FileDataSource<StoreNote>(fileURL: folder.appendingPathComponent("notes.json"))
            _ = try file.putAll(notes).get()
            let database = try SQLiteDatabase(fileURL: folder.appendingPathComponent("notes.sqlite"))
            let sqlite = try SQLiteDataSource<StoreNote>(database: database, table: "notes")
            _ = try sqlite.putAll(notes).get()
            let raw = RawSQLiteStore(url: folder.appendingPathComponent("raw.sqlite"), count: size)
            return Stores(inMemory: inMemory, file: file, sqlite: sqlite, raw: raw)
        } catch {
            fatalError("cannot fill the \(size)-value stores: \(error)")
        }
    }
}
