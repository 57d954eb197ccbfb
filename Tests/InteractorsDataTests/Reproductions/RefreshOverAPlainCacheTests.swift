// Foundation's Process, which the fixture server needs, exists on macOS and Linux only.
#if os(macOS) || os(Linux)
import DataTestSupport
import Dispatch
import Foundation
import Interactors
import InteractorsData
import TestThreads
import Testing

/// "A read never undoes a write made after it was sent" over a cache that keeps no index of its own
/// (`UserDefaultsDataSource`, a source of the app's): the repositories over one cache instance share its order of
/// writes, and a refresh's answer is applied atomically with respect to the writes made meanwhile (issue 32).
@Suite(.onThreadsOfTheirOwn) struct RefreshOverAPlainCacheTests {
    let v1 = Note(id: "b1", text: "v1")
    let v2 = Note(id: "b1", text: "v2")

    @Test func aRefreshThroughOneRepositoryNeverUndoesAWriteThroughAnotherOverTheSameDefaults() async throws {
        let server = try await RESTServer.start()
        let remote = RESTDataSource<Note>(client: HTTPClient(baseURL: server.baseURL), path: "books")
        _ = try await remote.put(v1).value
        let domain = try DefaultsDomain()
        try await onAThreadOfItsOwn { [v2] in
            try Self.refreshThroughOneWhileTheOtherWrites(server, remote, domain, v2)
        }
    }

    /// The server answers every put with its `revision` one higher: the texts tell the versions apart.
    private static func refreshThroughOneWhileTheOtherWrites(
        _ server: RESTServer,
        _ remote: RESTDataSource<Note>,
        _ domain: DefaultsDomain,
        _ v2: Note
    ) throws {
        let cache = UserDefaultsDataSource<Note>(defaults: domain.defaults, keyPrefix: "books.")
        let first = CacheRepository(main: remote, cache: cache)
        let second = CacheRepository(main: remote, cache: cache)
        try server.hold("books")
        let refresh = first.getAll(AllObjectsQuery(), operation: .mainSync)
        guard server.waitFor("held books") else { throw Refused("the server never held the refresh") }
        let written = try second.put(v2).get(timeout: .seconds(20))
        try server.release("books")
        let answered = try refresh.get(timeout: .seconds(20))  // what the server said when asked: v1
        let onTheServer = try remote.get(IdQuery("b1")).get(timeout: .seconds(20))
        let throughFirst = try first.get(IdQuery("b1")).get(timeout: .seconds(20))
        let throughSecond = try second.get(IdQuery("b1")).get(timeout: .seconds(20))
        let list = try first.getAll(AllObjectsQuery()).get(timeout: .seconds(20))
        let outcome = [
            answered.map(\.text), [onTheServer.text, throughFirst.text, throughSecond.text], list.map(\.text),
        ]
        guard outcome == [["v1"], ["v2", "v2", "v2"], ["v2"]], throughFirst == written else {
            throw Refused("refresh answered, server, first, second, list: \(outcome)")
        }
    }

    @Test func aWriteMadeWhileARefreshIsBeingAppliedWaitsForIt() throws {
        let main = try HeldSource([v1])
        let cache = HeldWritesCache()
        let books = CacheRepository(main: main, cache: cache)
        main.holdReads()
        let refresh = books.getAll(AllObjectsQuery(), operation: .mainSync)
        #expect(main.waitForAHeldRead())
        cache.holdNextWrite()
        main.release()
        // The refresh's answer is being stored: its write of v1 is held, the change half applied.
        #expect(cache.waitForAHeldWrite())
        let put = books.put(v2)
        cache.releaseHeldWrite()
        #expect(try put.get(timeout: .seconds(20)) == v2)
        #expect(try refresh.get(timeout: .seconds(20)) == [v1])
        #expect(try cache.store.get(IdQuery("b1")).get() == v2)
        #expect(try books.get(IdQuery("b1")).get(timeout: .seconds(20)) == v2)
    }
}

private struct Refused: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// A plain cache (no index of its own) over an in-memory store, whose next write can be held back.
private final class HeldWritesCache: DataSource {
    typealias Value = Note

    let store = InMemoryDataSource<Note>()
    private let holding = LockedBox<(armed: Bool, held: (@Sendable () -> Void)?)>((false, nil))
    private let writeHeld = DispatchSemaphore(value: 0)

    /// The next write waits for ``releaseHeldWrite()``.
    func holdNextWrite() {
        holding.withLock { $0.armed = true }
    }

    /// Waits until a write is held; false if the guard ran out first.
    func waitForAHeldWrite() -> Bool {
        writeHeld.wait(timeout: .now() + 30) == .success
    }

    func releaseHeldWrite() {
        let held = holding.withLock { state in
            defer { state.held = nil }
            return state.held
        }
        held?()
    }

    func get(_ query: any Query) -> Response<Note> { store.get(query) }
    func getAll(_ query: any Query) -> Response<[Note]> { store.getAll(query) }
    func put(_ value: Note) -> Response<Note> { held { self.store.put(value) } }
    func putAll(_ values: [Note]) -> Response<[Note]> { held { self.store.putAll(values) } }
    func delete(_ query: any Query) -> Response<Void> { held { self.store.delete(query) } }
    func deleteAll(_ query: any Query) -> Response<Void> { held { self.store.deleteAll(query) } }

    private func held<T: Sendable>(_ write: @escaping @Sendable () -> Response<T>) -> Response<T> {
        let (response, resolver) = Response<T>.makePending()
        let isHeld = holding.withLock { state in
            guard state.armed else { return false }
            state.armed = false
            state.held = { _ = write().onResult(on: .immediate) { _ = resolver.resolve($0) } }
            return true
        }
        if isHeld {
            writeHeld.signal()
        } else {
            _ = write().onResult(on: .immediate) { _ = resolver.resolve($0) }
        }
        return response
    }
}
#endif
