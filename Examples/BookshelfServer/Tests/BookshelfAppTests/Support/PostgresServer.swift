import BookshelfApp
import Foundation
import Logging
import PostgresNIO
import Testing

#if canImport(Glibc)
import Glibc
private let streamSocket = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
import Darwin
private let streamSocket = SOCK_STREAM
#endif

/// A real PostgreSQL server for a suite, started by the example's own `scripts/postgres.sh` as a child process
/// (in a temporary directory, on a free port of 127.0.0.1) before the suite's first test and stopped after its last.
///
/// A suite that needs one is `.enabled(if: PostgresServer.canStart, …)` and `.postgresServer`: it is skipped, with
/// that message, where no PostgreSQL is installed (the script installs Debian's package only when run as root, and
/// a test run does not install packages: run `scripts/postgres.sh start` once, or see the README).
struct PostgresServer: Sendable {
    /// The database the script created.
    var location: PostgresLocation
    let directory: URL

    /// The server of the suite running now.
    @TaskLocal static var current: PostgresServer?

    /// The server of the suite running now; fails the test if the suite has none (it lacks `.postgresServer`).
    static func required() throws -> PostgresServer {
        try #require(current, "the suite needs the .postgresServer trait")
    }

    static let script = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "scripts/postgres.sh")

    /// Whether the script can start a server here without installing anything: an `initdb` is installed (where
    /// Debian puts it, or on the PATH), and, for root, there is a `postgres` user to run it as.
    static var canStart: Bool {
        let debian = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let installed =
            debian.contains { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb") }
            || (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
                FileManager.default.isExecutableFile(atPath: "\($0)/initdb")
            }
        return installed && (getuid() != 0 || getpwnam("postgres") != nil)
    }

    /// Starts a server with a database of its own; throws with the script's output when it fails.
    static func start() throws -> PostgresServer {
        let directory = FileManager.default.temporaryDirectory.appending(path: "bookshelf-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The server runs as the postgres user when the tests run as root: it must reach its data directory.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let port = try freePort()
        let output = try runScript(["start", directory.appending(path: "data").path, "\(port)", "bookshelf_test"])
        let url = output.split(separator: "\n").last.map(String.init) ?? ""
        return PostgresServer(location: try PostgresLocation(url: url), directory: directory)
    }

    /// Stops the server and removes its directory.
    func stop() {
        _ = try? Self.runScript(["stop", directory.appending(path: "data").path, "\(location.port)"])
        try? FileManager.default.removeItem(at: directory)
    }

    /// `psql` on the test database: the rows of `sql`'s answer, one line each, fields separated by `|`.
    func psql(_ sql: String) throws -> [String] {
        let output = try Self.runScript([
            "psql", directory.appending(path: "data").path, "\(location.port)", location.database, "-Atc", sql,
        ])
        return output.split(separator: "\n").map(String.init)
    }

    /// Runs the script and returns its standard output; throws with its standard error when it fails.
    ///
    /// Spawned and awaited with `posix_spawn` and `waitpid`, its output in files: Foundation's `Process` never saw
    /// the script end here (it stayed a zombie), and a pipe would stay open as long as the server the script
    /// starts, which inherits it.
    private static func runScript(_ arguments: [String]) throws -> String {
        let files = FileManager.default.temporaryDirectory.appending(path: "postgres-sh-\(UUID().uuidString)")
        let (outputFile, errorFile) = (files.appendingPathExtension("out"), files.appendingPathExtension("err"))
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = (["/bin/bash", script.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/bin/bash", &actions, nil, argv, environ)
        guard spawned == 0 else { throw ScriptError(description: "posix_spawn of scripts/postgres.sh: \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        // Exited normally with status 0 (`WIFEXITED` and `WEXITSTATUS`, which Swift does not import).
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw ScriptError(
                description: "scripts/postgres.sh \(arguments.joined(separator: " ")) ended with status \(status): "
                    + ((try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")
            )
        }
        return output
    }

    struct ScriptError: Error, CustomStringConvertible {
        let description: String
    }

    /// A port of 127.0.0.1 nobody listens on now.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, streamSocket, 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else { throw ScriptError(description: "no free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Starts a ``PostgresServer`` before the suite and stops it after; its tests find it in
/// ``PostgresServer/current``.
struct PostgresServerTrait: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try await onOwnThread { try PostgresServer.start() }
        defer { server.stop() }
        try await PostgresServer.$current.withValue(server) { try await function() }
    }
}

extension Trait where Self == PostgresServerTrait {
    /// A PostgreSQL server of the suite's own, started by `scripts/postgres.sh`.
    static var postgresServer: Self { PostgresServerTrait() }
}

/// Runs `body` with a `PostgresClient` of `location` that runs meanwhile (as a server's group would run it), then
/// stops it.
func withPostgresClient<T: Sendable>(
    _ location: PostgresLocation,
    connections: Int = 4,
    _ body: @Sendable (PostgresClient) async throws -> T
) async throws -> T {
    let client = PostgresClient(configuration: location.clientConfiguration(connections: connections))
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await client.run() }
        defer { group.cancelAll() }
        return try await body(client)
    }
}
