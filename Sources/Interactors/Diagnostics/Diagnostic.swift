/// Something the library reports that has no caller to go to: a refused misuse, a wait that work cannot reach, a
/// service that failed, a corrupt store moved aside, a store's deferred update that threw.
///
/// The library hands each one to the process's handler (``Diagnostics/setHandler(_:)``), which by default writes
/// it to standard error. A server routes them to its logger:
///
/// ```swift
/// Diagnostics.setHandler { diagnostic in
///     logger.warning("\(diagnostic.message)", metadata: ["product": "\(diagnostic.product)"])
/// }
/// ```
///
/// The exact text of a message is not API: read it, log it, don't parse it.
public struct Diagnostic: Sendable, CustomStringConvertible {
    /// The library product that wrote it: `Interactors`, `InteractorsData`, `InteractorsSQLite`,
    /// `InteractorsPresentation` or `InteractorsAppHost`.
    public let product: String
    /// What happened, and what to do where there is something to do: one line.
    public let message: String

    /// A diagnostic of `product` saying `message`: for tests of a handler, and plugins that report the same way.
    public init(product: String, message: String) {
        self.product = product
        self.message = message
    }

    /// The message, as standard error shows it.
    public var description: String { message }
}
