public import Interactors
import InteractorsData
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

extension PostgresTable {
    // MARK: Running a call

    /// The call `name`: `body` on a leased connection, within `deadline` (the table's by default).
    func call<T: Sendable>(
        _ name: String,
        deadline: Duration? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) -> PostgresCall<T> {
        PostgresCall(name: name, deadline: deadline ?? self.deadline, body: body)
    }

    /// Runs `call` and returns what it answers; throws its `DataError`, `storageFailed` once its deadline passes,
    /// or `CancellationError` at once when the calling task is cancelled (the call's statement is then cancelled).
    public func run<T: Sendable>(_ call: PostgresCall<T>) async throws -> T {
        let started = NIOLockedValueBox<RunningCall<T>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let running = start(call) { continuation.resume(with: $0) }
                started.withLockedValue { $0 = running }
                // Cancelled before `running` was there for the handler below to cancel.
                if Task.isCancelled { running.cancel() }
            }
        } onCancel: {
            started.withLockedValue { $0 }?.cancel()
        }
    }

    /// Starts `call` and returns its response at once; cancelling the response cancels the call (and its
    /// statement).
    public func response<T: Sendable>(_ call: PostgresCall<T>) -> Response<T> {
        let (response, resolver) = Response<T>.makePending()
        let running = start(call) { _ = resolver.resolve($0) }
        resolver.onCancel { running.cancel() }
        return response
    }

    /// Starts `call` in a task of its own, with a timer for its deadline; `deliver` gets the first of its outcome
    /// (errors as `DataError`s), its deadline, and its cancellation.
    private func start<T: Sendable>(
        _ call: PostgresCall<T>,
        deliver: @escaping @Sendable (Result<T, any Error>) -> Void
    ) -> RunningCall<T> {
        RunningCall(deadline: call.deadline, deliver: deliver) { [self] in
            do {
                return try await client.withConnection { connection in try await cancellable(call.body, on: connection)
                }
            } catch {
                if Task.isCancelled { throw CancellationError() }
                throw dataError(error, call.name)
            }
        } timedOut: { [sourceName] in
            DataError(
                code: .storageFailed,
                message: "\(sourceName).\(call.name): PostgreSQL did not answer within \(call.deadline)"
            )
        }
    }

    /// `body` on `connection`; if the task is cancelled meanwhile, the server is asked to cancel the statement
    /// running, and this returns only once that request is done.
    private func cancellable<T: Sendable>(
        _ body: @Sendable (PostgresConnection) async throws -> T,
        on connection: PostgresConnection
    ) async throws -> T {
        let backend = try await backends.process(of: connection, logger: logger)
        let cancelling = Cancelling()
        let outcome: Result<T, any Error>
        do {
            outcome = .success(
                try await withTaskCancellationHandler {
                    try await body(connection)
                } onCancel: { [location, logger] in
                    cancelling.start { await Self.cancelStatement(of: backend, at: location, logger: logger) }
                }
            )
        } catch {
            outcome = .failure(error)
        }
        await cancelling.finished()
        return try outcome.get()
    }

    /// Asks the server to cancel the statement that `backend` runs, over a connection of its own; a failure
    /// changes nothing (the statement runs to its end).
    private static func cancelStatement(of backend: Int32, at location: PostgresLocation, logger: Logger) async {
        let configuration = PostgresConnection.Configuration(
            host: location.host,
            port: location.port,
            username: location.username,
            password: location.password,
            database: location.database,
            tls: .disable
        )
        guard
            let connection = try? await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        else { return }
        _ = try? await connection.query("SELECT pg_cancel_backend(\(backend))", logger: logger)
        try? await connection.close()
    }
}

/// The server process behind each connection of the pool (`pg_backend_pid()`, asked once per connection), for
/// cancelling the statement it runs.
final class BackendProcesses: Sendable {
    private let processes = NIOLockedValueBox<[PostgresConnection.ID: Int32]>([:])

