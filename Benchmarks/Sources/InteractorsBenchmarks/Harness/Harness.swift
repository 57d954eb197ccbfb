import Dispatch
import MallocInterposerSwift

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs every case, library by library in interleaved rounds, and collects medians and allocation counts.
struct Harness {
    /// Timed samples per contender; the median is reported.
    let samples: Int
    let quick: Bool
    /// Whether the interposer is loaded, so allocation counts are real; otherwise they are left out.
    let countsAllocations: Bool

    func run(_ cases: [BenchmarkCase]) -> Results {
        var results = Results()
        let bridging = countsAllocations ? measureBridgingAllocations() : 0
        for benchmark in cases {
            let iterations = quick ? benchmark.quickIterations : benchmark.iterations
            let sampleCount =
                benchmark.samples.map { quick ? $0.quick : $0.full }
                ?? (benchmark.itemsPerRound == nil ? samples : max(1, samples / 3))
            printProgress("\(benchmark.title): ")

            // Warm up every contender once, then take the samples in rounds so drift hits everyone alike. Quick mode
            // (CI's check that every case still runs) takes its figures cold: they are indicative only.
            for contender in benchmark.contenders where !quick {
                _ = time(contender, iterations: max(1, iterations / 4))
            }
            var timings: [Library: [Double]] = [:]
            for _ in 0..<sampleCount {
                for contender in benchmark.contenders {
                    let nanoseconds = time(contender, iterations: iterations)
                    timings[contender.library, default: []].append(nanoseconds / Double(iterations))
                }
            }

            for contender in benchmark.contenders {
                let perOperation = timings[contender.library]!.sorted()
                var allocations = Double.nan
                var bytes = Double.nan
                var heap: Double?
                if countsAllocations {
                    let items = Double(benchmark.itemsPerRound ?? 1)
                    let counted = countAllocations(contender, iterations: iterations)
                    let isAsync: Bool
                    if case .async = contender.body { isAsync = true } else { isAsync = false }
                    let operations = Double(iterations) * items
                    allocations = Double(counted.statistics.mallocCount - (isAsync ? bridging : 0)) / operations
                    bytes = Double(counted.statistics.mallocBytesCount) / operations
                    heap = counted.heapBytesWhilePending.map { Double($0) / items }
                }
                results[benchmark.id, contender.library] = Measurement(
                    nanoseconds: median(perOperation),
                    range: perOperation.first!...perOperation.last!,
                    allocations: allocations,
                    allocatedBytes: bytes,
                    heapBytesPerItem: heap
                )
                printProgress("\(contender.library.title) ")
            }
            printProgress("\n")
        }
        return results
    }

    /// Wall-clock nanoseconds for one call of the body with `iterations` operations.
    private func time(_ contender: Contender, iterations: Int) -> Double {
        let run = Run(iterations: iterations, countsAllocations: false)
        let start = DispatchTime.now().uptimeNanoseconds
        execute(contender.body, run)
        let end = DispatchTime.now().uptimeNanoseconds
        return Double((run.clockEnd ?? end) - (run.clockStart ?? start))
    }

    /// One more call of the body with counting on, on every thread of the process.
    private func countAllocations(
        _ contender: Contender,
        iterations: Int
    ) -> (statistics: MallocInterposerSwift.Statistics, heapBytesWhilePending: Int?) {
        let run = Run(iterations: iterations, countsAllocations: true)
        // Let other threads finish freeing what earlier runs left them, so it is not netted against this run.
        usleep(50_000)
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        execute(contender.body, run)
        MallocInterposerSwift.unhook()
        return (MallocInterposerSwift.getStatistics(), run.heapBytesWhilePending)
    }

    private func execute(_ body: Contender.Body, _ run: Run) {
        switch body {
        case .sync(let body):
            body(run)
        case .async(let body):
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                await body(run)
                done.signal()
            }
            done.wait()
        }
    }

    /// What starting a detached task and waiting for it costs in allocations, to subtract from async bodies.
    private func measureBridgingAllocations() -> Int {
        let empty = Contender.async(.concurrency, "") { _ in }
        var counts: [Int] = []
        for _ in 0..<5 {
            counts.append(countAllocations(empty, iterations: 1).statistics.mallocCount)
        }
        return counts.min()!
    }

    private func median(_ sorted: [Double]) -> Double {
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    private func printProgress(_ text: String) {
        var standardError = StandardError()
        print(text, terminator: "", to: &standardError)
    }
}
