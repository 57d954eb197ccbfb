import Interactors

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Threads a database owns, for one role (its writer, or its readers): a `WorkerPool` of the library's own
/// threads, never Dispatch's pool, as a `CallbackQueue` that knows whether the calling code runs on it.
///
/// The app may fill Dispatch's global pool with its own blocking work, and then anything queued there waits for
/// seconds; a database's reads, writes and answers run here instead and wait only for each other. Knowing its
/// own threads (``isCurrent``) lets a caller blocked on one of them run the work it waits for in its place
/// (`Response(on:)` work), rather than wait for a thread it holds, and lets the writer refuse work that could only
/// wait for itself.
final class SQLiteThreads: CallbackQueue {
    private let pool: WorkerPool

    /// At most `threads` threads named `name` (15 bytes at most: Linux keeps no more), started as work arrives.
    /// `replacingBlockedThreads`: a thread that blocks in a library wait is replaced meanwhile (the readers, which
    /// deliver answers to user code); never for the writer, whose one thread is what orders the writes.
    init(name: String, threads: Int, replacingBlockedThreads: Bool = true) {
        pool = WorkerPool(name: name, threads: threads, compensatesBlockedThreads: replacingBlockedThreads)
    }

    /// The threads' name, as `top -H`, debuggers and crash reports show it.
    var name: String { pool.name }

    /// Runs `job` on one of the threads, after the jobs scheduled before it.
    func schedule(_ job: @escaping @Sendable () -> Void) {
        pool.submit { [self] in
            let outer = pthread_getspecific(Self.currentKey)
            pthread_setspecific(Self.currentKey, Unmanaged.passUnretained(self).toOpaque())
            job()
            pthread_setspecific(Self.currentKey, outer)
        }
    }

    /// Whether the calling code runs in one of this pool's jobs.
    var isCurrent: Bool {
        pthread_getspecific(Self.currentKey) == Unmanaged.passUnretained(self).toOpaque()
    }

    /// Lets the threads exit once the jobs scheduled so far have run; a job scheduled later still runs, on a
    /// thread started for it.
    func shutDown() {
        pool.shutDown()
    }

    /// Which `SQLiteThreads` the calling thread is running a job of, if any.
    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "InteractorsSQLite: pthread_key_create failed (\(status))")
        return key
    }()
}
