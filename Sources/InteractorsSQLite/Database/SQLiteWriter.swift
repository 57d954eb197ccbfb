import Dispatch
import Interactors
import InteractorsData

/// The one writer of a ``SQLiteDatabase``: a thread of the database's own that owns the write connection and
/// commits the writes that queued up meanwhile in one transaction (group commit), each inside a savepoint of its
/// own.
///
/// Why group commit: with `synchronous = FULL` every commit waits for the disk, so a burst of puts issued back to
/// back would wait for it once per put. Here they share one `BEGIN IMMEDIATE` … `COMMIT`: one sync for the whole
/// burst, and none of them is answered before it. A write that fails is its own failure: rolled back to its
/// savepoint alone, or, when the failure took the whole transaction with it (a full disk, an I/O error), the
/// group is committed again write by write. Writes keep the order they were issued in.
///
/// Everything that uses the connection runs as a job here (a drain, a source's table creation, an in-memory
/// database's reads and observers' reads), so the writer knows when none is left: releasing the database closes
/// the connection then, at once if it is idle, after its last job otherwise, and lets the thread end.
final class SQLiteWriter: CallbackQueue, @unchecked Sendable {
    // @unchecked Sendable: `connection`, `generation`, `hasFoldedLog`, `lostTransaction` and `isRunningBody` are
    // used on the writer's thread only (and the connection closed once no job is left); `state` is guarded by its
    // lock.

    private struct State {
        var pending: [QueuedWrite] = []
        /// Jobs scheduled and not yet finished.
        var jobs = 0
        /// The database was released: close the connection once `jobs` is 0.
        var isClosing = false
    }

    /// The writer's thread, `ix.sqlite.write`.
    let threads = SQLiteThreads(name: "ix.sqlite.write", threads: 1, replacingBlockedThreads: false)
    /// Where the writes' callers are answered: the database's reader threads, never the writer's own, so that no
    /// handler or stage ever runs on the writer (one that waited there for another write would wait for itself).
    let answers: SQLiteThreads
    /// The database file; nil in memory.
    let file: DatabaseFile?
    let observers: TableObservers
    private let state = LockedBox(State())

    /// The write connection, of the file's `generation`.
    private(set) var connection: SQLiteConnection
    private(set) var generation: Int
    /// Whether the log was folded into the file after the file was found moved or deleted, and the connection
    /// closed.
    var hasFoldedLog = false
    /// The error that ended the open transaction, once SQLite rolled it back by itself: every later write of the
    /// body fails with it (rather than run in autocommit mode, committing at once).
    var lostTransaction: DataError?

    init(
        connection: SQLiteConnection,
        generation: Int,
        file: DatabaseFile?,
        answers: SQLiteThreads,
        observers: TableObservers
    ) {
        self.connection = connection
        self.generation = generation
        self.file = file
        self.answers = answers
        self.observers = observers
    }

    /// Whether the calling code runs on the writer (inside a write's body, or another of its jobs).
    var isCurrent: Bool { threads.isCurrent }

    /// Whether a write's body is running; read and written on the writer only.
    var isRunningBody = false

    /// Whether the calling code runs inside a write's body, which holds the writer and its open transaction.
    var isInsideBody: Bool { isCurrent && isRunningBody }

    /// Runs `job` on the writer, after the jobs scheduled before it.
    func schedule(_ job: @escaping @Sendable () -> Void) {
        scheduleJob {
            job()
            return nil
        }
    }

    /// Runs `job` on the writer; what it returns runs on the writer once the job counts as finished (so that a
    /// caller who then releases the database finds its file closed): it hands the callers' answers to the reader
    /// threads, as jobs that settle their responses there.
    func scheduleJob(_ job: @escaping @Sendable () -> (@Sendable () -> Void)?) {
        state.withLock { $0.jobs += 1 }
        threads.schedule {
            let answer = job()
            let mustClose = self.state.withLock { state in
                state.jobs -= 1
                return state.jobs == 0 && state.isClosing
            }
            if mustClose { self.closeNow() }
            answer?()
        }
    }

    /// Closes the connection once no job is left: now if the writer is idle. Called once, when the database is
    /// released (nothing can schedule a new job then).
    func close() {
        let isIdle = state.withLock { state in
            state.isClosing = true
            return state.jobs == 0
        }
        if isIdle { closeNow() }
    }

    private func closeNow() {
        if let file, file.lost != nil {
            // Moved or deleted behind the database's back: the log is emptied into the file wherever it went, and
            // the files at the path, which may be another database's by now, are neither checkpointed nor deleted.
            foldLogIntoMovedFile()
        } else if let file, file.generation != generation {
            // Moved aside since this connection opened it: the files at the path are the fresh database's.
            connection.closeKeepingLogFiles()
        } else {
            connection.close()
        }
        threads.shutDown()
    }

