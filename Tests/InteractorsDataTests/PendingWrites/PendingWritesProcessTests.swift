// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import Testing
import TestThreads

/// Issue 35: a write kept offline survives a SIGKILL that follows its answer, and a sync in another process waits
/// for the one under way, then sends what is still pending: real child processes on the same file or database.
@Suite(.onThreadsOfTheirOwn) struct PendingWritesProcessTests {
    let server: RESTServer

    init() async throws {
        server = try await RESTServer.start()
    }

    @Test(arguments: CacheStoreKind.persistent)
    func aWriteKeptOfflineSurvivesASIGKILLRightAfterItsAnswerAndTheNextLaunchSyncsIt(kind: CacheStoreKind) throws {
        let directory = try TemporaryDirectory()
        let file = Self.file(of: kind, in: directory)
        try server.goDown()
        let writer = try ChildProcess(
            executable: Self.fixture(of: kind),
            arguments: ["keep", file, server.baseURL.absoluteString, "ada", "kept offline"]
        )
        #expect(writer.waitForLine { $0 == "kept ada" } != nil, "\(writer.output) \(writer.errorOutput)")
        writer.kill()  // SIGKILL, right after the answer

        let pending = try Self.run(kind, ["pending", file, server.baseURL.absoluteString])
        #expect(pending.contains("pending ada put 1 unavailable"), "\(pending)")
        #expect(pending.contains("count 1"))
        let cache = try kind.open(in: directory)
        #expect(try cache.get(IdQuery("ada")).get().text == "kept offline")

        try server.comeBack()
        let synced = try Self.run(kind, ["sync", file, server.baseURL.absoluteString])
        #expect(synced.contains("sent ada") && synced.contains("remaining 0"), "\(synced)")
        #expect(try server.requestLines().filter { $0.hasPrefix("PUT") } == ["PUT /books/ada"])
        let restarted = OfflineShelf.repository(over: try kind.open(in: directory), server: server)
        #expect(try restarted.pendingWrites().get().isEmpty)
        #expect(try restarted.get(IdQuery("ada"), operation: .cache).get().revision == 1)  // the server's answer
    }

    @Test(arguments: CacheStoreKind.persistent)
    func aSyncInAnotherProcessWaitsForTheOneUnderWayThenSendsWhatIsStillPending(kind: CacheStoreKind) throws {
        let directory = try TemporaryDirectory()
        let file = Self.file(of: kind, in: directory)
        let books = OfflineShelf.repository(over: try kind.open(in: directory), server: server)
        try server.goDown()
        let ids = (0..<300).map { "n\($0)" }
        _ = try books.putAll(ids.map { Note(id: $0, text: "offline") }).get()
        try server.comeBack()
        try server.forgetRequests()

        // This process syncs first, and is stopped part-way once the other one waits for it.
        let started = books.sync()
        let joined = books.sync()
        #expect(try waitUntil { try server.requestLines().contains { $0.hasPrefix("PUT /books/") } })
        let other = try ChildProcess(
            executable: Self.fixture(of: kind),
            arguments: ["sync", file, server.baseURL.absoluteString]
        )
        #expect(other.waitForLine { $0 == "syncing" } != nil)
        started.cancel()
        let mine = try joined.get()
        #expect(other.waitForLine { $0 == "done" } != nil, "\(other.output) \(other.errorOutput)")
        let theirs = (other.output.first { $0.hasPrefix("sent ") } ?? "sent ")
            .dropFirst("sent ".count).split(separator: ",").map(String.init)
        #expect(!mine.sent.isEmpty)
        #expect(theirs.count == mine.remaining)  // what was still pending when this one stopped
        #expect(Set(mine.sent).isDisjoint(with: theirs))
        #expect(Set(mine.sent + theirs) == Set(ids))
        let writes = try server.requestLines().filter { $0.hasPrefix("PUT /books/") }
        #expect(writes.count == 300 && Set(writes).count == 300)
        #expect(try books.pendingWrites().get().isEmpty)
    }

    // MARK: Fixtures

    static func fixture(of kind: CacheStoreKind) -> URL {
        kind == .file ? Fixtures.dataStoreExecutable : Fixtures.sqliteStoreExecutable
    }

    static func file(of kind: CacheStoreKind, in directory: TemporaryDirectory) -> String {
        directory.file(kind == .file ? "notes.json" : "notes.sqlite").path
    }

    /// Runs the fixture of `kind` with `arguments` until it prints "done", a count or an error; its output.
    static func run(_ kind: CacheStoreKind, _ arguments: [String]) throws -> [String] {
        let child = try ChildProcess(executable: fixture(of: kind), arguments: arguments)
        _ = child.waitForLine { $0 == "done" || $0.hasPrefix("count ") || $0.hasPrefix("error ") }
        child.stop()
        return child.output + [child.errorOutput]
    }
}
#endif
