// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import Dispatch
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The tour of InteractorsData: a notes repository cached in a SQLite database under a temporary directory and
// synced from a local HTTP endpoint that the tour starts itself (the tests' python3 fixture server on 127.0.0.1).

struct Note: Codable, Identifiable, Sendable, CustomStringConvertible {
    var id: String
    var text: String
    var revision = 0

    var description: String { "\(id) \"\(text)\" (revision \(revision))" }
}

/// The fixture server in a child process; stopped by closing its standard input, taken down and brought back by
/// the lines "down" and "up" on it.
final class LocalServer {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let baseURL: URL

    init?() {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/InteractorsDataTests/Fixtures/rest_server.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        process.standardInput = input
        process.standardOutput = output
        guard (try? process.run()) != nil else { return nil }
        var line = ""
        while !line.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            line += String(decoding: data, as: UTF8.self)
        }
        guard let port = Int(line.dropFirst("listening ".count).prefix { $0.isNumber }) else { return nil }
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Refuses connections, keeping its notes, until ``comeBack()``.
    func goDown() { command("down") }

    /// Listens again, on the same port.
    func comeBack() { command("up") }

    /// Sends `line` and waits for the server to say it obeyed ("down <n>", "up <n>").
    private func command(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        var said = ""
        while !said.split(separator: "\n").contains(where: { $0.hasPrefix(line + " ") }) {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { return }
            said += String(decoding: data, as: UTF8.self)
        }
    }
}

