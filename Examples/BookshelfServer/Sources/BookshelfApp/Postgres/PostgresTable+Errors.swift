import InteractorsData
import PostgresNIO

extension PostgresTable {
    /// `error`, thrown by PostgresNIO during `operation`, as the `DataError` a `SQLiteDataSource` would give, so the
    /// routes answer the same statuses over either store:
    ///
    /// - the server unreachable, a connection lost, the server shutting down or out of resources, a statement
    ///   cancelled, a conflict to retry (SQLSTATE classes 08, 53, 57, 58, 40), or the connection pool's own errors, or anything else: `storageFailed`
    ///   (503: try again);
    /// - data the server finds damaged (XX001, XX002): `corruptStore` (503);
    /// - a value or an id the server refuses (class 22: a NUL in a text, say): `invalidQuery` (400);
    /// - a stored body that no longer decodes as `Value`: `mappingFailed`.
    ///
    /// The message names the source, the operation, and the server's SQLSTATE and message; the `PSQLError` is the
    /// underlying error. (PostgresNIO's own description of a `PSQLError` says nothing, so no server detail
    /// reaches a log unasked; the SQLSTATE and message are what a client of the example is told.)
    func dataError(_ error: any Error, _ operation: String) -> DataError {
        let what = "\(sourceName).\(operation)"
        switch error {
        case let error as DataError:
            return error
        case let error as PostgresDecodingError:
            return DataError(
                code: .mappingFailed,
                message: "\(what): a stored body does not decode as \(Value.self) (\(error.code))",
                underlying: error
            )
        case let error as PSQLError:
            guard let state = error.serverInfo?[.sqlState] else {
                return DataError(code: .storageFailed, message: "\(what): PostgreSQL \(error.code)", underlying: error)
            }
            let message = "\(what): PostgreSQL \(state): \(error.serverInfo?[.message] ?? "")"
            let code: DataError.Code =
                state == "XX001" || state == "XX002"
                ? .corruptStore : state.hasPrefix("22") ? .invalidQuery : .storageFailed
            return DataError(code: code, message: message, underlying: error)
        case let error as PostgresTransactionError:
            // What went wrong inside the transaction, or at its BEGIN or COMMIT (after which the outcome is unknown).
            guard let cause = error.closureError ?? error.commitError ?? error.beginError else {
                return DataError(code: .storageFailed, message: "\(what): the transaction failed", underlying: error)
            }
            return dataError(cause, operation)
        default:
            return DataError(code: .storageFailed, message: "\(what): \(error)", underlying: error)
        }
    }
}
