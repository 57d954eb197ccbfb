import Foundation
import Interactors

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension CacheRepository {
    /// The default rule for which main-source failures the cache may stand in for: those that say the server
    /// could not be reached or could not answer.
    ///
    /// - Yes: a `URLError` other than `cancelled` and `httpTooManyRedirects` (no connection, a timeout, a lost
    ///   connection), a `timeout(after:)` that fired (`ResponseError.timedOut`), ``HTTPError`` 5xx, 408 and 429.
    /// - No: every other ``HTTPError`` (401, 403, 410...: the server answered), cancellation
    ///   (`CancellationError`, `URLError.cancelled`), a body that did not decode (``DataError/Code/mappingFailed``),
    ///   ``DataError/Code/notFound`` (the server's word), and anything else.
    ///
    /// Compose it for rules of your own: `fallback: { CacheRepository<Book>.serverUnavailable($0) || isMaintenance($0) }`.
    ///
    /// It is also ``HTTPRetryPolicy``'s default rule. It knows nothing of methods: to retry writes, give an
    /// ``HTTPRetryPolicy`` to the ``RESTDataSource`` or to ``HTTPClient/send(_:retry:)``, which never sends a POST
    /// or a PATCH again after a timeout or a status, rather than wrapping the call in `Response.retry` with this
    /// rule.
    public static func serverUnavailable(_ error: any Error) -> Bool {
        if let error = error as? URLError {
            return error.code != .cancelled && error.code != .httpTooManyRedirects
        }
        if let error = error as? ResponseError { return error.code == .timedOut }
        if let error = error as? HTTPError {
            return (500...599).contains(error.status) || error.status == 408 || error.status == 429
        }
        return false
    }

    /// The default report of a cache failure: one line on standard error.
    @Sendable public static func reportToStandardError(_ error: DataError) {
        writeToStandardError(
            "InteractorsData: CacheRepository<\(Value.self)>: the cache failed; the main source's answer stands: \(error)"
        )
    }
}
