import Interactors

/// An observer's hold on a data source's changes (`observe` methods such as `SQLiteDataSource.observe(_:on:_:)`): keep
/// it for as long as the observer should hear about them.
///
/// ```swift
/// final class NotesViewController {
///     private var observation: DataObservation?
///
///     func viewDidLoad() {
///         observation = notes.observe(AllObjectsQuery(), on: .main) { [weak self] result in self?.render(result) }
///     }
/// }
/// ```
///
/// ``cancel()`` stops the observer: once it returns, no call to the observer starts (one running on another
/// thread finishes), and the observer's closure is released. Releasing the observation cancels it. Observations
/// are compared by identity, so a screen with several can keep them in a set (``store(in:)``).
///
/// A data source of your own makes one with ``init(cancel:)``, passing what stops its observer.
public final class DataObservation: Sendable, Hashable {
    private let stop: LockedBox<(@Sendable () -> Void)?>

    /// An observation that runs `cancel` once, the first time it is cancelled or when it is released.
    public init(cancel: @escaping @Sendable () -> Void) {
        self.stop = LockedBox(cancel)
    }

    deinit {
        cancel()
    }

    /// Stops the observer and releases its closure. Cancelling again does nothing.
    public func cancel() {
        let stop = self.stop.withLock { stop in
            defer { stop = nil }
            return stop
        }
        stop?()
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool {
        stop.withLock { $0 == nil }
    }

    /// Keeps this observation in `observations`, where it lives until removed or the set is released.
    public func store(in observations: inout Set<DataObservation>) {
        observations.insert(self)
    }

    /// Whether `lhs` and `rhs` are the same observation.
    public static func == (lhs: DataObservation, rhs: DataObservation) -> Bool {
        lhs === rhs
    }

    /// Hashes the observation's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
