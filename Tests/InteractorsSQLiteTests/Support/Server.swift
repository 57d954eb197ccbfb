import Foundation
import Interactors
import InteractorsData

/// A main source for the cache tests: an in-memory store that counts the reads it answers and can be taken
/// offline (every call then fails with `URLError(.notConnectedToInternet)`, as a phone without network would).
final class Server<Value: Identifiable & Sendable>: GetDataSource, PutDataSource, DeleteDataSource
where Value.ID: Sendable {
    let store = InMemoryDataSource<Value>()
    private let state = LockedBox((reads: 0, isOffline: false))

    init(_ values: [Value] = []) throws {
        _ = try store.putAll(values).get()
    }

    /// The reads answered or refused so far.
    var reads: Int { state.withLock { $0.reads } }

    var isOffline: Bool {
        get { state.withLock { $0.isOffline } }
        set { state.withLock { $0.isOffline = newValue } }
    }

    func get(_ query: any Query) -> Response<Value> { answer(reading: true) { store.get(query) } }
    func getAll(_ query: any Query) -> Response<[Value]> { answer(reading: true) { store.getAll(query) } }
    func put(_ value: Value) -> Response<Value> { answer { store.put(value) } }
    func putAll(_ values: [Value]) -> Response<[Value]> { answer { store.putAll(values) } }
    func delete(_ query: any Query) -> Response<Void> { answer { store.delete(query) } }
    func deleteAll(_ query: any Query) -> Response<Void> { answer { store.deleteAll(query) } }

    private func answer<T>(reading: Bool = false, _ call: () -> Response<T>) -> Response<T> {
        let isOffline = state.withLock { state in
            if reading { state.reads += 1 }
            return state.isOffline
        }
        return isOffline ? Response(error: URLError(.notConnectedToInternet)) : call()
    }
}
