#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Testing
import TestThreads

struct Measured: Codable, Identifiable, Sendable {
    var id: String
    var value: Double
}

@Suite(.onThreadsOfTheirOwn) struct BeforeFigures {
    @Test(arguments: [CacheStoreKind.file, .sqliteFile, .inMemory])
    func reproduction1(kind: CacheStoreKind) throws {
        let server = try RESTServer()
        let store = try kind.make()
        let client = HTTPClient(baseURL: server.baseURL)
        let remote = RESTDataSource<Note>(client: client, path: "books")
        _ = try remote.putAll((1...5).map { Note(id: "b\($0)", text: "book \($0)") }).get()
        let repo = CacheRepository(main: remote, cache: store.source)
        try server.hold("books")
        let sent = Date()
        let refresh = repo.fetchAll(AllObjectsQuery(), operation: .mainSync)
        #expect(server.waitFor("held books"))
        _ = try repo.put(Note(id: "x", text: "new")).get()
        try repo.delete(IdQuery("b1")).get()
        Thread.sleep(forTimeInterval: 1)
        try server.release("books")
        let answer = try refresh.get()
        let cached = try repo.fetchAll(AllObjectsQuery(), operation: .cacheSync).get()
        print("REP1 \(kind): answer \(answer.value.map(\.id)) cached \(cached.value.map(\.id)) origin \(cached.origin) storedAt \(cached.storedAt.map { String(format: "%.2f s ago; sent %.2f s ago", Date().timeIntervalSince($0), Date().timeIntervalSince(sent)) } ?? "nil")")
    }

    @Test func reproduction4() throws {
        let directory = try TemporaryDirectory()
        let source = FileDataSource<Measured>(fileURL: directory.file("m.json"))
        var values = (0..<6).map { Measured(id: "m\($0)", value: Double($0)) }
        values.append(Measured(id: "nan", value: .nan))
        let result = source.putAll(values)
        print("REP4 putAll error: \(String(describing: result.error))")
        print("REP4 stored: \((try? source.getAll(AllObjectsQuery()).get())?.map(\.id) ?? [])")
    }

    @Test func reproduction5() throws {
        let source = InMemoryDataSource<Note>()
        _ = try source.putAll((0..<40_000).map { Note(id: "n\($0)", text: "t") }).get()
        let start = ContinuousClock.now
        for index in 0..<50 { try source.delete(IdQuery("n\(index * 7)")).get() }
        print("REP5 per delete: \((ContinuousClock.now - start) / 50)")
    }
}
#endif
