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
    ///
    /// Through a queue, the call is a `flatMap` stage after the queue's turn, not work whose response is followed:
    /// a cancellation that lands while the call runs then cancels the repository's response as the stage hands it
    /// over (a write not yet begun is withdrawn), where a followed response would be left to go ahead unseen, its
    /// caller told "cancelled" about a write that happened.
    func execute<Request: RepositoryRequest>(_ request: Request) -> Response<Request.Output>
    where Request.Target == Target {
        guard !(queue is ImmediateCallbackQueue) else {
            return Response.following(on: queue) { [repository] in request.send(to: repository) }
        }
        return Response<Void>(on: queue) {}.flatMap { [repository] in request.send(to: repository) }
    }
}
