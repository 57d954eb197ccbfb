import Foundation
import InteractorsData

/// Where a ``SQLiteDataSource`` keeps what a `CacheRepository` knows about its values (the `CacheIndexStore`
/// index): three tables shared by every source of the database, keyed by the source's table name, created with
/// the first source.
///
/// ```sql
/// -- When the repository stored a value (a row exists only for a value a repository stored; a plain put
/// -- removes it). `stored_at` in the source's own table is when the row was last written, which is not the same.
/// CREATE TABLE interactors_cache_times (
///     source TEXT NOT NULL COLLATE NOCASE, id BLOB NOT NULL, stored_at REAL NOT NULL,
///     PRIMARY KEY (source, id)) WITHOUT ROWID
/// -- The lists, by CacheKeyQuery.cacheKey, and when each was stored.
/// CREATE TABLE interactors_cache_lists (
///     source TEXT NOT NULL COLLATE NOCASE, key TEXT NOT NULL, stored_at REAL NOT NULL,
///     PRIMARY KEY (source, key)) WITHOUT ROWID
/// -- The ids of each list, in the main source's order.
/// CREATE TABLE interactors_cache_list_items (
///     source TEXT NOT NULL COLLATE NOCASE, key TEXT NOT NULL, position INTEGER NOT NULL, id BLOB NOT NULL,
///     PRIMARY KEY (source, key, position)) WITHOUT ROWID
/// CREATE INDEX interactors_cache_list_items_by_id ON interactors_cache_list_items (source, id)
/// -- The order of writes (CacheIndexStore.writePosition): each put and delete of the source's table takes the
/// -- next position; the writes at or before `floor` are forgotten.
/// CREATE TABLE interactors_cache_order (
///     source TEXT NOT NULL COLLATE NOCASE PRIMARY KEY, epoch INTEGER NOT NULL, position INTEGER NOT NULL,
///     floor INTEGER NOT NULL) WITHOUT ROWID
/// -- The latest write of each id after the floor (deletions included: a tombstone for an id gone).
/// CREATE TABLE interactors_cache_writes (
///     source TEXT NOT NULL COLLATE NOCASE, id BLOB NOT NULL, position INTEGER NOT NULL, deleted INTEGER NOT NULL,
///     PRIMARY KEY (source, id)) WITHOUT ROWID
/// CREATE INDEX interactors_cache_writes_by_position ON interactors_cache_writes (source, position)
/// ```
///
/// `source` is the table's name, compared as SQLite compares table names (ASCII letters without case), and `id`
/// the same key as the table's `id` column. Side tables rather than a column of the source's table: the source's
/// table keeps the schema the documentation gives, a list may name an id the table no longer holds, and the
/// `interactors_` prefix, which no source may use, keeps them apart from the app's tables.
struct CacheIndexSQL: Sendable {
    /// `?1` the source, `?2` an id: the value's entry (its JSON, and when the repository stored it, or NULL).
    let selectEntry: String
    /// `?1` the source, `?2` a key: the list's ids in order, each with its value's JSON and stored-at time (NULL
    /// when the table no longer holds it).
    let selectListItems: String
    /// Every key of the table, for removing all others.
    let selectKeys: String

    init(table quoted: String) {
        selectEntry = """
            SELECT v.value, t.stored_at FROM \(quoted) v LEFT JOIN interactors_cache_times t \
            ON t.source = ?1 AND t.id = v.id WHERE v.id = ?2
            """
        selectListItems = """
            SELECT i.id, v.value, t.stored_at FROM interactors_cache_list_items i \
            LEFT JOIN \(quoted) v ON v.id = i.id \
            LEFT JOIN interactors_cache_times t ON t.source = i.source AND t.id = i.id \
            WHERE i.source = ?1 AND i.key = ?2 ORDER BY i.position
            """
        selectKeys = "SELECT id FROM \(quoted)"
    }

    // MARK: Statements shared by every source (`?1` is the source)

    static let create = """
        CREATE TABLE IF NOT EXISTS interactors_cache_times (source TEXT NOT NULL COLLATE NOCASE, id BLOB NOT NULL, \
        stored_at REAL NOT NULL, PRIMARY KEY (source, id)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS interactors_cache_lists (source TEXT NOT NULL COLLATE NOCASE, key TEXT NOT NULL, \
        stored_at REAL NOT NULL, PRIMARY KEY (source, key)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS interactors_cache_list_items (source TEXT NOT NULL COLLATE NOCASE, \
        key TEXT NOT NULL, position INTEGER NOT NULL, id BLOB NOT NULL, PRIMARY KEY (source, key, position)) \
        WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS interactors_cache_list_items_by_id ON interactors_cache_list_items (source, id);
        CREATE TABLE IF NOT EXISTS interactors_cache_order (source TEXT NOT NULL COLLATE NOCASE PRIMARY KEY, \
        epoch INTEGER NOT NULL, position INTEGER NOT NULL, floor INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS interactors_cache_writes (source TEXT NOT NULL COLLATE NOCASE, id BLOB NOT NULL, \
        position INTEGER NOT NULL, deleted INTEGER NOT NULL, PRIMARY KEY (source, id)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS interactors_cache_writes_by_position ON interactors_cache_writes (source, position)
        """

