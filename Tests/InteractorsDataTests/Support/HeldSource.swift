import DataTestSupport
import Dispatch
import Interactors
import InteractorsData

/// A main source over an in-memory store whose reads can be held back: a read sent while ``holdReads()`` is on
/// takes its answer at once (the server's snapshot) and gives it only when ``release()`` is called, as a server
/// that answers slowly would. Writes go through at once.
final class HeldSource: DataSource {
    typealias Value = Note

    let store = InMemoryDataSource<Note>()
    private let state = LockedBox((holding: false, held: [@Sendable () -> Void]()))
    private let readHeld = DispatchSemaphore(value: 0)

    init(_ notes: [Note] = []) throws {
        _ = try store.putAll(notes).get()
    }

    /// From now on, reads wait for ``release()``.
    func holdReads() {
        state.withLock { $0.holding = true }
    }

    /// Waits until a read is held (the repository sent it); false if the guard ran out first.
    func waitForAHeldRead() -> Bool {
        readHeld.wait(timeout: .now() + 30) == .success
    }

    /// Answers the held reads with their snapshots, and stops holding.
    func release() {
        let held = state.withLock { state in
            defer { state = (false, []) }
            return state.held
        }
        for answer in held { answer() }
    }

    func get(_ query: any Query) -> Response<Note> { held(store.get(query)) }
    func getAll(_ query: any Query) -> Response<[Note]> { held(store.getAll(query)) }
    func put(_ value: Note) -> Response<Note> { store.put(value) }
    func putAll(_ values: [Note]) -> Response<[Note]> { store.putAll(values) }
    func delete(_ query: any Query) -> Response<Void> { store.delete(query) }
    func deleteAll(_ query: any Query) -> Response<Void> { store.deleteAll(query) }

    private func held<T: Sendable>(_ snapshot: Response<T>) -> Response<T> {
        let (response, resolver) = Response<T>.makePending()
        let isHeld = state.withLock { state in
            guard state.holding else { return false }
            state.held.append { _ = snapshot.onResult(on: ImmediateCallbackQueue.shared) { _ = resolver.resolve($0) } }
            return true
        }
        if isHeld { readHeld.signal() }
        if !isHeld { _ = snapshot.onResult(on: ImmediateCallbackQueue.shared) { _ = resolver.resolve($0) } }
        return response
    }
}