    /// The server process of `connection`.
    func process(of connection: PostgresConnection, logger: Logger) async throws -> Int32 {
        if let known = processes.withLockedValue({ $0[connection.id] }) { return known }
        var process: Int32 = 0
        for try await pid in try await connection.query("SELECT pg_backend_pid()", logger: logger).decode(Int32.self) {
            process = pid
        }
        processes.withLockedValue { processes in
            // Connections the pool closed leave their entries: forget them all now and then.
            if processes.count > 1000 { processes.removeAll() }
            processes[connection.id] = process
        }
        return process
    }
}

/// The request to cancel one call's statement: started at most once, and awaited before the call gives its
/// connection back.
private final class Cancelling: Sendable {
    private let request = NIOLockedValueBox<Task<Void, Never>?>(nil)

    func start(_ cancel: @escaping @Sendable () async -> Void) {
        request.withLockedValue { request in
            if request == nil { request = Task { await cancel() } }
        }
    }

    func finished() async {
        await request.withLockedValue { $0 }?.value
    }
}

/// One operation of a ``PostgresTable``: its name in messages, its deadline, and what it does on a leased
/// connection. ``PostgresTable/run(_:)`` awaits it; ``PostgresTable/response(_:)`` starts it as a `Response`.
public struct PostgresCall<T: Sendable>: Sendable {
    /// The operation's name: `get`, `put`…
    public let name: String
    /// How long it may take, waiting for a connection included.
    public let deadline: Duration
    let body: @Sendable (PostgresConnection) async throws -> T
}

/// A call under way: its task, the timer of its deadline, and the one place its outcome goes, the first of the
/// call's own outcome, its deadline, and its cancellation.
///
/// The task is not awaited past the deadline, nor past a cancellation: PostgresNIO 1.33 never answers a query
/// written on a connection that has just closed (`PostgresConnection.query` writes it with no promise, and a
/// closed channel drops it), which a server shutting down does to every connection of the pool. Such a call
/// answers at its deadline; its stuck task, holding the lease of a connection the pool has already let go, is what
/// is left behind.
private final class RunningCall<T: Sendable>: Sendable {
    private struct State {
        var deliver: (@Sendable (Result<T, any Error>) -> Void)?
        var task: Task<Void, Never>?
        var timer: Scheduled<Void>?
    }

    private let state: NIOLockedValueBox<State>

    init(
        deadline: Duration,
        deliver: @escaping @Sendable (Result<T, any Error>) -> Void,
        operation: @escaping @Sendable () async throws -> T,
        timedOut: @escaping @Sendable () -> any Error
    ) {
        state = NIOLockedValueBox(State(deliver: deliver))
        let task = Task { [self] in
            do {
                finish(.success(try await operation()))
            } catch {
                finish(.failure(error))
            }
        }
        // On an event loop of the pool's: a timer that takes no task and no thread.
        let timer = PostgresClient.defaultEventLoopGroup.any().scheduleTask(
            in: .nanoseconds(Int64(deadline / .nanoseconds(1)))
        ) { [self] in
            finish(.failure(timedOut()))
            cancel()
        }
        let finished = state.withLockedValue { state in
            (state.task, state.timer) = (task, timer)
            return state.deliver == nil
        }
        if finished { timer.cancel() }
    }

    /// Delivers `outcome` if nothing was delivered yet, and stops the timer.
    func finish(_ outcome: Result<T, any Error>) {
        let (deliver, timer) = state.withLockedValue { state in
            defer { state.deliver = nil }
            return (state.deliver, state.timer)
        }
        guard let deliver else { return }
        timer?.cancel()
        deliver(outcome)
    }

    /// Delivers `CancellationError` if nothing was delivered yet, and cancels the task (which cancels the statement).
    func cancel() {
        finish(.failure(CancellationError()))
        state.withLockedValue { $0.task }?.cancel()
    }
}
