import Foundation
public import Interactors
public import InteractorsData

/// A collection kept in one table of a ``SQLiteDatabase``: for anything beyond a few thousand values, several
/// processes on one file, or changes to observe.
///
/// ```swift
/// let database = try SQLiteDatabase(fileURL: appSupport.appendingPathComponent("app.sqlite"))
/// let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
/// _ = try notes.put(Note(id: "n1", text: "Buy milk")).get()
/// let pinned = try notes.getAll(FilterQuery<Note> { $0.isPinned }).get()
/// ```
///
/// One row per value: its id, its JSON, and when it was stored (see the schema in the InteractorsSQLite
/// documentation). It answers `IdQuery`, `IdsQuery` (in the query's order), `AllObjectsQuery` (in the order
/// values were first stored) and `FilterQuery` (evaluated in Swift over the rows), for reads and deletes, like
/// `InMemoryDataSource`; any other query fails with `queryNotSupported`.
///
/// - A write is answered once committed (see ``SQLiteDatabase`` for the writer, durability and reads);
///   `putAll` and `deleteAll` are each one transaction: a reader sees all of it or none of it, and a value that
///   does not encode fails the write with `mappingFailed` and stores none of it.
/// - A read sees every write whose response has succeeded. It runs off the caller's thread and does not wait for
///   writes still in progress.
/// - A row that no longer decodes (the model changed) fails the read with `mappingFailed`,
///   naming the table and the id, or is skipped: see ``UndecodableRows``.
/// - As a `CacheRepository`'s cache it keeps the repository's lists and stored-at times in the database, next to
///   the values (`CacheIndexStore`), so an app restarted offline finds its last lists and their ages.
public final class SQLiteDataSource<Value: Codable & Identifiable & Sendable>: GetDataSource, PutDataSource,
    DeleteDataSource
where Value.ID: Codable & Sendable {
    /// The database the table is in.
    public let database: SQLiteDatabase
    /// The table's name.
    public var table: String { storage.sql.name }

    /// Whether the source only reads: made `readOnly`, or on a database opened read-only.
    public let isReadOnly: Bool

    let storage: SQLiteTable<Value>

    /// A source kept in `table` of `database`, created when missing.
    ///
    /// Opening a source on a table that exists takes no write lock, so it never waits for another process's
    /// write. With `readOnly` (implied on a database opened read-only), nothing is created: the table must exist,
    /// and the source's writes fail with `storageFailed`, saying it is read-only.
    ///
    /// Fails with `storageFailed` for a name that starts with `sqlite_` or `interactors_`
    /// (reserved), inside a ``SQLiteDatabase/write(_:)`` body, or, for a read-only source, when the table does not
    /// exist; with `corruptStore` if the table exists but is not a table this source keeps (another program's);
    /// and as ``SQLiteDatabase`` fails when the database cannot be written.
    public init(
        database: SQLiteDatabase,
        table: String,
        undecodableRows: UndecodableRows = .fail,
        readOnly: Bool = false
    ) throws(DataError) {
        let sql = try TableSQL(table: table)
        try database.open(sql, readOnly: readOnly)
        self.database = database
        self.isReadOnly = readOnly || database.isReadOnly
        self.storage = SQLiteTable(
            sql: sql,
            undecodableRows: undecodableRows,
            location: database.fileURL?.lastPathComponent ?? "an in-memory database"
        )
    }

    // MARK: Reading

    /// The one value `query` selects; `notFound` when there is none.
    public func get(_ query: any Query) -> Response<Value> {
        read(query) { [storage] values throws(DataError) in
            guard let first = values.first else { throw .notFound(query, in: storage.sourceName) }
            return first
        }
    }

    /// Every value `query` selects, in storage order (`IdsQuery`: in the query's order).
    public func getAll(_ query: any Query) -> Response<[Value]> {
        read(query) { values throws(DataError) in values }
    }

    /// Reads the rows `query` selects, then decodes them once the connection is free again, and answers what
    /// `answer` makes of the values.
    private func read<T: Sendable>(
        _ query: any Query,
        _ answer: @escaping @Sendable ([Value]) throws(DataError) -> T
    ) -> Response<T> {
        let plan: SQLiteTable<Value>.Plan
        do {
            plan = try storage.plan(query)
        } catch {
            return Response(error: error.concerning(database.fileURL))
        }
        return database.read { [storage] connection throws(DataError) in
            try storage.sql.rows(plan.selection, on: connection)
        } decode: { [storage, fileURL = database.fileURL] (rows: [StoredRow]) throws(DataError) -> T in
            do throws(DataError) {
                return try answer(storage.values(plan, from: rows))
            } catch {
                throw error.concerning(fileURL)
            }
        }
    }

    // MARK: Writing

    /// Stores `value`, replacing any value with its id; answers once committed.
    public func put(_ value: Value) -> Response<Value> {
        write("put") { transaction, source in
            try transaction.put(value, in: source)
            return value
        }
    }

    /// Stores `value`; with `ifAbsent`, only if no row has its id, in one statement (`INSERT … ON CONFLICT DO
    /// NOTHING`), and otherwise fails with `conflict`, having written nothing.
    public func put(_ value: Value, ifAbsent: Bool) -> Response<Value> {
        write("put") { transaction, source in
            try transaction.put(value, ifAbsent: ifAbsent, in: source)
            return value
        }
    }

    /// Stores `values`, in order, in one transaction.
    public func putAll(_ values: [Value]) -> Response<[Value]> {
        write("putAll") { transaction, source in
            try transaction.putAll(values, in: source)
            return values
        }
    }

    /// Deletes the value with the `IdQuery`'s id; succeeds if there is none.
    public func delete(_ query: any Query) -> Response<Void> {
        write("delete") { transaction, source in try transaction.delete(query, in: source) }
    }

    /// Deletes the value with the query's id; with `ifPresent`, fails with `notFound` if there was none, as the
    /// `DELETE` statement itself tells.
    public func delete(_ query: IdQuery<Value.ID>, ifPresent: Bool) -> Response<Void> {
        write("delete") { transaction, source in try transaction.delete(query, ifPresent: ifPresent, in: source) }
    }

    /// Deletes every value `query` selects, in one transaction.
    public func deleteAll(_ query: any Query) -> Response<Void> {
        write("deleteAll") { transaction, source in try transaction.deleteAll(query, in: source) }
    }

    /// Queues `body` on the database's writer; refused at once inside one of its write bodies.
    func write<T: Sendable>(
        _ operation: String,
        _ body: @escaping @Sendable (SQLiteTransaction, SQLiteDataSource) throws -> T
    ) -> Response<T> {
        if let refusal = writeRefusal ?? database.refusal("\(storage.sourceName).\(operation)") {
            return Response(error: refusal.concerning(database.fileURL))
        }
        return database.writer!.enqueue { [self] transaction in
            do {
                return try body(transaction, self)
            } catch let error as DataError {
                throw error.concerning(database.fileURL)
            }
        }
    }

    /// The error of every write of a read-only source; nil for one that writes.
    var writeRefusal: DataError? {
        isReadOnly ? SQLiteDatabase.readOnlyError(storage.sourceName, "a write") : nil
    }
}
