/// The bits of `Response.state`: how far the settlement has come, a few flags, and the consumer count, in one
/// atomic word.
///
/// One word so that a response stays small, and so that the step that closes a settlement needs no lock: the
/// thread that delivered the handlers swaps `settled` for `delivered` with one compare-and-exchange, which fails
/// if anything joined meanwhile (a late handler, a parked waiter, extras to drop: ``closesSlowly``), and only
/// then takes the lock. A late registration sets its flag with an atomic read-modify-write on the same word, so
/// exactly one of the two sees the other: either the close fails and the closing thread delivers the late
/// handler, or the registering thread sees `delivered` and delivers it itself.
///
/// Every change is made with the response's lock held, except that close and the flags set while settled, which
/// are read-modify-writes. Reading needs no lock: the phase only rises, and once it says settled (read with
/// acquiring ordering) the outcome is there to read.
///
/// Computed constants, not stored ones: a stored static is reached through an accessor from the caller's module,
/// on every check of every response.
@usableFromInline
enum ResponseState {
    /// The phase, in the lowest two bits: pending, settled (the outcome is recorded, its handlers are being
    /// delivered), or delivered (every handler registered so far has run or been handed to its queue). It only
    /// ever rises.
    @inlinable static var phaseMask: UInt32 { 0b11 }
    @inlinable static var pending: UInt32 { 0 }
    @inlinable static var settled: UInt32 { 1 }
    @inlinable static var delivered: UInt32 { 2 }

    /// The response was cancelled (it failed with `CancellationError`).
    @inlinable static var cancelled: UInt32 { 1 << 2 }
    /// Settled, but nobody has started delivering yet: whoever claims it first (the thread's drain, a queue, a
    /// blocked caller) delivers. Handlers added meanwhile join the list, so registration order holds.
    @inlinable static var finishPending: UInt32 { 1 << 3 }
    /// Closing the settlement takes the lock: handlers joined late, the response has extras to drop, or threads
    /// sleep on this word.
    @inlinable static var closesSlowly: UInt32 { 1 << 4 }
    /// Blocked callers may sleep on this word (Linux futex): whoever changes the phase or defers the delivery
    /// wakes them.
    @inlinable static var hasParkedWaiters: UInt32 { 1 << 5 }
    /// A consumer let go while the response was still needed by others: the last blocked caller to leave with no
    /// consumer left cancels it (see `Response+Demand.swift`).
    @inlinable static var consumerLetGo: UInt32 { 1 << 6 }
    /// The response's work has begun and committed it to its outcome (``Resolver/commitToOutcome()``), or it waits
    /// on work that has: `cancel()` and a consumer letting go no longer settle it (see `Response+Committing.swift`).
    @inlinable static var refusesCancellation: UInt32 { 1 << 7 }
    /// A cancellation is on its way to this response through its only consumer: its work may no longer commit.
    @inlinable static var cancellationIntended: UInt32 { 1 << 8 }

    /// The consumer count, in the bits above the flags.
    @inlinable static var consumerShift: UInt32 { 9 }
    @inlinable static var oneConsumer: UInt32 { 1 << consumerShift }
    /// How many consumers one response can count: 8,388,607, far more than memory holds derived responses.
    @inlinable static var maximumConsumers: UInt32 { UInt32.max >> consumerShift }

    @inlinable
    static func phase(_ state: UInt32) -> UInt32 { state & phaseMask }

    @inlinable
    static func consumers(_ state: UInt32) -> UInt32 { state >> consumerShift }

    /// `state` with the phase replaced by `phase`.
    @inlinable
    static func state(_ state: UInt32, phase: UInt32) -> UInt32 { (state & ~phaseMask) | phase }

    /// `state` with one consumer more.
    @inlinable
    static func addingConsumer(_ state: UInt32) -> UInt32 {
        precondition(consumers(state) < maximumConsumers, "Interactors: more than 8,388,607 consumers of one response")
        return state &+ oneConsumer
    }
}
