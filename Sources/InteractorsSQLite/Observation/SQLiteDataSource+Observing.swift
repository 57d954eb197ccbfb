public import Interactors
public import InteractorsData

// MARK: Observing

extension SQLiteDataSource {
    /// Tells `handler`, on `queue`, what `getAll(query)` answers: first at once, then after committed writes to
    /// this source's table through this process's sources of its database.
    ///
    /// ```swift
    /// observation = notes.observe(AllObjectsQuery(), on: .main) { result in
    ///     if case .success(let notes) = result { render(notes) }
    /// }
    /// ```
    ///
    /// Each answer is a committed state, read at or after the commit that changed the table, on one of the
    /// database's reader threads (never on the writer, so an observer costs a write next to nothing, however much
    /// it selects), and decoded there; answers are told one at a time, in commit order, and never go back in
    /// time. A ``SQLiteDatabase/write(_:)`` transaction is never told half-applied, and writes that committed
    /// together are told together. An observer still busy with an answer (its read, or its handler) is not told
    /// every commit that came in meanwhile: once it is free it is told at most two states, the newest last, so
    /// intermediate states may be skipped and memory stays bounded, but the last state is always told. A write
    /// that left the values as they were may be told or not. Writes by other processes are not told.
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
            let delivery = ObservationDelivery<Value>(queue: queue, read: { _ in }, handler: handler)
            delivery.tellOnce(.failure(error))
            return DataObservation { delivery.cancel() }
        }
        let delivery = ObservationDelivery<Value>(
            queue: queue,
            // Weakly: an observation kept after its database and sources were released does not keep the file
            // open (it hears nothing more).
            read: { [weak database] tell in
                database?.readForObserver { connection throws(DataError) in
                    try storage.sql.rows(plan.selection, on: connection)
                } decode: { rows throws(DataError) in
                    try storage.values(plan, from: rows)
                } then: { answer in
                    tell(answer.mapError { $0 })
                }
            },
            handler: handler
        )
        let observer = TableObserver(table: storage.sql) { delivery.changed() }
        let observers = database.observers
        // Added before the first read starts: a commit after this is told, and one before it is in the first read.
        observers.add(observer)
        delivery.changed()
        return DataObservation {
            delivery.cancel()
            observers.remove(observer)
        }
    }
}
