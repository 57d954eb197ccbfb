public import Foundation

/// Why a data source, repository or mapping failed: a ``Code`` to branch on, a message that names the query, the
/// source or the file involved, and the error behind it, if any.
///
/// Its ``description`` and ``message`` are safe to show or return to a client: a file is named by its file name,
/// never its absolute path (that stays in ``fileURL``, for logs), a URL without its query values, and the error
/// behind it as ``describe(_:)`` words it.
///
/// ```swift
/// do {
///     let note = try repository.get(IdQuery("n1")).get()
/// } catch let error as DataError where error.code == .notFound {
///     showEmptyState()
/// }
/// ```
public struct DataError: Error, CustomStringConvertible {
    /// The kind of failure. Extensible: new codes may be added, so don't switch over them exhaustively.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) { self.name = name }

        /// Nothing matches the query: `get` of a missing id, or a server that answered 404.
        public static let notFound = Code("notFound")

        /// The source cannot answer this kind of query (an ``IdQuery`` of another id type included).
        public static let queryNotSupported = Code("queryNotSupported")

        /// A value could not be converted: a mapper threw, or a body did not decode. ``DataError/underlying``
        /// holds the error the conversion threw.
        public static let mappingFailed = Code("mappingFailed")

        /// A stored file is damaged, or is not one this source can read (corrupt, truncated, or another program's).
        /// The message says what became of the file: left as it is, still in use (a database that stays open on
        /// it), or moved aside where the source was told to (`FileDataSource`'s `corruptFile: .moveAside`,
        /// `SQLiteDatabase`'s `ifCorrupt: .moveAside`).
        public static let corruptStore = Code("corruptStore")

        /// The storage itself failed: a file could not be read, written or renamed (permissions, a full disk).
        /// ``DataError/underlying`` holds the system's error.
        public static let storageFailed = Code("storageFailed")

        /// The query cannot be sent as it is: an id that is empty, `"."` or `".."` would name another resource in
        /// a URL, so ``RESTDataSource`` refuses it before sending anything.
        public static let invalidQuery = Code("invalidQuery")

        /// A batch (`putAll`, `deleteAll` of an ``IdsQuery``) was applied in part: the ids in
        /// ``DataError/failedIDs`` failed, every other one was stored or deleted. ``DataError/underlying`` is the
        /// first failure. A batch where nothing was applied fails with its first failure instead.
        public static let partiallyApplied = Code("partiallyApplied")

        /// The value exists already: a create-only put (`put(_:ifAbsent: true)`) found a value with its id (a
        /// server answered `412 Precondition Failed` to its `If-None-Match: *`), and nothing was written.
        public static let conflict = Code("conflict")

        // MARK: Pending writes (a CacheRepository with `pendingWrites: .keep`)

        /// The main source could not take a write for now (the server unreachable, a timeout, 5xx, 408, 429): what a
        /// ``PendingWrite`` left for later keeps as its ``PendingWrite/lastError``. ``DataError/underlying`` is the
        /// source's error while the process that met it lives.
        public static let unavailable = Code("unavailable")

        /// The main source refused a write (a 4xx other than 408 and 429): what a ``SyncReport`` says of a pending
        /// write the server refused. ``DataError/underlying`` is the source's error (an ``HTTPError``).
        public static let rejected = Code("rejected")

        /// The code named `name`, as a store that keeps an error's code by its name reads it back.
        package static func named(_ name: String) -> Code { Code(name) }

        /// The code's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code

    /// What happened, naming the query, the source or the file.
    public let message: String

    /// The error behind this one, if any: what a mapper threw, a decoding error, a system error.
    public let underlying: (any Error)?

    /// The file the failure concerns, with its full path, for logs: a ``FileDataSource``'s file, a SQLite
    /// database. The ``message`` names it by its file name only. Nil when no file is concerned.
    public var fileURL: URL?

