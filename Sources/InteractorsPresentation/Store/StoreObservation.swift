import Interactors

/// An observer's hold on a ``Store``: keep it for as long as the observer should hear about changes.
///
/// ```swift
/// final class LoginViewController {
///     private var observation: StoreObservation?
///
///     func viewDidLoad() {
///         observation = presenter.store.observe(on: .main) { [weak self] screen in self?.render(screen) }
///     }
/// }
/// ```
///
/// ``cancel()`` stops the observer, drops the states queued for it but not yet told, and releases its closure;
/// releasing the observation cancels it. An observation does not keep its store alive: when the store is
/// released, its observers hear the states already queued for them and their closures are released.
///
/// Observations are compared by identity, so a screen with several can keep them in a set:
///
/// ```swift
/// private var observations: Set<StoreObservation> = []
///
/// store.observe(on: .main) { screen in render(screen) }.store(in: &observations)
/// ```
public final class StoreObservation: Sendable, Hashable {
    private let cancellation: LockedBox<(@Sendable () -> Void)?>

    init(cancel: @escaping @Sendable () -> Void) {
        self.cancellation = LockedBox(cancel)
    }

    deinit {
        cancel()
    }

    /// Stops the observer: no state is told to it from now on (a delivery already running on another thread
    /// finishes), and its closure is released. Cancelling again does nothing.
    public func cancel() {
        let cancel = cancellation.withLock { cancellation in
            defer { cancellation = nil }
            return cancellation
        }
        cancel?()
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool {
        cancellation.withLock { $0 == nil }
    }

    /// Keeps this observation in `observations`, where it lives, and observes, until removed or the set is
    /// released.
    public func store(in observations: inout Set<StoreObservation>) {
        observations.insert(self)
    }

    /// Whether `lhs` and `rhs` are the same observation.
    public static func == (lhs: StoreObservation, rhs: StoreObservation) -> Bool {
        lhs === rhs
    }

    /// Hashes the observation's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
