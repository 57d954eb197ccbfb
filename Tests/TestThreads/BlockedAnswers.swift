package import Interactors
package import Testing

extension BlockedStages {
    /// `count` handlers and stages blocked on the answers of a component's calls, `issue(index)` making each call:
    /// the even ones an `.immediate` handler, the odd ones a `map` stage, so both kinds run where the component
    /// answers. `issued` runs once every call is issued: hold the component until then (its lock, its writer), so
    /// that no answer comes before its handler or stage is added, which would then run on the test's thread.
    package convenience init<Answer: Sendable>(
        answersOf count: Int,
        issue: (_ index: Int) -> Response<Answer>,
        issued: () -> Void
    ) {
        var index = 0
        self.init(count) { body in
            let answer = issue(index)
            if index.isMultiple(of: 2) {
                answer.onResult(on: .immediate) { _ in body() }
            } else {
                _ = answer.map { _ in body() }
            }
            index += 1
            if index == count { issued() }
        }
    }
}

/// Times each of `calls` again, now that stages block, and expects each within issue 32's bound of its
/// `unblocked` latencies.
package func expectWithinTheBound(
    _ calls: [(name: String, call: () -> Void)],
    of unblocked: [Latencies],
    runs: Int = 15,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for (index, call) in calls.enumerated() {
        let latencies = Latencies(of: runs, call.call)
        #expect(
            latencies.areWithinTheBound(of: unblocked[index]),
            "\(call.name): \(latencies) blocked, \(unblocked[index]) unblocked",
            sourceLocation: sourceLocation
        )
    }
}
