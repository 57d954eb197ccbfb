import Foundation
public import Interactors
public import InteractorsData

// MARK: Keeping a cache repository's pending writes

/// A `SQLiteDataSource` keeps a `CacheRepository`'s pending writes in its database (`interactors_pending_writes`,
/// see the InteractorsSQLite documentation), written in the same transaction as the values they change, so a write
/// kept offline survives a kill and a restart.
extension SQLiteDataSource: PendingWriteStore {
    /// The pending writes after `position`, in order, at most `limit`; read in one transaction.
    public func pendingWrites(after position: CacheWritePosition?, limit: Int?) -> Response<[PendingWrite<Value>]> {
        database.read { [storage] connection throws(DataError) in
            try storage.pendingRows(after: position, limit: limit, on: connection)
        } decode: { [storage] rows throws(DataError) in
            try storage.pendingWrites(rows)
        }
    }

    /// For a database file, the lock file `<database file name>.sync-<table>.lock` next to it (the table's name
    /// as SQLite compares it, its characters other than ASCII letters, digits, `-` and `_` as `%XX`): syncs of the
    /// table through every source and database on the file, in every process, take turns. In memory, the database
    /// and the table: this process only.
    public var pendingWritesSyncKey: PendingWritesSyncKey {
        let identity = storage.sql.identity
        guard let fileURL = database.fileURL else {
            return .inProcess("SQLiteDatabase@\(ObjectIdentifier(database)) table \(identity)")
        }
        var escaped = ""
        for byte in identity.utf8 {
            let isPlain =
                (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte)
                || byte == 0x2D || byte == 0x5F
            escaped += isPlain ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }
        return .lockFile(
            fileURL.deletingLastPathComponent().appendingPathComponent(
                "\(fileURL.lastPathComponent).sync-\(escaped).lock"
            )
        )
    }
}
