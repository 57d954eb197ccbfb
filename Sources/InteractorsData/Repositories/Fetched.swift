public import Foundation

/// A value a ``CacheRepository`` read, with where it came from and when it was stored: what a screen needs to
/// say "offline, last updated 10 minutes ago".
///
/// ```swift
/// let books = try repository.fetchAll(AllObjectsQuery()).get()
/// switch books.origin {
/// case .main: hideBanner()
/// case .cache: break
/// case .cacheAfterFailure(let error): showBanner("Offline (\(error)), last updated \(books.storedAt!)")
/// case .cacheWhileRefreshing: showBanner("Updating…")
/// }
/// ```
public struct Fetched<Value: Sendable>: Sendable {
    /// Which source answered, and, when the cache did, why.
    ///
    /// The cases are complete, and a `switch` over them may list them all: a repository has two sources, the main
    /// source answers or the cache does, and the cache answers because it was asked to, because the main source
    /// failed, or because the main source was late. Anything else an answer has to say about itself is a property
    /// of ``Fetched`` (as ``Fetched/isPending`` and ``Fetched/storedAt`` are), not a new origin.
    public enum Origin: Sendable {
        /// The main source answered.
        case main
        /// The cache answered, as the operation asked (a valid cached value, or ``RepositoryOperation/cache``).
        case cache
        /// The main source failed with this error, which the repository's fallback rule accepted, and the cache
        /// answered instead.
        case cacheAfterFailure(any Error)
        /// The main source had not answered within the repository's `answerFromCacheAfter`, and the cache answered
        /// what it had (at any age) while the read goes on: its answer updates the cache when it comes.
        case cacheWhileRefreshing
    }

    /// The value.
    public let value: Value
    /// Which source answered.
    public let origin: Origin
    /// When the repository stored what the cache answered (for a list, when the list was stored; for several
    /// values without a list, the oldest of their times); nil when the main source answered, when the time is
    /// unknown (a value put straight into the cache), and for a `getAll` with ``RepositoryOperation/cache``, which
    /// asks the cache as it is.
    public let storedAt: Date?
    /// Whether the answer shows a write that waits for the main source (a repository with ``PendingWrites/keep``):
    /// a value with a pending put, or a list that holds one or that a pending delete changed.
    public let isPending: Bool

    /// A value from `origin`, stored at `storedAt`; `isPending` if it shows a write that waits for the main source.
    public init(value: Value, origin: Origin, storedAt: Date?, isPending: Bool = false) {
        self.value = value
        self.origin = origin
        self.storedAt = storedAt
        self.isPending = isPending
    }
}

extension Fetched.Origin: CustomStringConvertible {
    /// `main`, `cache`, `cacheWhileRefreshing`, or `cacheAfterFailure(…)` with the error as
    /// ``DataError/describe(_:)`` words it: readable on every platform (a `URLError` included), safe to log.
    public var description: String {
        switch self {
        case .main: "main"
        case .cache: "cache"
        case .cacheAfterFailure(let error): "cacheAfterFailure(\(DataError.describe(error)))"
        case .cacheWhileRefreshing: "cacheWhileRefreshing"
        }
    }
}
