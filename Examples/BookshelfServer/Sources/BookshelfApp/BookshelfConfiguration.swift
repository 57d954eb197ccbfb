public import Foundation

/// How the server runs: `BookshelfServer [--host 127.0.0.1] [--port 8080] [--database PATH|postgres://…]
/// [--variant library|plain]`, and the deadlines and intervals the command line leaves at their defaults.
public struct BookshelfConfiguration: Sendable {
    /// The address to bind.
    public var host = "127.0.0.1"
    /// The port to bind; 0 asks the system for a free one.
    public var port = 8080
    /// Where the books are kept: a SQLite file (created when missing) by default.
    public var database = BookshelfDatabase.sqlite(URL(fileURLWithPath: "bookshelf.sqlite"))
    /// Over PostgreSQL: how long one request's database call may take, waiting for a connection included, before
    /// it answers 503 (see ``PostgresTable``).
    public var databaseTimeout: Duration = .milliseconds(750)
    /// Over PostgreSQL: the most connections the server opens to the database.
    public var databaseConnections = 20
    /// Which routes serve.
    public var variant = Variant.library
    /// How often the stats logger logs.
    public var statsInterval: Duration = .seconds(10)
    /// How long the registry's tear-down may take.
    public var tearDownDeadline: Duration = .seconds(10)
    /// How long the whole graceful shutdown may take (requests in flight, then the tear-down) before the group
    /// cancels what is left.
    public var gracefulShutdownDeadline: Duration = .seconds(30)

    /// The defaults.
    public init() {}

    /// The defaults with the command line's options applied (`--stats-interval SECONDS`, `--database-timeout
    /// SECONDS` and `--database-connections N` too).
    public init(arguments: some Sequence<String>) throws(UsageError) {
        var arguments = arguments.makeIterator()
        func value(for option: String) throws(UsageError) -> String {
            guard let value = arguments.next() else { throw UsageError("\(option) needs a value") }
            return value
        }
        while let argument = arguments.next() {
            switch argument {
            case "--host":
                host = try value(for: argument)
            case "--port":
                let text = try value(for: argument)
                guard let port = Int(text), (0...65535).contains(port) else {
                    throw UsageError("--port takes a port number, not '\(text)'")
                }
                self.port = port
            case "--database":
                let text = try value(for: argument)
                database =
                    text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
                    ? .postgres(try PostgresLocation(url: text)) : .sqlite(URL(fileURLWithPath: text))
            case "--database-timeout":
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds > 0, seconds <= 600 else {
                    throw UsageError("--database-timeout takes a number of seconds, not '\(text)'")
                }
                databaseTimeout = .milliseconds(Int(seconds * 1000))
            case "--database-connections":
                let text = try value(for: argument)
                guard let connections = Int(text), (1...1000).contains(connections) else {
                    throw UsageError("--database-connections takes a number from 1 to 1000, not '\(text)'")
                }
                databaseConnections = connections
            case "--variant":
                let text = try value(for: argument)
                guard let variant = Variant(rawValue: text) else {
                    throw UsageError("--variant takes library or plain, not '\(text)'")
                }
                self.variant = variant
            case "--stats-interval":
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds > 0 else {
                    throw UsageError("--stats-interval takes a number of seconds, not '\(text)'")
                }
                statsInterval = .milliseconds(Int(seconds * 1000))
            case "--help", "-h":
                throw UsageError(nil)
            default:
                throw UsageError("unknown argument '\(argument)'")
            }
        }
    }
}

/// A command line the server does not understand; its description is the message and the usage.
public struct UsageError: Error, CustomStringConvertible {
    /// What was wrong, or `nil` when help was asked for.
    public let problem: String?

    init(_ problem: String?) { self.problem = problem }

    /// The usage line.
    public static let usage =
        "usage: BookshelfServer [--host 127.0.0.1] [--port 8080] "
        + "[--database PATH|postgres://USER@HOST:PORT/DATABASE] [--variant library|plain] [--stats-interval SECONDS] "
        + "[--database-timeout SECONDS] [--database-connections N]"

    /// The problem, then the usage.
    public var description: String {
        problem.map { "BookshelfServer: \($0)\n\(Self.usage)" } ?? Self.usage
    }
}

/// Where the books are kept.
public enum BookshelfDatabase: Sendable, Equatable, CustomStringConvertible {
    /// A SQLite file, created when missing: ``DatabaseService``.
    case sqlite(URL)
    /// A PostgreSQL database (its `books` table is created when missing): ``PostgresDatabaseService``.
    case postgres(PostgresLocation)

    /// The file's path, or the URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let url): url.path
        case .postgres(let location): "\(location)"
        }
    }
}
