/// Where a ``SQLiteDataSource`` keeps a `CacheRepository`'s pending writes (`PendingWriteStore`): one table shared
/// by every source of the database, keyed by the source's table name as the cache index's tables are, created with
/// them.
///
/// ```sql
/// -- One pending write per id: a put (value holds its JSON) or a delete (value is NULL), at the position its write
/// -- took in the source's order of writes (interactors_cache_order), which orders them.
/// CREATE TABLE interactors_pending_writes (
///     source TEXT NOT NULL COLLATE NOCASE, id BLOB NOT NULL, position INTEGER NOT NULL, value TEXT,
///     queued_at REAL NOT NULL, attempts INTEGER NOT NULL, error_code TEXT, error_message TEXT,
///     PRIMARY KEY (source, id)) WITHOUT ROWID
/// CREATE INDEX interactors_pending_writes_by_position ON interactors_pending_writes (source, position)
/// ```
///
/// The error a pending write keeps is its `DataError`'s code, by name, and its message; the error under it lives
/// in the process that met it.
enum PendingWritesSQL {
    static let create = """
        CREATE TABLE IF NOT EXISTS interactors_pending_writes (source TEXT NOT NULL COLLATE NOCASE, \
        id BLOB NOT NULL, position INTEGER NOT NULL, value TEXT, queued_at REAL NOT NULL, attempts INTEGER NOT NULL, \
        error_code TEXT, error_message TEXT, PRIMARY KEY (source, id)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS interactors_pending_writes_by_position ON interactors_pending_writes \
        (source, position)
        """

    /// The table and the columns it must have.
    static let table = (
        name: "interactors_pending_writes",
        columns: ["source", "id", "position", "value", "queued_at", "attempts", "error_code", "error_message"]
    )

    /// `?1` the source, `?2` an id, `?3` its position, `?4` the value's JSON (NULL for a delete), `?5` when it was
    /// queued, `?6` the error's code, `?7` its message: the id's pending write, replacing any.
    static let keep = """
        INSERT INTO interactors_pending_writes (source, id, position, value, queued_at, attempts, error_code, \
        error_message) VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?7) ON CONFLICT (source, id) DO UPDATE SET \
        position = excluded.position, value = excluded.value, queued_at = excluded.queued_at, attempts = 1, \
        error_code = excluded.error_code, error_message = excluded.error_message
        """
    /// `?2` an id: its pending write's position.
    static let selectPosition = "SELECT position FROM interactors_pending_writes WHERE source = ?1 AND id = ?2"
    /// `?2` an id.
    static let drop = "DELETE FROM interactors_pending_writes WHERE source = ?1 AND id = ?2"
    /// `?2` a position, `?3` the error's code, `?4` its message.
    static let failedAgain = """
        UPDATE interactors_pending_writes SET attempts = attempts + 1, error_code = ?3, error_message = ?4 \
        WHERE source = ?1 AND position = ?2
        """
    /// `?2` a position, `?3` a limit (-1: none): the pending writes after the position, in order.
    static let selectAfter = """
        SELECT id, position, value, queued_at, attempts, error_code, error_message FROM interactors_pending_writes \
        WHERE source = ?1 AND position > ?2 ORDER BY position LIMIT ?3
        """
    /// Every pending write's id, in order, and whether it is a delete.
    static let selectKeys = """
        SELECT id, value IS NULL FROM interactors_pending_writes WHERE source = ?1 ORDER BY position
        """
    static let dropAll = "DELETE FROM interactors_pending_writes WHERE source = ?1"
}
