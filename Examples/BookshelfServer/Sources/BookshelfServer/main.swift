import BookshelfApp
import Foundation
import Logging
import ServiceLifecycle

// `BookshelfServer [--host 127.0.0.1] [--port 8080] [--database PATH|postgres://USER@HOST:PORT/DATABASE]
// [--variant library|plain]`: serves the bookshelf until SIGTERM or SIGINT, then stops accepting, finishes the
// requests in flight, tears the services down and exits 0 (1 if anything failed on the way, with the reason on
// standard error).

let configuration: BookshelfConfiguration
do {
    configuration = try BookshelfConfiguration(arguments: CommandLine.arguments.dropFirst())
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(error.problem == nil ? 0 : 64)
}

LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .info
    return handler
}
let logger = Logger(label: "bookshelf")
routeLibraryDiagnostics(to: logger)
logger.info("starting the \(configuration.variant.rawValue) variant on \(configuration.database)")

let bookshelf = Bookshelf(configuration: configuration, logger: logger)
let group = bookshelf.serviceGroup { host, port in
    // The line scripts wait for, written at once (standard output is a pipe or a file for them, which `print`
    // would buffer).
    FileHandle.standardOutput.write(Data("listening on \(host):\(port)\n".utf8))
}
do {
    try await group.run()
    logger.info("stopped")
} catch {
    FileHandle.standardError.write(Data("BookshelfServer: \(error)\n".utf8))
    exit(1)
}
