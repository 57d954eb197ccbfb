import Interactors

/// Where the writer hands its callers' answers: the database's reader threads, as the queue of `Response(on:)`
/// work (see ``SQLiteWriter/answer(_:_:)``), holding back the work the writer hands over while it settles a job's
/// answers until it has settled them all.
///
/// Why hold it back: the writer settles an internal response whose stage makes the caller's answer as work on
/// this queue and then links the caller's response to it. A reader thread that ran the work before the link was
/// made would leave the link to find it settled, and the caller's response would then settle, and run its
/// `.immediate` handlers, on the writer: a handler there that waited for another write would wait for itself.
final class AnswerQueue: CallbackQueue, @unchecked Sendable {
    // @unchecked Sendable: `held` is read and written on the writer's thread only (by `holding(_:)`, and by
    // `schedule(_:)` when called from inside it).

    /// The database's reader threads.
    let readers: SQLiteThreads
    /// The writer's thread, whose work is held back while it settles answers.
    private let writer: SQLiteThreads
    /// The work scheduled from the writer while it settles answers; nil when it is not.
    private var held: [@Sendable () -> Void]?

    init(readers: SQLiteThreads, writer: SQLiteThreads) {
        self.readers = readers
        self.writer = writer
    }

    func schedule(_ job: @escaping @Sendable () -> Void) {
        if writer.isCurrent, held != nil {
            held?.append(job)
        } else {
            readers.schedule(job)
        }
    }

    /// On a reader thread: a caller blocked there runs the answer it waits for in its place.
    var isCurrent: Bool { readers.isCurrent }

    /// Runs `settle` on the writer, handing the work it schedules here to the reader threads once it returns.
    func holding(_ settle: () -> Void) {
        precondition(writer.isCurrent && held == nil, "InteractorsSQLite: answers are settled by the writer, once")
        held = []
        settle()
        let jobs = held ?? []
        held = nil
        for job in jobs { readers.schedule(job) }
    }
}
