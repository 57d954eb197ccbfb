import Interactors

/// Counts how many callers are inside a section at once, to check that something never runs two at a time.
final class Overlap: Sendable {
    private let counts = LockedBox((inside: 0, most: 0))

    func enter() {
        counts.withLock { counts in
            counts.inside += 1
            counts.most = max(counts.most, counts.inside)
        }
    }

    func leave() {
        counts.withLock { $0.inside -= 1 }
    }

    /// The most callers that were ever inside at once.
    var most: Int {
        counts.withLock { $0.most }
    }
}
