import Dispatch
public import Interactors
public import InteractorsData

// MARK: Observing

extension SQLiteDataSource {
    /// Tells `handler`, on `queue`, what `getAll(query)` answers: first at once, then after every committed write
    /// to this source's table through this process's sources of its database.
    ///
    /// ```swift
    /// observation = notes.observe(AllObjectsQuery(), on: .main) { result in
    ///     if case .success(let notes) = result { render(notes) }
    /// }
    /// ```
    ///
    /// Answers come in commit order, one at a time, each read right after its commit: a
    /// ``SQLiteDatabase/write(_:)`` transaction is told once, never half-applied, and writes that queued up while
    /// the writer was busy, which commit together, are told together. A write that left the values as they were
    /// may be told or not. Rows are read on the writer and decoded off it, on a queue of the observation's own.
    /// Writes by other processes are not told.
    ///
    /// - Returns: The observation: keep it for as long as `handler` should hear; after its
    ///   `cancel()` returns (or it is released), no call starts.
    public func observe(
        _ query: any Query,
        on queue: some CallbackQueue,
        _ handler: @escaping @Sendable (Result<[Value], any Error>) -> Void
    ) -> DataObservation {
        let storage = self.storage
        let plan: SQLiteTable<Value>.Plan
        do {
            plan = try storage.plan(query)
        } catch {
            // A query this source cannot answer is told so once; there is nothing to watch.
            let delivery = ObservationDelivery<Value>(queue: queue, answer: { _ in [] }, handler: handler)
            delivery.receive(.failure(error))
            return DataObservation { delivery.cancel() }
        }
        let delivery = ObservationDelivery<Value>(
            queue: queue,
            answer: { rows in try storage.values(plan, from: rows) },
            handler: handler
        )
        let observer = TableObserver(table: storage.sql, selection: plan.selection) { delivery.receive($0) }
        let writer = database.writer
        // Added on the writer, between two transactions, and read there: its first answer is the state before
        // the next commit, and every commit after it is told.
        writer.schedule {
            writer.observers.add(observer)
            // Cancelled before it was added: the cancellation's removal came too early, so remove it here.
            guard !delivery.isCancelled else { return writer.observers.remove(observer) }
            let rows = Result { () throws(DataError) in
                try observer.table.rows(observer.selection, on: writer.connection)
            }
            observer.receive(rows)
        }
        return DataObservation { [observers = writer.observers] in
            delivery.cancel()
            observers.remove(observer)
        }
    }
}
