import Interactors

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whose turn it is to update a store, who waits for one, and the updates deferred by the thread applying one.
///
/// One thread applies an update at a time; others wait, in no promised order, and are handed the turn one by one
/// (no thread barges in while a turn is being handed over). An update called by the thread applying one (from its
/// change, a translator or an Observation `onChange`) could only wait for itself: it is queued here instead, and
/// that thread applies it before it gives up the turn.
///
/// Kept in the store's `Storage`, read and written under its lock; the lock is never held while a change runs.
struct UpdateTurns<State> {
    /// The thread applying an update, if any. Only that thread ever writes its own identity here, so a thread
    /// that reads its own identity is certainly the one applying an update.
    private var updater: UInt?
    /// The turn was given up with updaters waiting: the one woken takes it, and nobody else may.
    private var isHandingOff = false
    private var waiting = 0
    /// Changes the updater made while applying one, in call order. Only the updater appends and takes them, so
    /// the closures (not `Sendable`) never leave its thread.
    private var deferred = FIFO<DeferredChange<State>>()

    /// Takes the turn for `thread` if it is free; queues `change` if `thread` has it already.
    mutating func take(by thread: UInt, deferring change: () -> DeferredChange<State>) -> UpdateTurn<Void> {
        if updater == thread {
            deferred.append(change())
            return .deferred
        }
        guard updater == nil, !isHandingOff else {
            waiting += 1
            return .wait
        }
        updater = thread
        return .granted(())
    }

    /// `thread`, woken after `take` answered `.wait`, takes the turn handed over to it.
    mutating func accept(by thread: UInt) {
        updater = thread
        isHandingOff = false
    }

    /// The oldest change deferred by the updater, if any.
    mutating func nextDeferred() -> DeferredChange<State>? {
        deferred.popFirst()
    }

    /// Gives up the turn; returns whether a waiting updater must be woken to take it.
    mutating func release() -> Bool {
        updater = nil
        guard waiting > 0 else { return false }
        waiting -= 1
        isHandingOff = true
        return true
    }
}

/// What asking for a turn to update gave: the turn (with what the updater starts from), a wait for it to be
/// handed over, or nothing to do now because the change was deferred.
enum UpdateTurn<Granted> {
    case granted(Granted)
    case wait
    case deferred
}

/// An update queued by the thread applying another one, applied by that thread before its turn ends.
struct DeferredChange<State> {
    let change: (inout State) throws -> Void
}

extension Store.Storage {
    /// Takes the turn for `thread`, with the state to start from, or queues `change` (see ``UpdateTurns``).
    mutating func takeTurn<E: Error>(
        by thread: UInt,
        deferring change: @escaping (inout State) throws(E) -> Void
    ) -> UpdateTurn<State> {
        switch turns.take(by: thread, deferring: { DeferredChange { state in try change(&state) } }) {
        case .granted: .granted(state)
        case .wait: .wait
        case .deferred: .deferred
        }
    }

    /// `thread` takes the turn handed over to it; returns the state to start from.
    mutating func acceptTurn(by thread: UInt) -> UpdateTurn<State> {
        turns.accept(by: thread)
        return .granted(state)
    }
}

/// Writes the error of a deferred change to standard error: it can no longer reach its caller.
func reportDeferredFailure(_ error: any Error) {
    var line =
        "InteractorsPresentation: an update of a Store made during another update of the same store (from its "
        + "change, a translator or an Observation onChange) threw after its caller had returned, so the error "
        + "could not reach it; the state was left as it was. The error: \(error)\n"
    line.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}
