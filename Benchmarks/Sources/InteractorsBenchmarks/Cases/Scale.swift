import Interactors

// MARK: Costs that must not grow with the load
//
// Each row is one round of `n` operations; the report divides its time by `n`, so a cost that stays flat shows
// the same time per item in the 10,000 and the 100,000 rows, and the chart of time against n is a straight line
// through the origin.

extension BenchmarkCase {
    /// The scale rows, in table order.
    static let scale: [BenchmarkCase] =
        [1_000, 10_000, 100_000].map { timeoutsOnPending(n: $0) }
        + [1_000, 10_000, 100_000].map { timeoutsOnSettled(n: $0) }
        + [1_000, 10_000, 40_000].map { consumersLettingGo(n: $0) }

    /// `n` pending responses, each given a 600-second `timeout(after:)`: the timer holds `n` deadlines at once.
    /// Timed: the `n` calls; then the responses are settled, untimed, and their entries leave the timer.
    static func timeoutsOnPending(n: Int) -> BenchmarkCase {
        BenchmarkCase(
            id: "scale-timeout-pending-\(n)",
            title: "\(n.formatted) pending responses, `timeout(after: 600 s)` each",
            iterations: 1,
            quickIterations: 1,
            itemsPerRound: n,
            table: .scale,
            samples: (full: 7, quick: 2),
            skippedInQuickMode: n > 10_000,
            contenders: [
                .sync(.response, "`makePending`, untimed; then `timeout(after: .seconds(600))` on each") { run in
                    let (responses, resolvers) = pendingResponses(n)
                    timePerPending(run, responses, resolvers) { $0.timeout(after: .seconds(600)) }
                },
                .sync(.mapReference, "`makePending`, untimed; then `map { $0 + 1 }` on each") { run in
                    let (responses, resolvers) = pendingResponses(n)
                    timePerPending(run, responses, resolvers) { $0.map { $0 + 1 } }
                },
            ],
            targets: [
                .ratio(
                    "scale-timeout-pending-\(n)",
                    .response,
                    to: .mapReference,
                    atMost: 40,
                    "≤ 40 `map`s per call, however many are pending"
                )
            ]
        )
    }

    /// `Response(value:).timeout(after: 600 s)`, `n` times, the reproduction: each timed response
    /// settles at once, and nothing is left in the timer.
    static func timeoutsOnSettled(n: Int) -> BenchmarkCase {
        BenchmarkCase(
            id: "scale-timeout-settled-\(n)",
            title: "\(n.formatted) × `Response(value:).timeout(after: 600 s)`",
            iterations: 1,
            quickIterations: 1,
            itemsPerRound: n,
            table: .scale,
            samples: (full: 7, quick: 2),
            skippedInQuickMode: n > 10_000,
            contenders: [
                .sync(.response, "`Response(value: i).timeout(after: .seconds(600))`, the result dropped") { run in
                    for index in 0..<n { blackHole(Response(value: index).timeout(after: .seconds(600))) }
                },
                .sync(.mapReference, "`Response(value: i).map { $0 + 1 }`, the result dropped") { run in
                    for index in 0..<n { blackHole(Response(value: index).map { $0 + 1 }) }
                },
            ],
            targets: [
                .ratio(
                    "scale-timeout-settled-\(n)",
                    .response,
                    to: .mapReference,
                    atMost: 2,
                    "≤ 2x a `map`"
                )
            ]
        )
    }

    /// `n` consumers (`map`s) of one shared pending response, then each cancelled, in order: every release
    /// takes its stage out of the shared response's handlers.
    static func consumersLettingGo(n: Int) -> BenchmarkCase {
        BenchmarkCase(
            id: "scale-let-go-\(n)",
            title: "\(n.formatted) consumers of one pending response letting go (`cancel()` each)",
            iterations: 1,
            quickIterations: 1,
            itemsPerRound: n,
            table: .scale,
            samples: (full: 7, quick: 2),
            contenders: [
                .sync(.response, "`shared.map { $0 + 1 }` ×n, untimed; then `cancel()` on each") { run in
                    let (shared, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
                    let keeper = shared.map { $0 }  // keeps the shared response needed to the end
                    var derived: [Response<Int>] = []
                    derived.reserveCapacity(n)
                    for _ in 0..<n { derived.append(shared.map { $0 + 1 }) }
                    run.startClock()
                    for response in derived { response.cancel() }
                    run.stopClock()
                    resolver.succeed(1)
                    blackHole(keeper)
                }
            ],
            targets: n == 40_000
                ? [
                    .totalTime(
                        "scale-let-go-\(n)",
                        .response,
                        operations: 1,
                        atMost: 50_000_000,
                        "40,000 in ≤ 50 ms"
                    )
                ] : []
        )
    }
}

/// `n` pending responses and their resolvers, made untimed.
private func pendingResponses(_ n: Int) -> (responses: [Response<Int>], resolvers: [Resolver<Int>]) {
    var resolvers: [Resolver<Int>] = []
    var responses: [Response<Int>] = []
    resolvers.reserveCapacity(n)
    responses.reserveCapacity(n)
    for _ in 0..<n {
        let (response, resolver) = Response<Int>.makePending(callbackQueue: .immediate)
        responses.append(response)
        resolvers.append(resolver)
    }
    return (responses, resolvers)
}

/// Times `derive` on each pending response, then settles them all, untimed.
private func timePerPending(
    _ run: Run,
    _ responses: [Response<Int>],
    _ resolvers: [Resolver<Int>],
    _ derive: (Response<Int>) -> Response<Int>
) {
    var derived: [Response<Int>] = []
    derived.reserveCapacity(responses.count)
    run.startClock()
    for response in responses { derived.append(derive(response)) }
    run.stopClock()
    for (index, resolver) in resolvers.enumerated() { resolver.succeed(index) }
    blackHole(derived)
}
