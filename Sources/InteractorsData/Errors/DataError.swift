/// Why a data source, repository or mapping failed: a ``Code`` to branch on, a message that names the query, the
/// source or the file involved, and the error behind it, if any.
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

        /// The code's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code

    /// What happened, naming the query, the source or the file.
    public let message: String

    /// The error behind this one, if any: what a mapper threw, a decoding error, a system error.
    public let underlying: (any Error)?

    /// Makes an error with `code`, a message, and the error behind it.
    public init(code: Code, message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// `DataError.<code>: <message>`, and the underlying error when there is one.
    public var description: String {
        var text = "DataError.\(code): \(message)"
        if let underlying { text += " (\(underlying))" }
        return text
    }
}

// MARK: - Common failures

extension DataError {
    package static func notFound(_ query: any Query, in source: String) -> DataError {
        DataError(code: .notFound, message: "nothing matches \(query) in \(source)")
    }

    package static func queryNotSupported(_ query: any Query, by source: String) -> DataError {
        DataError(code: .queryNotSupported, message: "\(source) cannot answer \(query)")
    }
}
