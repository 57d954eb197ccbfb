/// Where the library's diagnostics go: standard error unless the app says otherwise.
///
/// Every diagnostic of every product of the library goes through the one handler set here, the app host's
/// included. A test that provokes one on purpose takes it first (the test kit's `withCapturedDiagnostics`), and
/// then the handler does not see it.
public enum Diagnostics {
    /// The default handler: writes the diagnostic's message and a newline to standard error, in one write,
    /// unbuffered, so it gets out even if the process ends next.
    public static let standardError: @Sendable (Diagnostic) -> Void = { diagnostic in
        writeLineToStandardError(diagnostic.message)
    }

    private static let handler = LockedBox<@Sendable (Diagnostic) -> Void>(standardError)

    /// Makes `handler` receive every diagnostic the library writes from now on, on the thread that writes it (any
    /// thread, possibly while the library's caller holds its own locks: keep the handler short, and never block
    /// there on a response). Pass ``standardError`` to go back to the default.
    public static func setHandler(_ handler: @escaping @Sendable (Diagnostic) -> Void) {
        self.handler.withLock { $0 = handler }
    }

    /// Hands `message`, written by `product`, to a capture if one is open, else to the handler.
    static func report(_ message: String, product: String) {
        if DiagnosticCapture.take(message) { return }
        let handler = handler.withLock { $0 }
        handler(Diagnostic(product: product, message: message))
    }
}

/// Reports a diagnostic of the library: see ``Diagnostics``. The product is the calling file's module (each
/// product of the library is one module of the same name).
package func diagnose(_ message: String, fileID: String = #fileID) {
    let product = fileID.split(separator: "/", maxSplits: 1).first.map(String.init) ?? "Interactors"
    Diagnostics.report(message, product: product)
}
