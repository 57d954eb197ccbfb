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
    let notes = CacheRepository(main: remote, cache: FileDataSource<Note>(fileURL: fileURL))
    let queue = DispatchQueue(label: "notes")
    let getAll = GetAllInteractor(repository: notes, queue: queue)
    let get = GetInteractor(repository: notes, queue: queue)
    let put = PutInteractor(repository: notes, queue: queue)

    do {
        // Someone else put two notes on the server.
        _ = try remote.putAll([Note(id: "milk", text: "Buy milk"), Note(id: "call", text: "Call Ada")]).get()

        // 1. Sync: the server's notes, stored in the file on the way.
        let synced = try getAll.execute(operation: .mainSync).get()
        print("synced from \(server.baseURL): \(synced.map(\.id))")
        print("the file \(fileURL.lastPathComponent) holds \(try Data(contentsOf: fileURL).count) bytes")

        // 2. Write: the server answers with its own revision, and the file keeps what the server stored.
        let saved = try put.execute(Note(id: "milk", text: "Buy oat milk")).get()
        print("saved: \(saved)")

        // 3. Read with the default (.cacheSync): straight from the file, no request.
        print("from the cache: \(try get.execute(id: "call").get())")

        // 4. Offline: the server is gone; .mainSync falls back to the file, writes fail with the network error.
        server.stop()
        print("server stopped")
        print("offline, mainSync read: \(try get.execute(id: "milk", operation: .mainSync).get())")
        do {
            _ = try put.execute(Note(id: "eggs", text: "Eggs")).get()
        } catch {
            print("offline, write: \(type(of: error)) (the cache was left alone)")
        }

        // 5. Restart: a new source over the same file reads back everything.
        let reopened = try FileDataSource<Note>(fileURL: fileURL).getAll(AllObjectsQuery()).get()
        print("after a restart, the file has: \(reopened.map(\.description))")

        // 6. Misuse gets a clear error, not a crash.
        _ = try? Data("{ not a notes file".utf8).write(to: fileURL)
        if let error = FileDataSource<Note>(fileURL: fileURL).getAll(AllObjectsQuery()).error {
            print("a corrupt file: \(error)")
        }
    } catch {
        print("the tour failed: \(error)")
        server.stop()
    }
}
#endif
