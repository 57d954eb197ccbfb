/// An answer's header fields, looked up by name whatever its case: `headers["retry-after"]`.
///
/// ```swift
/// catch let error as HTTPError where error.status == 429 {
///     let wait = error.headers["Retry-After"].flatMap(Int.init) ?? 1
/// }
/// ```
public struct HTTPHeaders: Sendable, Equatable, CustomStringConvertible {
    /// The fields as received, names as the server spelled them.
    public let fields: [String: String]

    /// Headers with `fields`.
    public init(_ fields: [String: String] = [:]) {
        self.fields = fields
    }

    /// The value of the field called `name`, compared without regard to case; nil if there is none.
    public subscript(_ name: String) -> String? {
        if let exact = fields[name] { return exact }
        let wanted = name.lowercased()
        return fields.first { $0.key.lowercased() == wanted }?.value
    }

    /// The fields, sorted by name, for logs.
    public var description: String {
        fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }
}
