import Interactors
public import Logging

/// Sends the library's diagnostics (a held-back wait, a service that failed to tear down, a corrupt store moved
/// aside, a row skipped) to `logger` instead of standard error: one warning each, with the product that wrote it
/// as metadata, so they reach the server's log with everything else.
public func routeLibraryDiagnostics(to logger: Logger) {
    Diagnostics.setHandler { diagnostic in
        logger.warning("\(diagnostic.message)", metadata: ["product": "\(diagnostic.product)"])
    }
}
