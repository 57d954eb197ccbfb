public import Interactors

// MARK: Sending the pending writes

extension CacheRepository {
    /// Sends the pending writes to the main source, in the order they were made, one at a time, each as the call
    /// that made it would have sent it (a `PUT` or `DELETE` of a ``RESTDataSource``, whose retry policy applies);
    /// answers what it did. With ``PendingWrites/fail``, an empty report.
    ///
    /// ```swift
    /// let report = try notes.sync().get()
    /// print("sent \(report.sent.count), refused \(report.rejected.count), \(report.remaining) still waiting")
    /// ```
    ///
    /// - **Taken** (a 2xx; for a delete, a ``DataError/Code/notFound`` too): the write leaves the pending writes and
    ///   the cache keeps what the main source answered.
    /// - **Refused** (an error `fallback` does not accept: a 4xx other than 408 and 429, 409 and 412 included): the
    ///   write leaves the pending writes and is reported in ``SyncReport/rejected``; the cache drops its local value
    ///   and reads the id from the main source again (or evicts it, if that read fails), so the app never shows as
    ///   stored what the server refused.
    /// - **Unavailable again** (what `fallback` accepts): the sync stops there; that write (one more attempt, its
    ///   error) and those after it stay pending, and the sync succeeds: offline is not an error.
    ///
    /// It fails only when the cache cannot be read or written, with the store's ``DataError``.
    ///
    /// One sync at a time per store (a file, a database table, an in-memory source): a second `sync()` in this
    /// process while one runs answers that one's report; in another process (an app and its extension), it waits
    /// for the running one (``PendingWritesSyncKey``), then sends what is still pending. A write made while a sync
    /// runs is queued after the others, and sent by that sync if it gets there, else by the next one. Cancelling the
    /// response of the call that started a sync stops it after the write in flight, whose outcome is recorded; the
    /// calls that joined it get the report of what was done.
    ///
    /// A process killed after the server took a write but before its outcome was recorded sends that write again
    /// on its next sync: a `PUT` or `DELETE` sent twice leaves the server as once.
    public func sync() -> Response<SyncReport<Value.ID>> {
        guard let pendingStore else { return Response(value: .empty) }
        let key = pendingStore.pendingWritesSyncKey
        let (flight, isNew) = SyncFlights.shared.flight(for: key) { SyncFlight<Value>() }
        let report = flight.caller(stopsWhenCancelled: isNew)
        if isNew { SyncRun(self, pendingStore, key, flight).run() }
        return report
    }

    /// Stops the sync of this repository's store under way in this process, if any, after the write in flight.
    func stopSync() {
        guard let key = pendingStore?.pendingWritesSyncKey else { return }
        (SyncFlights.shared.running(key) as? SyncFlight<Value>)?.stop()
    }
}
