/// Runs requests on the interactors registered for their types: `executor.execute(request)`.
///
/// ```swift
/// let executor = InteractorExecutor()
/// executor.register(LogIn(auth: auth, queue: DispatchQueue.global()))      // ready now
/// executor.register(LoadFeed.self) { FeedInteractor(api: api) }             // built on first use
///
/// let user = try executor.execute(LogInRequest(username: "ada", password: "secret")).get()
/// ```
///
/// One interactor per request type; registering a type again replaces its interactor. A request whose type
/// has no interactor fails with ``UnregisteredRequestError``, which says how to register one: never a crash,
/// never a lost call. Any number of threads may register, unregister and execute at once.
public final class InteractorExecutor: Sendable {
    /// The registrations, by request type: an `InteractorRegistration<R>` under `ObjectIdentifier(R.self)`, stored
    /// as an object so that finding one costs a downcast, not a dynamic cast from an existential. Replaced and
    /// removed registrations are released after the lock: releasing an interactor may run user code (its deinit).
    private let registrations = LockedBox<[ObjectIdentifier: AnyObject]>([:])

    /// Makes an executor with no interactors.
    public init() {}

    /// Registers `interactor` for its request type, replacing the one registered before.
    public func register<I: Interactor>(_ interactor: I)
    where I.Request: InteractorRequest, I.Output == I.Request.Output {
        store(InteractorRegistration(AnyInteractor(interactor)), for: I.Request.self)
    }

    /// Registers the interactor that `factory` builds for `requestType`, replacing the one registered before.
    ///
    /// The factory runs once, on the first execution of such a request, on the thread that gets there first;
    /// executions racing with it wait for that one interactor. It is never run twice, and never if no such
    /// request is executed. A factory that waits for its own request type (on its own thread, or through the
    /// library on another thread whose work executes that type) fails that nested execution with
    /// ``InteractorFactoryCycleError`` instead of waiting for itself.
    public func register<R: InteractorRequest>(
        _ requestType: R.Type,
        factory: @escaping @Sendable () -> some Interactor<R, R.Output>
    ) {
        store(InteractorRegistration<R> { AnyInteractor(factory()) }, for: requestType)
    }

    /// Removes the interactor registered for `requestType`, if any; later executions fail with
    /// ``UnregisteredRequestError``.
    public func unregister<R: InteractorRequest>(_ requestType: R.Type) {
        let removed = registrations.withLock { $0.removeValue(forKey: ObjectIdentifier(requestType)) }
        withExtendedLifetime(removed) {}
    }

    /// Whether an interactor is registered for `requestType`.
    public func isRegistered<R: InteractorRequest>(_ requestType: R.Type) -> Bool {
        registrations.withLock { $0[ObjectIdentifier(requestType)] != nil }
    }

    /// Executes `request` on the interactor registered for its type and returns that interactor's own
    /// response, so cancelling it reaches the work.
    ///
    /// Fails with ``UnregisteredRequestError`` if no interactor is registered for the request's type.
    public func execute<R: InteractorRequest>(_ request: R) -> Response<R.Output> {
        guard let registration = registration(for: R.self) else { return unregistered(R.self) }
        return registration.execute(request)
    }

    /// Runs the registered interactor's `execute` itself on `queue`, and returns a response that follows the
    /// interactor's; see ``Interactor/execute(_:on:)``.
    ///
    /// A caller running on `queue` may block on the result with ``Response/get()``: it runs the queued call in
    /// its own place instead of deadlocking. Fails with ``UnregisteredRequestError`` at once if no interactor
    /// is registered for the request's type when this is called.
    public func execute<R: InteractorRequest>(_ request: R, on queue: some CallbackQueue) -> Response<R.Output> {
        guard let registration = registration(for: R.self) else { return unregistered(R.self) }
        return Response.following(on: queue) { registration.execute(request) }
    }

    // MARK: Storage

    private func store<R: InteractorRequest>(_ registration: InteractorRegistration<R>, for type: R.Type) {
        let replaced = registrations.withLock { $0.updateValue(registration, forKey: ObjectIdentifier(type)) }
        withExtendedLifetime(replaced) {}
    }

    private func registration<R: InteractorRequest>(for type: R.Type) -> InteractorRegistration<R>? {
        // Stored under `ObjectIdentifier(R.self)` only by `store`, so the downcast cannot fail (and is checked in
        // debug builds).
        guard let registration = registrations.withLock({ $0[ObjectIdentifier(type)] }) else { return nil }
        return unsafeDowncast(registration, to: InteractorRegistration<R>.self)
    }

    private func unregistered<R: InteractorRequest>(_ type: R.Type) -> Response<R.Output> {
        Response(error: UnregisteredRequestError(type))
    }
}
