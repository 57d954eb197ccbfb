import MallocInterposerSwift

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `swift run -c release InteractorsBenchmarks [--quick]`: runs every case for `Response` and every peer in this
/// one process and prints a Markdown report to standard output.
@main
struct Benchmarks {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.contains("--help") {
            print(
                "usage: InteractorsBenchmarks [--quick] [--no-allocations] [--filter ID-SUBSTRING[,...]] [--exclude ID-SUBSTRING[,...]] "
                    + "[--charts DIRECTORY]"
            )
            return
        }
        let quick = arguments.contains("--quick")
        let wantsAllocations = !arguments.contains("--no-allocations")
        if wantsAllocations && !interposerIsLoaded() { reexecuteWithInterposer() }
        let countsAllocations = wantsAllocations && interposerIsLoaded()

        var cases = BenchmarkCase.all.filter { !quick || !$0.skippedInQuickMode }
        if let index = arguments.firstIndex(of: "--filter"), arguments.index(after: index) < arguments.endIndex {
            let wanted = arguments[arguments.index(after: index)].split(separator: ",")
            cases = cases.filter { benchmark in wanted.contains { benchmark.id.contains($0) } }
        }
        if let index = arguments.firstIndex(of: "--exclude"), arguments.index(after: index) < arguments.endIndex {
            let unwanted = arguments[arguments.index(after: index)].split(separator: ",")
            cases = cases.filter { benchmark in !unwanted.contains { benchmark.id.contains($0) } }
        }
        let harness = Harness(samples: quick ? 1 : 31, quick: quick, countsAllocations: countsAllocations)
        let results = harness.run(cases)
        StoreFixtures.shared.removeFiles()
        SharedReadsFiles.shared.removeFiles()
        print(
            quick
                ? "Quick mode: 3 samples of few iterations (stores: 2, up to 10,000 values). Figures are indicative only."
                : "Full run: 31 samples per cell (10 for the 100,000-pending rounds, 5 for the stores' slow rows), medians."
        )
        print("")
        let report = Report(cases: cases, results: results, countsAllocations: countsAllocations)
        print(report.render())
        if let index = arguments.firstIndex(of: "--charts"), arguments.index(after: index) < arguments.endIndex {
            var standardError = StandardError()
            for path in report.writeCharts(to: arguments[arguments.index(after: index)]) {
                print("wrote \(path)", to: &standardError)
            }
        }
    }

    /// Whether `malloc` goes through the interposer: only then do its counters move.
    private static func interposerIsLoaded() -> Bool {
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        let pointer = malloc(64)
        blackHole(pointer)
        free(pointer)
        MallocInterposerSwift.unhook()
        let loaded = MallocInterposerSwift.getStatistics().mallocCount > 0
        MallocInterposerSwift.reset()
        return loaded
    }

    /// Runs this executable again with the interposer preloaded (it is built next to the executable). Returns
    /// only if that is impossible; the run then goes on without allocation counts.
    private static func reexecuteWithInterposer() {
        #if os(Linux)
        let marker = "INTERACTORS_BENCHMARKS_PRELOADED"
        guard getenv(marker) == nil else { return }
        var path = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &path, path.count - 1)
        guard length > 0 else { return }
        let executable = String(decoding: path[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        let library = directory + "/libMallocInterposerSwift.so"
        guard access(library, R_OK) == 0 else { return }
        setenv(marker, "1", 1)
        setenv("LD_PRELOAD", library, 1)
        execv(executable, CommandLine.unsafeArgv)
        #endif
    }
}
