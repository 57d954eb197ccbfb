/// Why a ``Response`` failed when the failure came from the response machinery rather than from the work.
///
/// Compare with the static members: `error as? ResponseError == .timedOut`.
public struct ResponseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure. Extensible: new codes may be added, so don't switch over them exhaustively.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case timedOut
            case abandoned
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        /// The response did not settle within the time a caller was willing to wait.
        public static let timedOut = Code(.timedOut)

        /// Nothing can settle the response any more: every reference to its ``Resolver`` was released, or the
        /// queue given its work dropped the work without running it.
        public static let abandoned = Code(.abandoned)

        /// The code's name.
        public var description: String {
            switch kind {
            case .timedOut: "timedOut"
            case .abandoned: "abandoned"
            }
        }
    }

    /// The kind of failure.
    public let code: Code

    /// Makes an error with `code`.
    public init(code: Code) { self.code = code }

    /// The response did not settle in time; see ``Code/timedOut``.
    public static let timedOut = ResponseError(code: .timedOut)

    /// Nothing can settle the response any more; see ``Code/abandoned``.
    public static let abandoned = ResponseError(code: .abandoned)

    /// A sentence for logs.
    public var description: String {
        switch code {
        case .timedOut: "ResponseError.timedOut: the response did not settle in time"
        case .abandoned: "ResponseError.abandoned: the response can no longer be settled (its resolver was released)"
        default: "ResponseError.\(code)"
        }
    }
}
