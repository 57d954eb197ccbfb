/// Why a ``Response`` failed when the failure came from the response machinery rather than from the work.
///
/// Compare with the static members: `error as? ResponseError == .timedOut`.
public struct ResponseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure. Extensible: new codes may be added, so don't switch over them exhaustively.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case timedOut
            case abandoned
            case allFailed
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        /// The response did not settle within the time a caller was willing to wait.
        public static let timedOut = Code(.timedOut)

        /// Nothing can settle the response any more: every reference to its ``Resolver`` was released, or the
        /// queue given its work dropped the work without running it.
        public static let abandoned = Code(.abandoned)

        /// Every response given to ``Response/any(_:callbackQueue:)`` failed (or it was given none); the error's
        /// ``ResponseError/underlyingErrors`` hold their errors, in input order.
        public static let allFailed = Code(.allFailed)

        /// The code's name.
        public var description: String {
            switch kind {
            case .timedOut: "timedOut"
            case .abandoned: "abandoned"
            case .allFailed: "allFailed"
            }
        }
    }

    /// The kind of failure.
    public let code: Code

    /// The errors behind this one, where there are several (``Code/allFailed``); empty otherwise. Not part of
    /// equality: two errors with the same code are equal.
    public let underlyingErrors: [any Error]

    /// Makes an error with `code` and the errors behind it.
    public init(code: Code, underlyingErrors: [any Error] = []) {
        self.code = code
        self.underlyingErrors = underlyingErrors
    }

    /// Whether the two errors have the same code.
    public static func == (lhs: ResponseError, rhs: ResponseError) -> Bool { lhs.code == rhs.code }

    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The response did not settle in time; see ``Code/timedOut``.
    public static let timedOut = ResponseError(code: .timedOut)

    /// Nothing can settle the response any more; see ``Code/abandoned``.
    public static let abandoned = ResponseError(code: .abandoned)

    /// What failed and what to do, for logs.
    public var description: String {
        switch code {
        case .timedOut:
            "ResponseError.timedOut: the response did not settle in the time given; if it should have, look for "
                + "work it waits on that cannot start (a queue the caller holds: see \"Waits the library cannot see\")"
        case .abandoned:
            "ResponseError.abandoned: the response can no longer be settled: its resolver was released unresolved, "
                + "or its queue dropped its work; settle the resolver on every path of the work"
        case .allFailed:
            "ResponseError.allFailed: every response given to any(_:) failed: "
                + (underlyingErrors.isEmpty ? "it was given none" : "\(underlyingErrors)")
        default: "ResponseError.\(code)"
        }
    }
}
