import Interactors

/// The one shape of the CRUD interactors: a repository, and the queue their work starts on. Cancelling a
/// response before the work starts means it never starts; after, it cancels the repository's response.
///
/// `Target` is what the requests are sent to: any ``Repository`` for the six that read and write, a
/// ``CacheRepository`` for ``FetchInteractor`` and ``FetchAllInteractor``, which need its origin and ages.
struct RepositoryUseCase<Target: Sendable>: Sendable {
    let repository: Target
    let queue: any CallbackQueue

    init(_ repository: Target, _ queue: some CallbackQueue) {
        self.repository = repository
        self.queue = queue
    }

    /// Starts `request`'s repository call on the queue.
    func execute<Request: RepositoryRequest>(_ request: Request) -> Response<Request.Output>
    where Request.Target == Target {
        Response.following(on: queue) { [repository] in request.send(to: repository) }
    }
}
