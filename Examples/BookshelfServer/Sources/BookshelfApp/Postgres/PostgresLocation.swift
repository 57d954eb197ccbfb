import Foundation
public import PostgresNIO

/// Where a PostgreSQL database is: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, as `--database` takes it
/// (`postgresql://` too). The connection is plain TCP, without TLS: the example talks to a server on this machine.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// The server's host.
    public var host: String
    /// The server's port (5432 when the URL names none).
    public var port: Int
    /// The role to connect as.
    public var username: String
    /// The role's password, if the server asks for one.
    public var password: String?
    /// The database's name.
    public var database: String

    /// A location with these parts.
    public init(host: String, port: Int = 5432, username: String, password: String? = nil, database: String) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
    }

    /// The location `url` names; `nil` with the reason when it is not a `postgres://` URL with a user, a host and a
    /// database, or asks for options the example does not take (query parameters).
    public init(url text: String) throws(UsageError) {
        guard let url = URLComponents(string: text), let scheme = url.scheme,
            scheme == "postgres" || scheme == "postgresql"
        else { throw UsageError("'\(text)' is not a postgres://USER@HOST:PORT/DATABASE URL") }
        guard let host = url.host, !host.isEmpty else { throw UsageError("'\(text)' names no host") }
        guard let user = url.user, !user.isEmpty else { throw UsageError("'\(text)' names no user (USER@HOST)") }
        let database = String(url.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw UsageError("'\(text)' names no database (…/DATABASE)")
        }
        guard url.query == nil, url.fragment == nil else {
            throw UsageError("'\(text)' has options the example does not take (after '?' or '#')")
        }
        self.init(
            host: host,
            port: url.port ?? 5432,
            username: user.removingPercentEncoding ?? user,
            password: url.password.map { $0.removingPercentEncoding ?? $0 },
            database: database.removingPercentEncoding ?? database
        )
    }

    /// `postgres://USER@HOST:PORT/DATABASE`, without the password.
    public var description: String { "postgres://\(username)@\(host):\(port)/\(database)" }

    /// The client's configuration: at most `connections` connections to the server, each checking every 100 ms,
    /// while a statement runs, whether the client is still there (an instance killed under load leaves no
    /// statement behind it for long).
    public func clientConfiguration(connections: Int) -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host,
            port: port,
            username: username,
            password: password,
            database: database,
            tls: .disable
        )
        configuration.options.maximumConnections = connections
        configuration.options.additionalStartupParameters = [
            ("client_connection_check_interval", "100ms"), ("application_name", "BookshelfServer"),
        ]
        return configuration
    }
}
