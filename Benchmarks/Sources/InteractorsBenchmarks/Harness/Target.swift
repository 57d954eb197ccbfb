/// A target from the issue, checked against the figures of the same run.
struct Target: Sendable {
    /// What the verdict says, e.g. "met: 0.71x NIO (target ≤ 0.9x)".
    struct Verdict {
        let met: Bool
        let detail: String
    }

    /// The target as the issue states it, e.g. "≤ 0.9x NIO time".
    let statement: String
    let check: @Sendable (Results) -> Verdict?

    /// `Response`'s time in `caseID`, divided by `library`'s time in `referenceCase` (default: the same case),
    /// is at most `limit`.
    static func timeRatio(
        _ caseID: String,
        to library: Library,
        in referenceCase: String? = nil,
        atMost limit: Double,
        _ statement: String
    ) -> Target {
        Target(statement: statement) { results in
            guard let ours = results[caseID, .response], let theirs = results[referenceCase ?? caseID, library] else {
                return nil
            }
            let ratio = ours.nanoseconds / theirs.nanoseconds
            return Verdict(met: ratio <= limit, detail: "\(format(ratio: ratio)) \(library.title)")
        }
    }

    /// `library`'s time in `caseID`, divided by `reference`'s in `referenceCase` (default: the same case), is at
    /// most `limit` (for rows where the contenders are not `Response`). `referenceName` names the reference in the
    /// verdict (default: the reference library).
    static func ratio(
        _ caseID: String,
        _ library: Library,
        to reference: Library,
        in referenceCase: String? = nil,
        named referenceName: String? = nil,
        atMost limit: Double,
        _ statement: String
    ) -> Target {
        Target(statement: statement) { results in
            guard let ours = results[caseID, library], let theirs = results[referenceCase ?? caseID, reference] else {
                return nil
            }
            let ratio = ours.nanoseconds / theirs.nanoseconds
            return Verdict(met: ratio <= limit, detail: "\(format(ratio: ratio)) \(referenceName ?? reference.title)")
        }
    }

    /// `library`'s time divided by `Response`'s is at least `factor` (speed-up, or throughput ratio).
    static func speedup(_ caseID: String, over library: Library, atLeast factor: Double, _ statement: String) -> Target
    {
        Target(statement: statement) { results in
            guard let ours = results[caseID, .response], let theirs = results[caseID, library] else { return nil }
            let speedup = theirs.nanoseconds / ours.nanoseconds
            return Verdict(met: speedup >= factor, detail: "\(format(ratio: speedup)) faster than \(library.title)")
        }
    }

    /// `Response`'s allocations per operation are at most `limit`.
    static func allocations(_ caseID: String, atMost limit: Double, _ statement: String) -> Target {
        Target(statement: statement) { results in
            guard let ours = results[caseID, .response] else { return nil }
            guard ours.allocations.isFinite else { return nil }
            return Verdict(met: ours.allocations <= limit + 0.05, detail: "\(format(count: ours.allocations)) allocs")
        }
    }

    /// `Response`'s heap per pending item is at most `limit` bytes.
    static func heapPerItem(_ caseID: String, atMost limit: Double, _ statement: String) -> Target {
        Target(statement: statement) { results in
            guard let bytes = results[caseID, .response]?.heapBytesPerItem else { return nil }
            return Verdict(met: bytes <= limit, detail: "\(format(bytes: bytes)) each")
        }
    }

    /// `library`'s time per operation, times `operations`, is at most `nanoseconds` (a budget for a whole run).
    static func totalTime(
        _ caseID: String,
        _ library: Library,
        operations: Double,
        atMost nanoseconds: Double,
        _ statement: String
    ) -> Target {
        Target(statement: statement) { results in
            guard let ours = results[caseID, library] else { return nil }
            let total = ours.nanoseconds * operations
            return Verdict(met: total <= nanoseconds, detail: "\(format(nanoseconds: total)) in all")
        }
    }

    /// `Response`'s time per operation, divided over `items`, is at most `nanoseconds`.
    static func timePerItem(_ caseID: String, items: Double, atMost nanoseconds: Double, _ statement: String) -> Target
    {
        Target(statement: statement) { results in
            guard let ours = results[caseID, .response] else { return nil }
            let perItem = ours.nanoseconds / items
            return Verdict(met: perItem <= nanoseconds, detail: "\(format(nanoseconds: perItem)) per item")
        }
    }
}
