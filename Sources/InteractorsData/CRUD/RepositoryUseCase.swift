import Interactors

/// The one shape of the six CRUD interactors: a repository, and the queue their work starts on. Cancelling a
/// response before the work starts means it never starts; after, it cancels the repository's response.
struct RepositoryUseCase<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    let repository: any Repository<Value>
    let queue: any CallbackQueue

    init(_ repository: some Repository<Value>, _ queue: some CallbackQueue) {
        self.repository = repository
        self.queue = queue
    }

    /// Starts `request`'s repository call on the queue.
    func execute<Request: RepositoryRequest>(_ request: Request) -> Response<Request.Output>
    where Request.Value == Value {
        Response<Void>(on: queue) {}.flatMap { [repository] in request.send(to: repository) }
    }
}