    /// For ``Code/partiallyApplied``, the ids of the values the batch did not store or delete, in the batch's
    /// order; empty for every other error.
    public var failedIDs: [AnyHashable] {
        get { failedIDStorage.ids }
        set { failedIDStorage.ids = newValue }
    }

    /// `AnyHashable` is not `Sendable`; the ids it wraps are (every data source's `Value.ID` is).
    private struct FailedIDs: @unchecked Sendable {
        var ids: [AnyHashable]
        /// Each failed id's own error, in the order of `ids`, when the batch said (see ``batch(_:of:in:failures:applied:)``).
        var errors: [any Error] = []
    }

    private var failedIDStorage: FailedIDs

    /// What a partly applied batch did apply, for a ``CacheRepository`` to keep: the values a `putAll` stored, as
    /// the source answered them. Nil when the source did not say.
    package var appliedValues: (any Sendable)?

    /// For ``Code/partiallyApplied``, each failed id's own error, in the order of ``failedIDs``; empty when the
    /// source did not say. A repository that keeps pending writes tells by it which ids failed for now.
    package var failureErrors: [any Error] {
        get { failedIDStorage.errors }
        set { failedIDStorage.errors = newValue }
    }

    /// Makes an error with `code`, a message, the error behind it, for ``Code/partiallyApplied`` the ids that
    /// failed, and the file it concerns.
    public init(
        code: Code,
        message: String,
        underlying: (any Error)? = nil,
        failedIDs: [AnyHashable] = [],
        fileURL: URL? = nil
    ) {
        self.code = code
        self.message = message
        self.underlying = underlying
        self.failedIDStorage = FailedIDs(ids: failedIDs)
        self.fileURL = fileURL
    }

    /// `DataError.<code>: <message>`, and the underlying error when there is one, as ``describe(_:)`` words it.
    public var description: String {
        var text = "DataError.\(code): \(message)"
        if let underlying { text += " (\(Self.describe(underlying)))" }
        return text
    }

    /// This error, concerning the file at `url` unless it names one already.
    package func concerning(_ url: URL?) -> DataError {
        guard fileURL == nil else { return self }
        var located = self
        located.fileURL = url
        return located
    }
}

// MARK: - Common failures

extension DataError {
    package static func notFound(_ query: any Query, in source: String) -> DataError {
        DataError(code: .notFound, message: "nothing matches \(query) in \(source)")
    }

    package static func conflict(_ id: some Sendable, in source: String) -> DataError {
        DataError(code: .conflict, message: "\(source) already holds a value with id \(id); nothing was written")
    }

    /// The failure of a conditional write (`what`: "put only if absent") asked of a source or repository that
    /// cannot read, so cannot check its condition.
    package static func cannotCheck(_ what: String, by type: Any.Type) -> DataError {
        DataError(code: .queryNotSupported, message: "\(type) cannot \(what): it does not read")
    }

    package static func queryNotSupported(_ query: any Query, by source: String) -> DataError {
        DataError(code: .queryNotSupported, message: "\(source) cannot answer \(query)")
    }

    /// The failure of a batch over `ids` (in batch order) where the ids in `failures` failed, each with its error:
    /// ``Code/partiallyApplied`` if some were applied, else the first failure; nil if none failed. `applied` is
    /// what was applied, for ``appliedValues``.
    package static func batch<ID: Hashable & Sendable>(
        _ operation: String,
        of ids: [ID],
        in source: String,
        failures: [(id: ID, error: any Error)],
        applied: (any Sendable)? = nil
    ) -> (any Error)? {
        guard let first = failures.first else { return nil }
        guard failures.count < ids.count else { return first.error }
        let failed = failures.map(\.id)
        var error = DataError(
            code: .partiallyApplied,
            message: "\(operation) applied \(ids.count - failed.count) of \(ids.count) in \(source); failed: "
                + failed.map { "\($0)" }.joined(separator: ", "),
            underlying: first.error,
            failedIDs: failed.map { AnyHashable($0) }
        )
        error.appliedValues = applied
        error.failureErrors = failures.map(\.error)
        return error
    }
}