    /// The writes queued since the last drain, each committed to its outcome as its transaction begins, less those
    /// whose response was cancelled meanwhile (withdrawn: nothing of them is written).
    func takePending() -> [QueuedWrite] {
        state.withLock { state in
            defer { state.pending.removeAll() }
            return state.pending
        }.filter { $0.begin() }
    }

    // MARK: Queueing writes

    /// Queues `body` as one write; its response succeeds with what `body` returns once the transaction holding it
    /// has committed, or fails with what it threw (or the first error of its writes), having changed nothing.
    /// `body` may run more than once (see ``SQLiteDatabase/write(_:)``); only its last run counts.
    ///
    /// The response commits to its outcome when the writer takes the write into its transaction, and is settled on
    /// a reader thread, as a job of its own: a caller blocked there waiting for it has its thread replaced
    /// meanwhile (the reader threads compensate a blocked thread), so the job runs.
    func enqueue<T: Sendable>(_ body: @escaping @Sendable (SQLiteTransaction) throws -> T) -> Response<T> {
        let (response, resolver) = Response<T>.makePending()
        let answers = self.answers
        let write = QueuedWrite(
            begin: { resolver.commitToOutcome() },
            run: { transaction in
                var result = Result { try body(transaction) }
                if case .success = result, let failure = transaction.firstFailure { result = .failure(failure) }
                let outcome = result
                return WriteOutcome(succeeded: (try? outcome.get()) != nil) {
                    answers.schedule { resolver.resolve(outcome) }
                }
            },
            fail: { error in answers.schedule { resolver.fail(error) } }
        )
        state.withLock { $0.pending.append(write) }
        scheduleJob { self.commitPending() }
        return response
    }

    /// Runs `body` on the writer now, in a transaction of its own, and waits for it: for creating a source's
    /// table. Not from the writer itself (that would wait for itself).
    ///
    /// The transaction is deferred: it takes the write lock only if `body` writes, so creating tables that exist
    /// already never waits for another process's write.
    func runNow(_ body: @escaping @Sendable (SQLiteConnection) throws(DataError) -> Void) throws(DataError) {
        guard !isCurrent else {
            throw .misuse(
                "create a SQLiteDataSource outside its database's write(_:) bodies (off its writer), not inside one"
            )
        }
        let outcome = LockedBox<Result<Void, DataError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        scheduleJob {
            outcome.withLock { $0 = self.runAlone(body) }
            done.signal()
            return nil
        }
        done.wait()
        try outcome.withLock { $0! }.get()
    }

    /// Runs `body` in a transaction of its own on the writer's thread: deferred first, immediate if SQLite could
    /// not upgrade it (another connection wrote meanwhile: `SQLITE_BUSY_SNAPSHOT`); again on a fresh file if the
    /// file was damaged and is moved aside.
    private func runAlone(_ body: (SQLiteConnection) throws(DataError) -> Void) -> Result<Void, DataError> {
        var movedAside = false
        var begin = "BEGIN DEFERRED"
        while true {
            do throws(DataError) {
                try prepareConnection()
                try connection.run(begin)
                do throws(DataError) {
                    try body(connection)
                    try connection.run("COMMIT")
                } catch {
                    if connection.isInTransaction { try? connection.run("ROLLBACK") }
                    throw error
                }
                return .success(())
            } catch {
                if begin == "BEGIN DEFERRED", error.isBusy {
                    begin = "BEGIN IMMEDIATE"
                    continue
                }
                guard let corruption = error.corruption, let file, file.ifCorrupt == .moveAside, !movedAside else {
                    return .failure(error)
                }
                movedAside = true
                do throws(DataError) {
                    try file.moveAside(seenIn: generation, corruption)
                } catch {
                    return .failure(error)
                }
            }
        }
    }

    // MARK: The connection's file

    /// Makes sure the connection has the file at the path open, on the writer's thread before it uses it: opens
    /// it again if this database moved the file aside; fails if someone else moved or deleted it, after folding
    /// the log into the file it has open (once).
    func prepareConnection() throws(DataError) {
        guard let file else { return }
        switch file.standing(of: connection, openedIn: generation) {
        case .current:
            return
        case .stale:
            let (reopened, generation) = try file.open(.write)
            connection.closeKeepingLogFiles()
            connection = reopened
            self.generation = generation
        case .lost(let error):
            foldLogIntoMovedFile()
            throw error
        }
    }

    /// Once the file was found moved or deleted: moves what the log holds into the file this connection has open,
    /// wherever it went, and empties the log (`PRAGMA wal_checkpoint(TRUNCATE)`), so that a file moved elsewhere
    /// keeps everything acknowledged before the move, and the log left at the path holds nothing that could be
    /// read into another file put there later; then closes the connection, leaving the files at the path, which
    /// the next database there will use (nothing uses the connection again: every job fails from now on).
    func foldLogIntoMovedFile() {
        guard !hasFoldedLog else { return }
        hasFoldedLog = true
        if connection.isInTransaction { try? connection.run("ROLLBACK") }
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.closeKeepingLogFiles()
    }
}
