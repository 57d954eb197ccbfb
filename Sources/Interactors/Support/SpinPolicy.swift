import Dispatch
import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether, and how long, a blocking call watches for the outcome before it parks: spinning only while it pays.
///
/// A blocked `get()` that watches the flag for a few microseconds saves the park and the wake-up when another core
/// settles the response that fast. It pays only with a second core free to settle on, and only for work that
/// short: on a loaded machine the spinner takes the core the settling thread needs (measured: 1.6x the
/// dispatch-and-semaphore floor with both cores busy; the settler, woken by the waiter, is often queued behind it
/// on the waiter's own core), and for work that takes milliseconds every spin is wasted. So the policy learns from the
/// spins themselves, process-wide (see ``SpinCredit``): a spin that saw the settlement earns a credit; one that
/// ran out of budget, or lost its core on the way (the clock jumped between two polls: the scheduler ran
/// something else for a while, the sign of a loaded machine), costs ``SpinCredit/failurePenalty``. While the
/// credit is negative, waiters park at once.
///
/// The spinner does not `sched_yield` between polls, though that let a settler queued on its core run sooner: with
/// a CPU-bound thread on the same core, a yield handed it a whole time slice, and the waiter came back a
/// millisecond later (measured: medians up to 1 ms in quick runs of the benchmarks' loaded case). A spin costs at
/// most its budget.
enum SpinPolicy {
    /// The longest a waiter watches the flag.
    static let budgetNanoseconds: UInt64 = 20_000

    /// A gap this long between two clock reads 16 polls apart (tens of nanoseconds) means the spinner lost its
    /// core.
    static let preemptionNanoseconds: UInt64 = 5_000

    /// Spinning is pointless on a single core: the settler cannot run while we spin.
    static let hasSecondCore = sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1

    /// The process's record of recent spins.
    static let credit = SpinCredit()

    /// Watches `isSettled` until it returns `true`, the budget or `deadline` runs out, or the spinner loses its
    /// core, if `credit` says spinning pays; records the outcome in `credit`. Returns whether `isSettled`
    /// returned `true`.
    @inline(__always)
    static func spin(
        until deadline: DispatchTime?,
        credit: SpinCredit = SpinPolicy.credit,
        isSettled: () -> Bool
    ) -> Bool {
        guard hasSecondCore, credit.shouldSpin() else { return isSettled() }
        let start = DispatchTime.now().uptimeNanoseconds
        let budgetEnd = start + budgetNanoseconds
        let limit = deadline.map { min(budgetEnd, $0.uptimeNanoseconds) } ?? budgetEnd
        var last = start
        var polls = 0
        while !isSettled() {
            polls += 1
            guard polls & 15 == 0 else { continue }
            let now = DispatchTime.now().uptimeNanoseconds
            // A spin cut short by the caller's deadline says nothing about the machine.
            if now >= limit, limit < budgetEnd { return isSettled() }
            if now >= limit || now &- last > preemptionNanoseconds {
                credit.record(paid: false)
                return isSettled()
            }
            last = now
        }
        credit.record(paid: true)
        return true
    }
}

/// The balance of recent spins: spin while it is not negative.
///
/// A spin that paid earns 1, one that did not costs ``failurePenalty``; while the balance is negative each waiter
/// that parks without spinning pays back 1, so spinning is tried again after a few waits and resumes once the
/// load is gone. A lost spin costs up to the budget and a won one saves a wake-up of a similar cost, so spinning
/// pays when more than about three spins in four succeed: a penalty of 3 sets the balance there. The bounds make
/// a long run of either kind forgotten within a few dozen waits.
final class SpinCredit: Sendable {
    /// Credits a spin that did not pay costs.
    static let failurePenalty = 3

    /// The balance stays within these bounds.
    static let bounds = -24...8

    private let balance = Atomic<Int>(0)

    init() {}

    /// Whether the next blocking wait should spin before it parks. A `false` pays back one credit, never past 0:
    /// many waiters that saw the same negative balance would otherwise each add theirs, past the upper bound.
    func shouldSpin() -> Bool {
        var current = balance.load(ordering: .relaxed)
        while current < 0 {
            let (exchanged, original) = balance.compareExchange(
                expected: current,
                desired: current + 1,
                ordering: .relaxed
            )
            if exchanged { return false }
            current = original
        }
        return true
    }

    /// Records how a spin went.
    func record(paid: Bool) {
        let change = paid ? 1 : -Self.failurePenalty
        var current = balance.load(ordering: .relaxed)
        while true {
            let next = min(max(current + change, Self.bounds.lowerBound), Self.bounds.upperBound)
            if next == current { return }
            let (exchanged, original) = balance.compareExchange(expected: current, desired: next, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// The current balance, for tests.
    var current: Int { balance.load(ordering: .relaxed) }
}
