import Dispatch
import Interactors
import TestThreads
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Seeded schedule stress: threads run random operations on shared responses, then the invariants are checked.
/// The operations are reproducible from the seed (the interleaving is the machine's). A failure names its seed;
/// `INTERACTORS_STRESS_SEED=N swift test --filter ResponseScheduleStressTests` runs that one seed again, and
/// `INTERACTORS_STRESS_SEEDS=N` sets how many seeds a run tries.
@Suite(.onThreadsOfTheirOwn) struct ResponseScheduleStressTests {
    @Test func randomOperationsFromManyThreadsKeepEveryPromise() async {
        // On a thread of its own: the runs block for their threads, and Swift's cooperative pool is two threads
        // here.
        let failed = await onAThreadOfItsOwn { () -> (seed: UInt64, failures: [String])? in
            for seed in StressEnvironment().seeds {
                let failures = StressRun(seed: seed).run()
                if !failures.isEmpty { return (seed, failures) }
            }
            return nil
        }
        #expect(failed == nil, "seed \(failed?.seed ?? 0): \(failed?.failures.joined(separator: "; ") ?? "")")
    }
}

private struct StressEnvironment {
    var seeds: [UInt64] {
        if let one = value("INTERACTORS_STRESS_SEED").flatMap(UInt64.init) { return [one] }
        let count = value("INTERACTORS_STRESS_SEEDS").flatMap(Int.init) ?? 2_000
        return (0..<UInt64(count)).map { $0 &* 0x9E37_79B9 &+ 1 }
    }

    private func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// SplitMix64: small, fast and fully determined by its seed.
private struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// One seed's run: shared responses, threads of random operations, then the checks.
private final class StressRun: Sendable {
    static let threads = 3
    static let operations = 24
    static let responses = 4

    let seed: UInt64
    let serial = DispatchQueue(label: "stress.serial")
    /// Per response: each handler's (thread, sequence, queue) in the order the handlers ran.
    let runs = (0..<StressRun.responses).map { _ in Recorder<HandlerRun>() }
    let registered = Counter()
    /// Handlers of timed-out and abandoned responses, delivered elsewhere: counted, not ordered.
    let deliveredElsewhere = Counter()
    let settledByResolver = (0..<StressRun.responses).map { _ in Counter() }
    let lateWaits = Recorder<String>()
    let tracked = Recorder<WeakResponse>()

    init(seed: UInt64) { self.seed = seed }

    /// The shared responses, read by each thread into a local (released before the thread reports done), and
    /// dropped before the checks.
    private let shared = LockedBox<[(Response<Int>, Resolver<Int>)]>([])

    func run() -> [String] {
        shared.withLock { $0 = (0..<Self.responses).map { _ in Response<Int>.makePending() } }
        let group = DispatchGroup()
        for thread in 0..<Self.threads {
            group.enter()
            // Threads of their own, not Dispatch's pool, which other tests may keep busy for seconds.
            PlatformThread.detach {
                self.operate(thread: thread)
                group.leave()
            }
        }
        guard group.wait(timeout: .now() + 30) == .success else { return ["operations did not finish (hang)"] }
        do {
            let pairs = shared.withLock { pairs in
                defer { pairs = [] }
                return pairs
            }
            for (index, (response, resolver)) in pairs.enumerated() {
                if resolver.succeed(-1) { settledByResolver[index].increment() }
                tracked.record(WeakResponse(response))
            }
        }
        return finish()
    }

    /// Lets queued handlers run, and the responses go, then checks. Deliveries made elsewhere finish on their
    /// own: the immediate handlers of a timed-out or abandoned response run on a global queue, which other tests
    /// running meanwhile may keep busy for seconds (some saturate it on purpose), so the guard is generous.
    private func finish() -> [String] {
        serial.sync {}
        let allRan = eventually(guardSeconds: 60) { ranCount == registered.value }
        if allRan { serial.sync {} }
        _ = eventually(guardSeconds: 60) { tracked.elements.allSatisfy { $0.response == nil } }
        return check()
    }

