import Dispatch
public import Interactors

/// Whose turn it is to update a store, who waits for one, and the updates deferred by the thread applying one.
///
/// One thread applies an update at a time; others wait, in no promised order, and are handed the turn one by one
/// (no thread barges in while a turn is being handed over). An update called by the thread applying one (from its
/// change, a translator or an Observation `onChange`) could only wait for itself: it is queued here instead, and
/// that thread applies it before it gives up the turn.
///
/// Kept in the store, read and written under its lock; the lock is never held while a change runs.
@usableFromInline
struct UpdateTurns<State> {
    /// The thread applying an update, 0 if none. Only that thread ever writes its own identity here, so a thread
    /// that reads its own identity is certainly the one applying an update.
    @usableFromInline var updater: UInt = 0
    /// The turn was given up with updaters waiting: the one woken takes it, and nobody else may.
    @usableFromInline var isHandingOff = false
    @usableFromInline var waiting = 0
    /// Changes the updater made while applying one, in call order. Only the updater appends and takes them, so
    /// the closures (not `Sendable`) never leave its thread.
    @usableFromInline var deferred = FIFO<DeferredChange<State>>()

    @inlinable
    init() {}

    /// Takes the turn for `thread` if it is free. `.deferred` if `thread` has it already: the caller queues its
    /// change with ``defer(_:)``.
    @inlinable
    mutating func take(by thread: UInt) -> UpdateTurn {
        if updater == thread { return .deferred }
        guard updater == 0, !isHandingOff else {
            waiting += 1
            return .wait
        }
        updater = thread
        return .granted
    }

    /// `thread`, woken after `take` answered `.wait`, takes the turn handed over to it.
    @inlinable
    mutating func accept(by thread: UInt) {
        updater = thread
        isHandingOff = false
    }

    @inlinable
    var hasDeferred: Bool { !deferred.isEmpty }

    /// Queues a change the updater made while applying one.
    mutating func `defer`(_ change: DeferredChange<State>) {
        deferred.append(change)
    }

    /// The oldest change deferred by the updater, if any.
    mutating func nextDeferred() -> DeferredChange<State>? {
        deferred.popFirst()
    }

    /// Gives up the turn; returns whether a waiting updater must be woken to take it.
    @inlinable
    mutating func release() -> Bool {
        updater = 0
        guard waiting > 0 else { return false }
        waiting -= 1
        isHandingOff = true
        return true
    }
}

/// What asking for a turn to update gave: the turn, a wait for it to be handed over, or nothing to do now because
/// the change must be deferred.
@usableFromInline
enum UpdateTurn {
    case granted
    case wait
    case deferred
}

/// An update queued by the thread applying another one, applied by that thread before its turn ends.
@usableFromInline
struct DeferredChange<State> {
    let change: (inout State) throws -> Void
}

/// The semaphore an updater waiting for its turn sleeps on: a store's turns can last as long as a change runs,
/// so waiters sleep rather than spin. Not generic, and not inlined: Dispatch stays an internal import.
@usableFromInline
final class TurnHandoff: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    @usableFromInline
    init() {}

    @usableFromInline
    func wait() {
        semaphore.wait()
    }

    @usableFromInline
    func signal() {
        semaphore.signal()
    }
}

/// The calling thread's identity, never 0, for a store's turns (a call, so Glibc stays an internal import).
@usableFromInline
func currentUpdaterID() -> UInt {
    currentThreadID()
}

// MARK: Deferred changes (the rare path, not inlined)

extension Store {
    /// Queues `change`, made by the thread applying an update, to be applied before that update returns.
    @usableFromInline
    func deferChange<E: Error>(_ change: @escaping (inout State) throws(E) -> Void) {
        let deferred = DeferredChange<State> { state in try change(&state) }
        lock.withLock { turns.defer(deferred) }
    }

    /// Applies the deferred changes, oldest first, including those they defer themselves. A change that throws
    /// leaves the state as it was, and its error goes to standard error.
    @usableFromInline
    func applyDeferredChanges(telling told: inout [Subscription<State>]) {
        while let deferred = lock.withLock({ turns.nextDeferred() }) {
            do {
                try apply(deferred.change, telling: &told)
            } catch {
                reportDeferredFailure(error)
            }
        }
    }
}

/// Writes the error of a deferred change to standard error: it can no longer reach its caller.
private func reportDeferredFailure(_ error: any Error) {
    writeToStandardError(
        "InteractorsPresentation: an update of a Store made during another update of the same store (from its "
            + "change, a translator or an Observation onChange) threw after its caller had returned, so the error "
            + "could not reach it; the state was left as it was. The error: \(error)"
    )
}
