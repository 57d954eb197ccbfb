/// Why a wait of the test kit did not return what it was asked for: a ``ResponseProbe``'s, an
/// ``InteractorSpy``'s or a ``StoreRecorder``'s.
public struct ResponseProbeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure. Extensible: new codes may be added, so don't switch over them exhaustively.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case timedOut
            case succeeded
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        /// What the wait expected (a response's outcome, requests, states) did not come within its timeout.
        public static let timedOut = Code(.timedOut)

        /// ``ResponseProbe/waitForError(timeout:)`` found a response that succeeded.
        public static let succeeded = Code(.succeeded)

        /// The code's name.
        public var description: String {
            switch kind {
            case .timedOut: "timedOut"
            case .succeeded: "succeeded"
            }
        }
    }

    /// The kind of failure.
    public let code: Code

    /// A sentence for the test log: the timeout that ran out and what came meanwhile, or the value found instead
    /// of an error.
    public let description: String

    /// Makes an error with `code` and `description`.
    public init(code: Code, description: String) {
        self.code = code
        self.description = description
    }

    /// The response did not settle within `timeout`.
    public static func timedOut(after timeout: Duration) -> ResponseProbeError {
        ResponseProbeError(code: .timedOut, description: "ResponseProbe: the response did not settle within \(timeout)")
    }

    /// The response succeeded with `value` where a failure was expected.
    public static func succeeded(with value: some Sendable) -> ResponseProbeError {
        ResponseProbeError(
            code: .succeeded,
            description: "ResponseProbe: expected a failure, but the response succeeded with \(value)"
        )
    }

    /// Whether the two errors have the same code.
    public static func == (lhs: ResponseProbeError, rhs: ResponseProbeError) -> Bool { lhs.code == rhs.code }

    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
