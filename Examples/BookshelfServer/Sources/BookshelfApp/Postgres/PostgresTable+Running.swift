import InteractorsData
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

extension PostgresTable {
    // MARK: Running a call

    /// `body` on a leased connection, within the deadline; what it throws as a `DataError` (or
    /// `CancellationError`). A cancelled call has the server cancel the statement it runs (see the type's comment).
    func run<T: Sendable>(
        _ operation: String,
        deadline: Duration? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let deadline = deadline ?? self.deadline
        do {
            return try await withDeadline(deadline) { [self] in
                try await client.withConnection { connection in try await cancellable(body, on: connection) }
            }
        } catch is DeadlinePassed {
            throw DataError(
                code: .storageFailed,
                message: "\(sourceName).\(operation): PostgreSQL did not answer within \(deadline)"
            )
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw dataError(error, operation)
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