func dataTour() {
    print("\n== InteractorsData: notes synced from a server into SQLite ==")
    guard let server = LocalServer() else {
        print("skipped: could not start the local server (is python3 installed?)")
        return
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("interactors-tour-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let databaseURL = directory.appendingPathComponent("notes.sqlite")
    // Reads and writes are sent again (twice at most) when the server cannot be reached or cannot answer; a
    // CacheRepository over the source sees only the last failure.
    let remote = RESTDataSource<Note>(
        client: HTTPClient(baseURL: server.baseURL),
        path: "notes",
        retry: HTTPRetryPolicy(times: 2, delay: .milliseconds(100)),
        timeout: .seconds(5)
    )
    do {
        try syncAndGoOffline(server, remote, databaseURL)
        try restart(remote, databaseURL)
        try openAForeignFile(databaseURL)
        try routeDiagnostics()
    } catch {
        print("the tour failed: \(error)")
        server.stop()
    }
}

/// Syncs, writes, reads from the cache, sees a deletion, then loses the server. The database is released at the
/// end, as when the app quits.
private func syncAndGoOffline(_ server: LocalServer, _ remote: RESTDataSource<Note>, _ databaseURL: URL) throws {
    let database = try SQLiteDatabase(fileURL: databaseURL)
    let cache = try SQLiteDataSource<Note>(database: database, table: "notes")
    let notes = CacheRepository(
        main: remote,
        cache: cache,
        onCacheFailure: { error in print("  (the cache failed, the server's answer stands: \(error.code))") }
    )
    let queue = DispatchQueue(label: "notes")
    let executor = InteractorExecutor()
    executor.register(GetAllInteractor(repository: notes, queue: queue))
    executor.register(GetInteractor(repository: notes, queue: queue))
    executor.register(PutInteractor(repository: notes, queue: queue))

    // Someone else put three notes on the server.
    _ = try remote.putAll([
        Note(id: "milk", text: "Buy milk"), Note(id: "call", text: "Call Ada"), Note(id: "tax", text: "File taxes"),
    ]).get()

    // 1. Sync: the server's list, stored in the database on the way, with when it was stored.
    let synced = try executor.execute(GetAllRequest<Note>(AllObjectsQuery(), operation: .mainSync)).get()
    print("synced from \(server.baseURL): \(synced.map(\.id))")
    if let list = try cache.cachedList(forKey: AllObjectsQuery().cacheKey).get() {
        print("\(databaseURL.lastPathComponent) keeps the list \(list.ids) and when it was stored: \(list.storedAt)")
    }

    // 2. Write: the server answers with its own revision, and the database keeps what the server stored.
    let saved = try executor.execute(PutRequest(Note(id: "milk", text: "Buy oat milk"))).get()
    print("saved: \(saved)")

    // 3. Read with the default (.cacheSync): the stored list, straight from the database, no request.
    let cached = try notes.fetchAll(AllObjectsQuery()).get()
    print("from the cache (\(cached.origin)): \(cached.value.map(\.id))")

    // 4. Another client deletes a note; a refresh removes it from the cache too.
    try RESTDataSource<Note>(client: HTTPClient(baseURL: server.baseURL), path: "notes").delete(IdQuery("tax")).get()
    let refreshed = try executor.execute(GetAllRequest<Note>(AllObjectsQuery(), operation: .mainSync)).get()
    print(
        "someone deleted \"tax\"; after a refresh: \(refreshed.map(\.id)), the database too: "
            + "\(try cache.getAll(AllObjectsQuery()).get().map(\.id))"
    )
    try editWhileRefreshing(server, notes, cache)

    try signInAndRetry(server)
    try serveManyClients(server, remote)
    try editOffline(server, remote, cache)

    // 5. Offline: the server is gone; once the source's retries are spent, the last list stands in, and says where
    // it came from and how old it is.
    server.stop()
    print("server stopped")
    let offline = try notes.fetchAll(AllObjectsQuery(), operation: .mainSync).get()
    if case .cacheAfterFailure(let error) = offline.origin, let storedAt = offline.storedAt {
        print(
            "offline: \(offline.value.map(\.id)) from the cache after \(type(of: error)), "
                + "stored \(String(format: "%.2f", Date().timeIntervalSince(storedAt))) s ago"
        )
    }
    do {
        _ = try executor.execute(PutRequest(Note(id: "eggs", text: "Eggs"))).get()
    } catch {
        print("offline, write: \(type(of: error)) (the cache was left alone)")
    }
}

/// 4½. A server that wants a token, which it rotates, and that is overloaded at first: twenty reads refused at
/// once cause one refresh, and the retry policy rides out two 503s, and a lost answer to a POST.
private func signInAndRetry(_ server: LocalServer) throws {
    struct Issued: Decodable, Sendable { let token: String }
    let login = HTTPClient(baseURL: server.baseURL)
    let refreshes = LockedBox(0)
    let auth = TokenRefreshInterceptor(
        credential: "expired",
        apply: { token, request in request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") },
        refresh: { _ in
            refreshes.withLock { $0 += 1 }
            return login.send(
                Endpoint<Issued>(method: .post, path: "token") { data, _ in
                    try JSONDecoder().decode(Issued.self, from: data)
                }
            )
            .map(\.token)
        }
    )
    let client = HTTPClient(baseURL: server.baseURL, interceptors: [auth])
    let guarded = RESTDataSource<Note>(client: client, path: "auth/notes")
    let reads = (0..<20).map { _ in guarded.getAll(AllObjectsQuery()) }
    let lists = try reads.map { try $0.get() }
    print(
        "20 reads with an expired token, refused at once: \(lists.count) answered, after \(refreshes.withLock { $0 }) "
            + "refresh (token now \(auth.credential))"
    )
    let overloaded = RESTDataSource<Note>(
        client: client,
        path: "auth/flaky/2/notes",  // answers 503 twice
        retry: HTTPRetryPolicy(times: 3, delay: .milliseconds(50), backoff: 2)
    )
    let notes = try overloaded.getAll(AllObjectsQuery()).get()
    print("an overloaded server answered 503 twice; the retry policy got \(notes.count) notes on the third send")

    // A creation the server can deduplicate: the connection closes before the answer, the policy sends the POST
    // again with the same Idempotency-Key, and the server answers it with what it did the first time.
    let keyed = HTTPClient(baseURL: server.baseURL, idempotencyKeys: true)
    var order = try Endpoint<Note>.post("idempotent/orders", body: Note(id: "o1", text: "Bread"), as: Note.self)
    order.query = [URLQueryItem(name: "hangup", value: "first")]
    let placed = try keyed.send(order, retry: HTTPRetryPolicy(times: 2)).get()
    let orders = try keyed.send(.get("orders", as: [Note].self)).get()
    print(
        "a POST whose answer was lost, sent again with its Idempotency-Key: \(placed.id) placed, \(orders.count) order"
    )
}

/// 4c. Edit offline: with `pendingWrites: .keep`, an edit the server cannot take is kept in the database with the
/// cache, shown by every read, and sent once the server is back; the server refuses one, and the cache shows its
/// version again.
private func editOffline(_ server: LocalServer, _ remote: RESTDataSource<Note>, _ cache: SQLiteDataSource<Note>) throws
{
    let notes = CacheRepository(main: remote, cache: cache, pendingWrites: .keep)
    server.goDown()
    print("server down: connections refused")
    _ = try notes.put(Note(id: "eggs", text: "Buy eggs")).get()
    _ = try notes.put(Note(id: "reject", text: "The server will refuse this one")).get()
    try notes.delete(IdQuery("call")).get()
    let waiting = try notes.pendingWrites().get().map { "\($0.value == nil ? "delete" : "put") \($0.id)" }
    let shown = try notes.fetchAll(AllObjectsQuery()).get()
    print(
        "offline, every call succeeded and is kept: \(waiting); the list shows them: \(shown.value.map(\.id)) "
            + "(isPending: \(shown.isPending))"
    )
    let stillDown = try notes.sync().get()
    print("a sync while the server is down sends nothing, and succeeds: \(stillDown.remaining) still waiting")
    server.comeBack()
    let report = try notes.sync().get()
    let refusal = report.rejected.values.first.map { "\($0.code)" } ?? "-"
    let onTheServer = try remote.getAll(AllObjectsQuery()).get().map(\.id)
    print(
        "server back: sync sent \(report.sent), refused \(report.rejected.keys.sorted()) (\(refusal)), "
            + "\(report.remaining) waiting; the server has \(onTheServer), the list "
            + "\(try notes.getAll(AllObjectsQuery()).get().map(\.id))"
    )
}

/// 6. Restart: a new database on the same file, a new repository, still offline: the last list, with its age.
private func restart(_ remote: RESTDataSource<Note>, _ databaseURL: URL) throws {
    let database = try SQLiteDatabase(fileURL: databaseURL)
    let notes = CacheRepository(main: remote, cache: try SQLiteDataSource<Note>(database: database, table: "notes"))
    let list = try notes.fetchAll(AllObjectsQuery()).get()
    print(
        "after a restart, still offline (\(list.origin)): \(list.value.map(\.description)), stored at "
            + "\(list.storedAt.map { "\($0)" } ?? "?")"
    )
}

/// 7. A file that is not a database fails with corruptStore and keeps its bytes by default; a cache opens its
/// database with `ifCorrupt: .moveAside`, which sets such a file aside (reporting it once) and starts over.
private func openAForeignFile(_ databaseURL: URL) throws {
    let foreign = Data(String(repeating: "{ not a database }\n", count: 50).utf8)
    try foreign.write(to: databaseURL)
    do {
        _ = try SQLiteDatabase(fileURL: databaseURL)
    } catch {
        let kept = (try? Data(contentsOf: databaseURL)) == foreign
        print("a file that is not a database: \(error.code), its \(foreign.count) bytes kept: \(kept)")
    }
    let reports = LockedBox<[DataError]>([])
    let cache = try SQLiteDatabase(fileURL: databaseURL, ifCorrupt: .moveAside) { error in
        reports.withLock { $0.append(error) }
    }
    let fresh = try SQLiteDataSource<Note>(database: cache, table: "notes")
    let aside = try FileManager.default.contentsOfDirectory(atPath: databaseURL.deletingLastPathComponent().path)
        .filter { $0.hasPrefix("\(databaseURL.lastPathComponent).corrupt-") }
    print(
        "opened with ifCorrupt: .moveAside: moved aside to \(aside.joined(separator: ", ")), reported "
            + "\(reports.withLock { $0.count }) time, and the cache starts over with "
            + "\(try fresh.getAll(AllObjectsQuery()).get().count) notes"
    )
}

/// 4b. A slow refresh (the server holds its answer back) while the user adds a note: the refresh answers the
/// server's older list, and the cache keeps the note: a read never undoes a write made after it was sent.
private func editWhileRefreshing(
    _ server: LocalServer,
    _ notes: CacheRepository<Note>,
    _ cache: SQLiteDataSource<Note>
) throws {
    func hold(_ method: String) throws {  // the fixture's switch: hold GET /notes back, or answer it
        var request = URLRequest(url: server.baseURL.appendingPathComponent("__hold/notes"))
        request.httpMethod = method
        _ = try URLSession.shared.response(for: request).get()
    }
    try hold("POST")
    let refreshing = notes.fetchAll(AllObjectsQuery(), operation: .mainSync)
    Thread.sleep(forTimeInterval: 0.3)  // the server has taken its snapshot
    _ = try notes.put(Note(id: "bread", text: "Buy bread")).get()
    try hold("DELETE")
    let refreshed = try refreshing.get()
    print(
        "a refresh sent before \"bread\" was added answered \(refreshed.value.map(\.id)); the cache kept it: "
            + "\(try cache.getAll(AllObjectsQuery()).get().map(\.id)), as old as the refresh"
    )
}
#endif
