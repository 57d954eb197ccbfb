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
        CREATE INDEX IF NOT EXISTS interactors_cache_list_items_by_id ON interactors_cache_list_items (source, id)
        """

    /// The index's tables and the columns each must have.
    static let tables = [
        "interactors_cache_times": ["source", "id", "stored_at"],
        "interactors_cache_lists": ["source", "key", "stored_at"],
        "interactors_cache_list_items": ["source", "key", "position", "id"],
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
    /// `?2` a key: its ids, in order.
    static let selectListIDs = """
        SELECT position, id FROM interactors_cache_list_items WHERE source = ?1 AND key = ?2 ORDER BY position
        """
    /// `?2` a key.
    static let clearList = "DELETE FROM interactors_cache_list_items WHERE source = ?1 AND key = ?2"
    /// `?2` a key, `?3` a position, `?4` an id.
    static let addListItem = """
        INSERT INTO interactors_cache_list_items (source, key, position, id) VALUES (?1, ?2, ?3, ?4)
        """
}
