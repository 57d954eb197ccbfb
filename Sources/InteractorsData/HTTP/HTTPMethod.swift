/// The method of an ``Endpoint``'s request: the seven most APIs use as static members, any other token of
/// RFC 9110 §9.1 by its name.
///
/// ```swift
/// let search = Endpoint<[Note]>(method: HTTPMethod(rawValue: "QUERY"), path: "notes", body: filter, decode: decode)
/// ```
///
/// A struct, not an enum, so that methods can be added without breaking a `switch` over them: compare with `==`.
/// Method names are case-sensitive (RFC 9110 §9.1): `HTTPMethod(rawValue: "get")` is not ``get``.
///
/// GET, HEAD, PUT, DELETE, OPTIONS and TRACE are idempotent (RFC 9110 §9.2.2): sending one twice does what
/// sending it once does, so an ``HTTPRetryPolicy`` may resend it. POST, PATCH and every other method are not.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method's name as it goes on the wire: `"GET"`.
    public let rawValue: String

    /// The method called `rawValue`, a token of RFC 9110 §9.1: letters, digits, the symbols `!#$%&'*+-.^_|~` and
    /// the grave accent.
    ///
    /// - Precondition: `rawValue` is a token: not empty, no space, no separator such as `(`, `/` or `:`. A
    ///   request line with anything else would be another request, or none the server can read.
    public init(rawValue: String) {
        precondition(
            Self.isToken(rawValue),
            "HTTPMethod: \"\(rawValue)\" is not an HTTP method; a method is a token of RFC 9110 §9.1: one or more "
                + "letters, digits or !#$%&'*+-.^_`|~, such as \"GET\" or \"QUERY\""
        )
        self.rawValue = rawValue
    }

    /// The method's name.
    public var description: String { rawValue }

    /// Reads a resource.
    public static let get = HTTPMethod(rawValue: "GET")
    /// Reads a resource's headers only: the answer has no body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// Creates a resource, or runs an action.
    public static let post = HTTPMethod(rawValue: "POST")
    /// Replaces a resource.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// Changes part of a resource.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// Deletes a resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// Asks what a resource, or the server, supports.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// Whether sending the request twice does what sending it once does (RFC 9110 §9.2.2).
    var isIdempotent: Bool {
        Self.idempotentNames.contains(rawValue)
    }

    /// Whether requests of this method carry an `Idempotency-Key` when the client's keys are on.
    var takesIdempotencyKey: Bool {
        self == .post || self == .patch
    }

    private static let idempotentNames: Set<String> = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]

    /// Whether `name` is a token (RFC 9110 §5.6.2): one or more tchar.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "a")...UInt8(ascii: "z"):
                    true
                default:
                    Self.tokenSymbols.contains(byte)
                }
            }
    }

    private static let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)
}
