public import InteractorsData

/// The writes of one ``SQLiteDatabase/write(_:)`` body: each goes into the body's transaction, through any
/// ``SQLiteDataSource`` of that database, on one table or several.
///
/// ```swift
/// try database.write { transaction in
///     try transaction.put(order, in: orders)
///     try transaction.deleteAll(IdsQuery(order.itemIDs), in: basket)
/// }.get()
/// ```
///
/// A transaction is valid only on the writer, while its body runs: it is not `Sendable`, and a write through it
/// after the body has returned fails with `storageFailed`. If one of its writes fails, the whole
/// body is rolled back and its response fails with that write's error, even if the body caught it. If the failure
/// ended the transaction itself (SQLite rolls the whole of it back on some full-disk, I/O and out-of-memory
/// errors), every later write through it fails with that same error: nothing of the body is committed.
public final class SQLiteTransaction {
    let writer: SQLiteWriter
    /// The tables this write changed (their ``TableSQL/identity``), to tell their observers after the commit.
    private(set) var changedTables: Set<String> = []
    /// The first write that failed: the body is rolled back even if it caught the error.
    private(set) var firstFailure: DataError?
    private var isOpen = true

    init(writer: SQLiteWriter) {
        self.writer = writer
    }

    /// Ends the transaction's use: later writes through it fail.
    func close() {
        isOpen = false
    }

    // MARK: Writing

    /// Stores `value` in `source`'s table, replacing the row with its id.
    public func put<Value>(_ value: Value, in source: SQLiteDataSource<Value>) throws(DataError) {
        try perform(on: source) { table, connection throws(DataError) in try table.put([value], on: connection) }
    }

    /// Stores `value` in `source`'s table; with `ifAbsent`, only if no row has its id (one statement), and otherwise
    /// fails with `conflict`, and so does the body, which is rolled back.
    public func put<Value>(_ value: Value, ifAbsent: Bool, in source: SQLiteDataSource<Value>) throws(DataError) {
        try perform(on: source) { table, connection throws(DataError) in
            try table.put([value], ifAbsent: ifAbsent, on: connection)
        }
    }

    /// Stores `values` in `source`'s table, in order.
    public func putAll<Value>(_ values: [Value], in source: SQLiteDataSource<Value>) throws(DataError) {
        try perform(on: source) { table, connection throws(DataError) in try table.put(values, on: connection) }
    }

    /// Deletes the row an `IdQuery` selects from `source`'s table; succeeds if there is none.
    public func delete<Value>(_ query: any Query, in source: SQLiteDataSource<Value>) throws(DataError) {
        try perform(on: source) { table, connection throws(DataError) in try table.delete(query, on: connection) }
    }

    /// Deletes the row with the query's id from `source`'s table; with `ifPresent`, fails with `notFound` if there
    /// was none (and so does the body, which is rolled back).
    public func delete<Value>(
        _ query: IdQuery<Value.ID>,
        ifPresent: Bool,
        in source: SQLiteDataSource<Value>
    ) throws(DataError) {
        try perform(on: source) { table, connection throws(DataError) in
            try table.delete(query, ifPresent: ifPresent, on: connection)
        }
    }

    /// Deletes every row `query` selects from `source`'s table (`AllObjectsQuery`: all of them).
    public func deleteAll<Value>(_ query: any Query, in source: SQLiteDataSource<Value>) throws(DataError) {
        try perform(on: source) { table, connection throws(DataError) in try table.deleteAll(query, on: connection) }
    }

    /// Applies a cache repository's `change` to `source`'s table and the cache index.
    func applyCacheChange<Value>(_ change: CacheChange<Value>, in source: SQLiteDataSource<Value>) throws(DataError) {
        try perform(on: source) { table, connection throws(DataError) in try table.apply(change, on: connection) }
    }

    private func perform<Value>(
        on source: SQLiteDataSource<Value>,
        _ write: (SQLiteTable<Value>, SQLiteConnection) throws(DataError) -> Void
    ) throws(DataError) {
        precondition(
            source.database.writer === writer,
            "\(source.table) belongs to another SQLiteDatabase than this transaction: write it in that database's own write(_:)"
        )
        guard isOpen, writer.isInsideBody else {
            throw .misuse(
                "this SQLiteTransaction has ended (or is used off the writer): write through a transaction only "
                    + "inside its write(_:) body"
            )
        }
        if let refusal = source.writeRefusal {
            if firstFailure == nil { firstFailure = refusal }
            throw refusal
        }
        // SQLite rolled the transaction back by itself: a statement run now would commit alone, at once.
        if let lost = writer.lostTransaction { throw lost }
        do {
            try write(source.storage, writer.connection)
            changedTables.insert(source.storage.sql.identity)
        } catch {
            if firstFailure == nil { firstFailure = error }
            if !writer.connection.isInTransaction { writer.lostTransaction = error }
            throw error
        }
    }
}

@available(*, unavailable, message: "a transaction is valid only on the writer, inside its write(_:) body")
extension SQLiteTransaction: Sendable {}
