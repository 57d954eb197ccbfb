import Interactors

/// Starts `work` on `queue` and follows the response it returns: the CRUD interactors' executor. Cancelling the
/// result before the work starts means it never starts; after, it cancels the repository's response.
func run<Value: Sendable>(
    on queue: any CallbackQueue,
    _ work: @escaping @Sendable () -> Response<Value>
) -> Response<Value> {
    Response<Void>(on: queue) {}.flatMap { work() }
}