    /// One thread's operations; its copy of the shared responses goes when it returns.
    private func operate(thread: Int) {
        let pairs = shared.withLock { $0 }
        var random = SeededGenerator(seed: seed &* 31 &+ UInt64(thread))
        for sequence in 0..<Self.operations {
            operate(on: pairs, thread: thread, sequence: sequence, random: &random)
        }
    }

    private var ranCount: Int {
        runs.reduce(0) { $0 + $1.count } + deliveredElsewhere.value
    }

    private func operate(
        on pairs: [(Response<Int>, Resolver<Int>)],
        thread: Int,
        sequence: Int,
        random: inout SeededGenerator
    ) {
        let index = Int.random(in: 0..<pairs.count, using: &random)
        let (response, resolver) = pairs[index]
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            if resolver.succeed(sequence) { settledByResolver[index].increment() }
        case 1:
            response.cancel()
        case 2, 3:
            let onSerial = Bool.random(using: &random)
            let run = HandlerRun(thread: thread, sequence: sequence, onSerial: onSerial)
            let recorder = runs[index]
            registered.increment()
            if onSerial {
                response.onResult(on: serial) { _ in recorder.record(run) }
            } else {
                response.onResult(on: .immediate) { _ in recorder.record(run) }
            }
        case 4:
            let before = DispatchTime.now()
            _ = try? response.get(timeout: .microseconds(200))
            let elapsed = DispatchTime.now().uptimeNanoseconds - before.uptimeNanoseconds
            // Generous: a timed wait runs no work in its place here, so only scheduling delays it.
            if elapsed > 2_000_000_000 { lateWaits.record("get(timeout:) took \(elapsed) ns") }
        case 5:
            let mapped = response.map { $0 + 1 }
            tracked.record(WeakResponse(mapped))
            if Bool.random(using: &random) { mapped.cancel() }
        case 6:
            let other = pairs[Int.random(in: 0..<pairs.count, using: &random)].0
            let race = Response.race([response, other], callbackQueue: .immediate)
            tracked.record(WeakResponse(race))
            if Bool.random(using: &random) { race.cancel() }
        case 8:
            let timed = response.timeout(after: .microseconds(Int.random(in: 0...300, using: &random)))
            tracked.record(WeakResponse(timed))
            addCountedHandler(to: timed, onSerial: Bool.random(using: &random))
        case 9:
            // A response whose resolver this thread drops unresolved: abandoned, delivered elsewhere.
            let abandoned = Response<Int>.makePending().response
            tracked.record(WeakResponse(abandoned))
            addCountedHandler(to: abandoned, onSerial: Bool.random(using: &random))
        default:
            if response.isDone { _ = try? response.get() }
        }
    }

    private func addCountedHandler(to response: Response<Int>, onSerial: Bool) {
        registered.increment()
        let delivered = deliveredElsewhere
        let queue: any CallbackQueue = onSerial ? serial : ImmediateCallbackQueue.shared
        response.onResult(on: queue) { _ in delivered.increment() }
    }

    private func check() -> [String] {
        var failures = lateWaits.elements
        for index in 0..<Self.responses where settledByResolver[index].value > 1 {
            failures.append("response \(index) settled \(settledByResolver[index].value) times")
        }
        let ran = ranCount
        if ran != registered.value { failures.append("\(registered.value) handlers registered, \(ran) ran") }
        for (index, recorder) in runs.enumerated() {
            let elements = recorder.elements
            for thread in 0..<Self.threads {
                for onSerial in [false, true] {
                    let sequences = elements.filter { $0.thread == thread && $0.onSerial == onSerial }.map(\.sequence)
                    if sequences != sequences.sorted() {
                        failures.append("response \(index), thread \(thread): handlers ran as \(sequences)")
                    }
                }
            }
        }
        let alive = tracked.elements.filter { $0.response != nil }.count
        if alive > 0 { failures.append("\(alive) responses still alive") }
        return failures
    }
}

private struct HandlerRun: Sendable {
    let thread: Int
    let sequence: Int
    let onSerial: Bool
}

private struct WeakResponse: @unchecked Sendable {
    // @unchecked: read only after every thread of the run has finished.
    weak var response: AnyObject?

    init(_ response: AnyObject) { self.response = response }
}
