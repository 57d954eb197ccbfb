import Dispatch
import Interactors
import InteractorsData

/// The one writer of a ``SQLiteDatabase``: a serial queue that owns the write connection and commits the writes
/// that queued up meanwhile in one transaction (group commit), each inside a savepoint of its own.
///
/// Why group commit: with `synchronous = FULL` every commit waits for the disk, so a burst of puts issued back to
/// back would wait for it once per put. Here they share one `BEGIN IMMEDIATE` … `COMMIT`: one sync for the whole
/// burst, and none of them is answered before it. A write that fails is rolled back to its savepoint alone and
/// answers its own error; the others commit. Writes keep the order they were issued in.
///
/// Everything that uses the connection runs as a job of this `CallbackQueue` (a drain, an observer's
/// registration, a read of an in-memory database), so the writer knows when none is left: releasing the database
/// closes the connection then, at once if it is idle, after its last job otherwise.
final class SQLiteWriter: CallbackQueue, @unchecked Sendable {
    // @unchecked Sendable: `connection` is used on `queue` only (and closed once no job is left); `state` is
    // guarded by its lock.

    private struct State {
        var pending: [QueuedWrite] = []
        /// Jobs scheduled on `queue` and not yet finished.
        var jobs = 0
        /// The database was released: close the connection once `jobs` is 0.
        var isClosing = false
    }

    let queue: DispatchQueue
    let connection: SQLiteConnection
    let observers = TableObservers()
    private let state = LockedBox(State())

    init(connection: SQLiteConnection) {
        self.connection = connection
        self.queue = DispatchQueue(label: "InteractorsSQLite writer \(connection.location)")
    }

    /// Whether the calling code runs on the writer (inside a write's body, or an observer's registration).
    var isCurrent: Bool { queue.isCurrent }

    /// Whether a write's body is running; read and written on the writer only.
    private var isRunningBody = false

    /// Whether the calling code runs inside a write's body, which holds the writer and its open transaction.
    var isInsideBody: Bool { isCurrent && isRunningBody }

    /// Runs `job` on the writer's queue, after the jobs scheduled before it.
    func schedule(_ job: @escaping @Sendable () -> Void) {
        scheduleJob {
            job()
            return nil
        }
    }

    /// Runs `job` on the writer's queue; what it returns runs once the job counts as finished, off the writer:
    /// the answers to the job's callers. Off the writer, so that a handler run where the response settles
    /// (`.immediate`) never runs on it: one that waited there for another write would wait for itself. After
    /// the job, so that a caller who then releases the database finds its file closed.
    private func scheduleJob(_ job: @escaping @Sendable () -> (@Sendable () -> Void)?) {
        state.withLock { $0.jobs += 1 }
        queue.async {
            let answer = job()
            let mustClose = self.state.withLock { state in
                state.jobs -= 1
                return state.jobs == 0 && state.isClosing
            }
            if mustClose { self.connection.close() }
            if let answer { DispatchQueue.global().async(execute: answer) }
        }
    }

    /// Closes the connection once no job is left: now if the writer is idle. Called once, when the database is
    /// released (nothing can schedule a new job then).
    func close() {
        let isIdle = state.withLock { state in
            state.isClosing = true
            return state.jobs == 0
        }
        if isIdle { connection.close() }
    }

    // MARK: Queueing writes

    /// Queues `body` as one write; its response succeeds with what `body` returns once the transaction holding it
    /// has committed, or fails with what it threw (or the first error of its writes), having changed nothing.
    func enqueue<T: Sendable>(_ body: @escaping @Sendable (SQLiteTransaction) throws -> T) -> Response<T> {
        let (response, resolver) = Response<T>.makePending()
        let write = QueuedWrite(
            isCancelled: { resolver.isCancelled },
            run: { transaction in
                var result = Result { try body(transaction) }
                if case .success = result, let failure = transaction.firstFailure { result = .failure(failure) }
                switch result {
                case .success(let value):
                    return WriteOutcome(succeeded: true) { failure in
                        if let failure { resolver.fail(failure) } else { resolver.succeed(value) }
                    }
                case .failure(let error):
                    return WriteOutcome(succeeded: false) { _ in resolver.fail(error) }
                }
            },
            fail: { resolver.fail($0) }
        )
        state.withLock { $0.pending.append(write) }
        scheduleJob { self.commitPending() }
        return response
    }

