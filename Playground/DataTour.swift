// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import Dispatch
import Foundation
import Interactors
import InteractorsData

// The tour of InteractorsData: a notes repository kept in a file under a temporary directory and synced from a
// local HTTP endpoint that the tour starts itself (the tests' python3 fixture server on 127.0.0.1).

private struct Note: Codable, Identifiable, Sendable, CustomStringConvertible {
    var id: String
    var text: String
    var revision = 0

    var description: String { "\(id) \"\(text)\" (revision \(revision))" }
}

/// The fixture server in a child process; stopped by closing its standard input.
private final class LocalServer {
    let process = Process()
    let input = Pipe()
    let baseURL: URL

    init?() {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/InteractorsDataTests/Fixtures/rest_server.py")
        let output = Pipe()
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
}

func dataTour() {
    print("\n== InteractorsData: notes synced from a server into a file ==")
    guard let server = LocalServer() else {
        print("skipped: could not start the local server (is python3 installed?)")
        return
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("interactors-tour-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let fileURL = directory.appendingPathComponent("notes.json")

    let client = HTTPClient(baseURL: server.baseURL)
    let remote = RESTDataSource<Note>(client: client, path: "notes")
    let notes = CacheRepository(
        main: remote,
        cache: FileDataSource<Note>(fileURL: fileURL, corruptFile: .moveAside),
        onCacheFailure: { error in print("  (the cache failed, the server's answer stands: \(error.code))") }
    )
    let queue = DispatchQueue(label: "notes")
    let executor = InteractorExecutor()
    executor.register(GetAllInteractor(repository: notes, queue: queue))
    executor.register(GetInteractor(repository: notes, queue: queue))
    executor.register(PutInteractor(repository: notes, queue: queue))

    do {
        // Someone else put three notes on the server.
        _ = try remote.putAll([
            Note(id: "milk", text: "Buy milk"), Note(id: "call", text: "Call Ada"), Note(id: "tax", text: "File taxes"),
        ]).get()

        // 1. Sync: the server's list, stored in the file on the way (with when it was stored).
        let synced = try executor.execute(GetAllRequest<Note>(AllObjectsQuery(), operation: .mainSync)).get()
        print("synced from \(server.baseURL): \(synced.map(\.id))")
        print("the file \(fileURL.lastPathComponent) holds \(try Data(contentsOf: fileURL).count) bytes")

        // 2. Write: the server answers with its own revision, and the file keeps what the server stored.
        let saved = try executor.execute(PutRequest(Note(id: "milk", text: "Buy oat milk"))).get()
        print("saved: \(saved)")

        // 3. Read with the default (.cacheSync): the stored list, straight from the file, no request.
        let cached = try notes.fetchAll(AllObjectsQuery()).get()
        print("from the cache (\(cached.origin)): \(cached.value.map(\.id))")

        // 4. Another client deletes a note; a refresh removes it from the cache too.
        try RESTDataSource<Note>(client: HTTPClient(baseURL: server.baseURL), path: "notes").delete(IdQuery("tax"))
            .get()
        let refreshed = try executor.execute(GetAllRequest<Note>(AllObjectsQuery(), operation: .mainSync)).get()
        print(
            "someone deleted \"tax\"; after a refresh: \(refreshed.map(\.id)), the file too: "
                + "\(try FileDataSource<Note>(fileURL: fileURL).getAll(AllObjectsQuery()).get().map(\.id))"
        )

        // 5. Offline: the server is gone; the last list stands in, and says where it came from and how old it is.
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

        // 6. Restart: a new repository over the same file answers its last list, offline, with its age.
        let restarted = CacheRepository(main: remote, cache: FileDataSource<Note>(fileURL: fileURL))
        let list = try restarted.fetchAll(AllObjectsQuery()).get()
        print("after a restart: \(list.value.map(\.description)), stored at \(list.storedAt.map { "\($0)" } ?? "?")")

        // 7. A corrupt cache hides nothing: it is moved aside and the cache starts empty.
        _ = try? Data("{ not a notes file".utf8).write(to: fileURL)
        if let error = FileDataSource<Note>(fileURL: fileURL).getAll(AllObjectsQuery()).error {
            print(
                "a corrupt file, as a store of record sees it: \((error as? DataError)?.code.description ?? "\(error)")"
            )
        }
        fflush(nil)  // what was printed so far, before the source's one line on standard error
        let fresh = try FileDataSource<Note>(fileURL: fileURL, corruptFile: .moveAside).getAll(AllObjectsQuery()).get()
        print(
            "as a cache sees it (corruptFile: .moveAside): \(fresh.count) notes; "
                + "the directory: \(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted())"
        )
    } catch {
        print("the tour failed: \(error)")
        server.stop()
    }
}
#endif
