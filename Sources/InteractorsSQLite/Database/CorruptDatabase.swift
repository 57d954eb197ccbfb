/// What a ``SQLiteDatabase`` does with a file that is damaged, or is not a SQLite database at all: one that
/// SQLite answers `SQLITE_CORRUPT` or `SQLITE_NOTADB` for, when it is opened or on any later operation.
///
/// ```swift
/// let cache = try SQLiteDatabase(fileURL: cachesURL.appendingPathComponent("cache.sqlite"), ifCorrupt: .moveAside)
/// ```
public struct CorruptDatabase: Sendable, Hashable, CustomStringConvertible {
    // A struct with static members rather than an enum: more ways to recover may come (restoring a backup, say),
    // and a new member is not a breaking change where a new case would be for a `switch` without `default`.
    private let name: String

    /// The operation that met the damage fails with `corruptStore`, and so does every later one that meets it;
    /// the database stays open on the file, which it neither repairs nor moves (a damaged file that still opens
    /// still takes the writes that do not touch its damaged pages). A file that is not a database at all is not
    /// opened: the initialiser throws, and the file is left as it is. What a store of record wants.
    public static let fail = CorruptDatabase(name: "fail")
    /// The file is closed and renamed, with its write-ahead log and shared-memory files, to
    /// `<file name>.corrupt-<timestamp>` (and that name followed by `-wal` and `-shm`), next to it; the damage is
    /// reported once (to the initialiser's `onCorruption`), and the database starts empty, with the tables of the
    /// sources opened on it created again. The operation that met the damage then runs on the fresh database: a
    /// read finds nothing (`get` fails with `notFound`, `getAll` answers `[]`), a write is applied. What a cache
    /// wants.
    public static let moveAside = CorruptDatabase(name: "moveAside")

    /// The policy's name: `fail`, `moveAside`.
    public var description: String { name }
}
