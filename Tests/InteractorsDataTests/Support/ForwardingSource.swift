import DataTestSupport
import Interactors
import InteractorsData

/// A main source over another, answering some calls its own way: a server's search endpoint, a server that runs
/// no closures, one that answers a delete with notFound. What `getAll` or a delete returns nil for goes to `base`.
struct ForwardingSource: GetDataSource, PutDataSource, DeleteDataSource {
    typealias Value = Note

    let base: any GetDataSource<Note> & PutDataSource<Note> & DeleteDataSource<Note>
    var getAll: @Sendable (any Query) -> Response<[Note]>? = { _ in nil }
    var deletes: @Sendable (any Query) -> Response<Void>? = { _ in nil }

    func get(_ query: any Query) -> Response<Note> { base.get(query) }
    func getAll(_ query: any Query) -> Response<[Note]> { getAll(query) ?? base.getAll(query) }
    func put(_ value: Note) -> Response<Note> { base.put(value) }
    func putAll(_ values: [Note]) -> Response<[Note]> { base.putAll(values) }
    func delete(_ query: any Query) -> Response<Void> { deletes(query) ?? base.delete(query) }
    func deleteAll(_ query: any Query) -> Response<Void> { deletes(query) ?? base.deleteAll(query) }
}