    /// Runs `body` on the writer now, in an immediate transaction of its own, and waits for it: for creating a
    /// source's table. Not from the writer itself (that would wait for itself).
    func runNow(_ body: @escaping @Sendable (SQLiteConnection) throws(DataError) -> Void) throws(DataError) {
        guard !isCurrent else {
            throw .misuse(
                "create a SQLiteDataSource outside its database's write(_:) bodies (off its writer), not inside one"
            )
        }
        let outcome: Result<Void, DataError> = queue.sync {
            Result { () throws(DataError) in
                try connection.run("BEGIN IMMEDIATE")
                do throws(DataError) {
                    try body(connection)
                    try connection.run("COMMIT")
                } catch {
                    if connection.isInTransaction { try? connection.run("ROLLBACK") }
                    throw error
                }
            }
        }
        try outcome.get()
    }

    // MARK: Committing

    /// Applies every queued write, in order, in one transaction, and tells the observers; answers how to answer
    /// each write, once the job has ended.
    private func commitPending() -> (@Sendable () -> Void)? {
        let writes = state.withLock { state in
            defer { state.pending.removeAll() }
            return state.pending
        }.filter { !$0.isCancelled() }
        guard !writes.isEmpty else { return nil }
        do throws(DataError) {
            try connection.run("BEGIN IMMEDIATE")
        } catch {
            let failures = writes.map(\.fail)
            return { for fail in failures { fail(error) } }
        }
        var outcomes: [WriteOutcome] = []
        var changedTables: Set<String> = []
        var lost: (error: DataError, failures: [@Sendable (any Error) -> Void])?
        for write in writes {
            if lost != nil {
                lost?.failures.append(write.fail)
                continue
            }
            do throws(DataError) {
                outcomes.append(try apply(write, alone: writes.count == 1, changedTables: &changedTables))
            } catch {
                lost = (error, [write.fail])
            }
        }
        let failure = lost.map { rollBack($0.error) } ?? commit()
        // What the observers of the changed tables see now, read before the next transaction can begin: the state
        // right after this commit, told once for all its writes (none of them was visible alone).
        if failure == nil {
            for update in observers.updates(afterChanging: changedTables, on: connection) { update.deliver() }
        }
        // The writes (whose bodies hold their sources, and they their database) are released when this returns,
        // before anyone is answered.
        let failures = lost?.failures ?? []
        return { [outcomes] in
            for outcome in outcomes { outcome.answer(failure) }
            for fail in failures { fail(failure!) }
        }
    }

    /// Runs one write inside a savepoint (the transaction itself when it is the only write): kept if it
    /// succeeded (its tables added to `changedTables`), rolled back if it failed. Throws only if the transaction
    /// itself was lost.
    private func apply(
        _ write: QueuedWrite,
        alone: Bool,
        changedTables: inout Set<String>
    ) throws(DataError)
        -> WriteOutcome
    {
        if !alone { try connection.run("SAVEPOINT write") }
        let transaction = SQLiteTransaction(writer: self)
        isRunningBody = true
        let outcome = write.run(transaction)
        isRunningBody = false
        transaction.close()
        guard connection.isInTransaction else {
            // SQLite rolled the whole transaction back by itself (a full disk, an I/O error): every write of it
            // fails with the error that did it.
            throw transaction.firstFailure ?? .misuse("SQLite rolled back the transaction of \(connection.location)")
        }
        if outcome.succeeded {
            if !alone { try connection.run("RELEASE write") }
            changedTables.formUnion(transaction.changedTables)
        } else if alone {
            try connection.run("ROLLBACK")
        } else {
            try connection.run("ROLLBACK TO write")
            try connection.run("RELEASE write")
        }
        return outcome
    }

    /// Commits the open transaction, if a write is left in it; the error that undid it if it could not.
    private func commit() -> DataError? {
        guard connection.isInTransaction else { return nil }
        do throws(DataError) {
            try connection.run("COMMIT")
            return nil
        } catch {
            return rollBack(error)
        }
    }

    /// Rolls back what is left of the open transaction, if anything; answers `error`, the reason.
    private func rollBack(_ error: DataError) -> DataError {
        if connection.isInTransaction { try? connection.run("ROLLBACK") }
        return error
    }
}
