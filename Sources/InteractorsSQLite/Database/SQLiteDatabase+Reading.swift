import Interactors
import InteractorsData

// MARK: Reading

extension SQLiteDatabase {
    /// Reads with `body` on a read connection, on a reader thread, then runs `decode` on what it read once the
    /// connection is free again (decoding holds no connection), on the same thread, where the response settles.
    /// From a write body, it reads and decodes at once, on the writer's thread and connection: inside the body's
    /// transaction, so it sees the body's own writes and those that share its transaction.
    /// Elsewhere in memory, `body` runs on the writer's connection, after the writes issued before it, and
    /// `decode` on a reader thread (not the writer).
    func read<Rows: Sendable, T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(DataError) -> Rows,
        decode: @escaping @Sendable (Rows) throws(DataError) -> T
    ) -> Response<T> {
        if let writer, writer.isCurrent {
            // From a write body that reads: the body holds the writer until the read answers, and every reader
            // thread may be busy with work waiting for a write queued behind the body, so the read is served and
            // decoded here, in the body's place. On the writer's connection, in the body's transaction: a body
            // that reads a value and writes back a changed copy must see the writes grouped before it (a put of
            // that value issued just before the body), or it would replace them, a lost update; a read connection
            // would see only the last commit.
            let read = Result { () throws(DataError) in try decode(try body(writer.connection)) }
            return Response(result: read.mapError { $0 as any Error })
        }
        if let readers { return Response(on: workers) { try decode(try readers.read(body)) } }
        let writer = self.writer!
        let workers = self.workers
        // Read on the writer, decoded and settled on a reader thread, never on the writer, where a handler run as
        // it settles could wait for a write that only the writer would run.
        let (response, resolver) = Response<T>.makePending()
        writer.scheduleJob {
            guard !resolver.isCancelled else { return nil }
            let read = Result { () throws(DataError) in try body(writer.connection) }
            return {
                workers.schedule {
                    resolver.resolve(read.flatMap { rows in Result { () throws(DataError) in try decode(rows) } })
                }
            }
        }
        return response
    }

    /// Reads and decodes as ``read(_:decode:)`` does, for an observer: hands the answer to `then`, on the reader
    /// thread that decoded it.
    func readForObserver<Rows: Sendable, T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(DataError) -> Rows,
        decode: @escaping @Sendable (Rows) throws(DataError) -> T,
        then: @escaping @Sendable (Result<T, DataError>) -> Void
    ) {
        let workers = self.workers
        if let readers {
            workers.schedule {
                then(Result { () throws(DataError) in try decode(try readers.read(body)) })
            }
            return
        }
        let writer = self.writer!
        writer.schedule {
            let rows = Result { () throws(DataError) in try body(writer.connection) }
            workers.schedule { then(rows.flatMap { rows in Result { () throws(DataError) in try decode(rows) } }) }
        }
    }

    // MARK: Opening a source's table

    /// Readies `table` for a source: created with the cache index's tables when missing (in a transaction that
    /// takes the write lock only if something is missing, so opening a source on an existing table never waits
    /// for another process's write), and checked; remembered, to be created again in a fresh file. On a database
    /// opened read-only, or for a read-only source, nothing is created: a missing table fails with
    /// `storageFailed`.
    func open(_ table: TableSQL, readOnly: Bool) throws(DataError) {
        if readOnly || writer == nil {
            if let readers {
                try readers.read { connection throws(DataError) in try table.checkExists(on: connection) }
            } else {
                try writer?.runNow { connection throws(DataError) in try table.checkExists(on: connection) }
            }
            return
        }
        guard let writer else { return }
        writer.file?.register(table)
        try writer.runNow { connection throws(DataError) in try table.create(on: connection) }
    }
}
