import DataTestSupport
import Foundation
import Interactors
import InteractorsData

/// A data source for the repository tests: an in-memory store that records every call, can be taken offline
/// (every call then fails with `URLError(.notConnectedToInternet)`, as a phone without network would) or made
/// to fail with any error, and can answer writes as a server does, with the revision incremented.
final class RecordingSource: GetDataSource, PutDataSource, DeleteDataSource {
    typealias Value = Note

    let name: String
    private let store = InMemoryDataSource<Note>()
    private let state = LockedBox((calls: [String](), failure: (any Error)?.none))
    private let stampsRevisions: Bool

    init(_ name: String, stampsRevisions: Bool = false) {
        self.name = name
        self.stampsRevisions = stampsRevisions
    }

    /// The calls so far, as "get", "putAll" and so on.
    var calls: [String] { state.withLock { $0.calls } }

    var isOffline: Bool {
        get { state.withLock { $0.failure is URLError } }
        set { state.withLock { $0.failure = newValue ? URLError(.notConnectedToInternet) : nil } }
    }

    /// Makes every call fail with `error` (nil: answer again).
    func failEveryCall(with error: (any Error)?) {
        state.withLock { $0.failure = error }
    }

    /// Stores `notes` directly, without recording a call.
    func seed(_ notes: Note...) throws {
        _ = try store.putAll(notes).get()
    }

    /// Removes the value with `id` directly, without recording a call: another client's delete.
    func remove(_ id: String) throws {
        try store.delete(IdQuery(id)).get()
    }

    /// What the source holds, read directly.
    var contents: [Note] { (try? store.getAll(AllObjectsQuery()).get()) ?? [] }

    func get(_ query: any Query) -> Response<Note> { record("get") { store.get(query) } }
    func getAll(_ query: any Query) -> Response<[Note]> { record("getAll") { store.getAll(query) } }
    func put(_ value: Note) -> Response<Note> { record("put") { store.put(stamped(value)) } }
    func putAll(_ values: [Note]) -> Response<[Note]> { record("putAll") { store.putAll(values.map(stamped)) } }
    func delete(_ query: any Query) -> Response<Void> { record("delete") { store.delete(query) } }
    func deleteAll(_ query: any Query) -> Response<Void> { record("deleteAll") { store.deleteAll(query) } }

    private func stamped(_ note: Note) -> Note {
        guard stampsRevisions else { return note }
        var stamped = note
        stamped.revision += 1
        return stamped
    }

    private func record<T>(_ call: String, _ body: () -> Response<T>) -> Response<T> {
        let failure = state.withLock { state in
            state.calls.append(call)
            return state.failure
        }
        return failure.map { Response(error: $0) } ?? body()
    }
}