    /// The index's tables and the columns each must have.
    static let tables = [
        "interactors_cache_times": ["source", "id", "stored_at"],
        "interactors_cache_lists": ["source", "key", "stored_at"],
        "interactors_cache_list_items": ["source", "key", "position", "id"],
        "interactors_cache_order": ["source", "epoch", "position", "floor"],
        "interactors_cache_writes": ["source", "id", "position", "deleted"],
    ]

    /// `?2` an id, `?3` its stored-at time.
    static let setTime = """
        INSERT INTO interactors_cache_times (source, id, stored_at) VALUES (?1, ?2, ?3) \
        ON CONFLICT (source, id) DO UPDATE SET stored_at = excluded.stored_at
        """
    /// `?2` an id.
    static let forgetTime = "DELETE FROM interactors_cache_times WHERE source = ?1 AND id = ?2"
    /// `?2` an id: it leaves every list.
    static let leaveLists = "DELETE FROM interactors_cache_list_items WHERE source = ?1 AND id = ?2"

    static let forgetAllTimes = "DELETE FROM interactors_cache_times WHERE source = ?1"
    static let dropAllLists = "DELETE FROM interactors_cache_lists WHERE source = ?1"
    static let dropAllListItems = "DELETE FROM interactors_cache_list_items WHERE source = ?1"

    /// `?2` a key: when its list was stored.
    static let selectList = "SELECT stored_at FROM interactors_cache_lists WHERE source = ?1 AND key = ?2"
    /// `?2` a key, `?3` when the list was stored.
    static let setList = """
        INSERT INTO interactors_cache_lists (source, key, stored_at) VALUES (?1, ?2, ?3) \
        ON CONFLICT (source, key) DO UPDATE SET stored_at = excluded.stored_at
        """
    /// `?2` a key: the position after its last id (0 for an empty list).
    static let selectNextListPosition = """
        SELECT coalesce(max(position) + 1, 0) FROM interactors_cache_list_items WHERE source = ?1 AND key = ?2
        """
    /// `?2` a key, `?3` an id: a row if the list holds the id.
    static let selectListHolds = """
        SELECT 1 FROM interactors_cache_list_items WHERE source = ?1 AND key = ?2 AND id = ?3 LIMIT 1
        """
    /// `?2` a key.
    static let clearList = "DELETE FROM interactors_cache_list_items WHERE source = ?1 AND key = ?2"
    /// `?2` a key, `?3` a position, `?4` an id.
    static let addListItem = """
        INSERT INTO interactors_cache_list_items (source, key, position, id) VALUES (?1, ?2, ?3, ?4)
        """

    // MARK: The order of writes (`?1` is the source)

    /// The order: its epoch, latest position and floor; no row before the source's first write.
    static let selectOrder = "SELECT epoch, position, floor FROM interactors_cache_order WHERE source = ?1"
    /// `?2` a new epoch, `?3` how many positions to take: takes them (creating the order with that epoch).
    static let takePositions = """
        INSERT INTO interactors_cache_order (source, epoch, position, floor) VALUES (?1, ?2, ?3, 0) \
        ON CONFLICT (source) DO UPDATE SET position = position + excluded.position
        """
    /// `?2` the new floor.
    static let raiseFloor = "UPDATE interactors_cache_order SET floor = max(floor, ?2) WHERE source = ?1"
    /// `?2` the floor: forgets the writes at or before it.
    static let forgetWrites = "DELETE FROM interactors_cache_writes WHERE source = ?1 AND position <= ?2"
    /// `?2` an id, `?3` its position, `?4` 1 for a deletion.
    static let recordWrite = """
        INSERT INTO interactors_cache_writes (source, id, position, deleted) VALUES (?1, ?2, ?3, ?4) \
        ON CONFLICT (source, id) DO UPDATE SET position = excluded.position, deleted = excluded.deleted
        """
    /// `?2` a position: the writes after it, oldest first.
    static let selectWritesAfter = """
        SELECT id, deleted FROM interactors_cache_writes WHERE source = ?1 AND position > ?2 ORDER BY position
        """
}
