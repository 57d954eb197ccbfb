import Dispatch
import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A machine under load: one thread per core computing at normal priority while a loaded case runs, as another
/// process's busy threads would (on this machine: as a build beside it does). The threads are kept for the whole
/// run and sleep on a semaphore when not needed.
final class BusyLoad: Sendable {
    static let shared = BusyLoad()

    let threadCount = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    private let running = Atomic<Bool>(false)
    /// One per thread, so that every start wakes every thread.
    private let wakes: [DispatchSemaphore]

    private init() {
        wakes = (0..<threadCount).map { _ in DispatchSemaphore(value: 0) }
        for index in 0..<threadCount {
            startThread { [self] in spin(index) }
        }
    }

    /// Keeps every core busy until ``stop()``.
    func start() {
        running.store(true, ordering: .releasing)
        for wake in wakes { wake.signal() }
    }

    /// Lets the cores go idle again.
    func stop() {
        running.store(false, ordering: .releasing)
    }

    private func spin(_ index: Int) -> Never {
        var sink: UInt64 = 1
        while true {
            wakes[index].wait()
            while running.load(ordering: .acquiring) {
                for _ in 0..<1_000 { sink = sink &* 6_364_136_223_846_793_005 &+ 1 }
            }
            blackHole(sink)
        }
    }
}
