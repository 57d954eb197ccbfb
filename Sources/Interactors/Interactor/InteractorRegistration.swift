import Dispatch

/// The interactor an ``InteractorExecutor`` holds for one request type: ready at once, or built by a factory
/// on first use, exactly once.
///
/// The factory is user code, so it never runs under the lock: the first thread marks the registration as
/// building and runs it unlocked; threads that arrive meanwhile park on a semaphore until it is built. A
/// factory that executes its own request type would wait for itself, on its own thread or through another one
/// whose work the build waits for: that call fails with ``InteractorFactoryCycleError`` instead of hanging (see
/// ``WaitRecord``).
final class InteractorRegistration<Request: InteractorRequest>: Sendable {
    typealias Erased = AnyInteractor<Request, Request.Output>

    private enum State {
        case ready(Erased)
        case unbuilt(@Sendable () -> Erased)
        case building(builder: WaitRecord, waiters: [DispatchSemaphore])
    }

    private enum Next {
        case use(Erased)
        case build(@Sendable () -> Erased)
        case wait(for: WaitRecord, on: DispatchSemaphore)
        case cycle
    }

    private let state: LockedBox<State>

    /// A registration of an interactor that is ready.
    init(_ interactor: Erased) {
        state = LockedBox(.ready(interactor))
    }

    /// A registration whose interactor `factory` builds on first use.
    init(factory: @escaping @Sendable () -> Erased) {
        state = LockedBox(.unbuilt(factory))
    }

    /// Executes `request` on the interactor, building it first if this is the first use.
    func execute(_ request: Request) -> Response<Request.Output> {
        switch interactor() {
        case .success(let interactor): interactor.execute(request)
        case .failure(let error): Response(error: error)
        }
    }

    /// The interactor, once built; a cycle error if the build waits, through the library, for the calling
    /// thread (it runs the build, or work the build waits for).
    private func interactor() -> Result<Erased, InteractorFactoryCycleError> {
        while true {
            let next = state.withLock { state -> Next in
                switch state {
                case .ready(let interactor):
                    return .use(interactor)
                case .unbuilt(let factory):
                    state = .building(builder: WaitRecord.current, waiters: [])
                    return .build(factory)
                case .building(let builder, var waiters):
                    if builder === WaitRecord.current { return .cycle }
                    let waiter = DispatchSemaphore(value: 0)
                    waiters.append(waiter)
                    state = .building(builder: builder, waiters: waiters)
                    return .wait(for: builder, on: waiter)
                }
            }
            switch next {
            case .use(let interactor):
                return .success(interactor)
            case .build(let factory):
                return .success(build(with: factory))
            case .wait(let builder, let waiter):
                // Signalled as soon as the builder stores the interactor; then look again. Gives up when the
                // build turns out to wait for this thread's own work.
                if !WaitRecord.wait(on: waiter, for: builder, until: { !isBuilding }) {
                    withdraw(waiter)
                    return .failure(InteractorFactoryCycleError(Request.self))
                }
            case .cycle:
                return .failure(InteractorFactoryCycleError(Request.self))
            }
        }
    }

    private var isBuilding: Bool {
        state.withLock { state in
            if case .building = state { return true }
            return false
        }
    }

    /// Takes back a waiter that stopped waiting.
    private func withdraw(_ waiter: DispatchSemaphore) {
        state.withLock { state in
            guard case .building(let builder, var waiters) = state else { return }
            waiters.removeAll { $0 === waiter }
            state = .building(builder: builder, waiters: waiters)
        }
    }

    private func build(with factory: @Sendable () -> Erased) -> Erased {
        // What the factory blocks on is published, so a thread that waits for this build can tell whether the
        // build waits for it.
        let built = WaitRecord.publishingWaits { factory() }
        let waiters = state.withLock { state -> [DispatchSemaphore] in
            defer { state = .ready(built) }
            if case .building(_, let waiters) = state { return waiters }
            return []
        }
        for waiter in waiters { waiter.signal() }
        return built
    }
}
