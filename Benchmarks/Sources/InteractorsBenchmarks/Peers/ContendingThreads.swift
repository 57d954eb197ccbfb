import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Eight threads of their own (more than this machine's cores), kept for the whole run, that run one job
/// together and report when all are done: the contended case's workers, without thread creation in the timing.
final class ContendingThreads: @unchecked Sendable {
    // @unchecked: `job` is written before the start semaphores are signalled and read after they are waited on,
    // and the semaphores order the two.

    static let shared = ContendingThreads(count: 8)

    let count: Int
    private var job: (@Sendable (Int) -> Void)?
    private let starts: [DispatchSemaphore]
    private let done = DispatchSemaphore(value: 0)

    private init(count: Int) {
        self.count = count
        starts = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        for index in 0..<count {
            startThread { [self] in serve(index) }
        }
    }

    /// Runs `job(index)` on every thread at once; returns when all have finished.
    func run(_ job: @escaping @Sendable (Int) -> Void) {
        self.job = job
        for start in starts { start.signal() }
        for _ in 0..<count { done.wait() }
        self.job = nil
    }

    private func serve(_ index: Int) -> Never {
        while true {
            starts[index].wait()
            job!(index)
            done.signal()
        }
    }
}

/// Starts `body` on a new POSIX thread of its own, never joined (the benchmark's helper threads live as long as the
/// process).
func startThread(_ body: @escaping @Sendable () -> Void) {
    final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t? = nil  // a pointer with no empty initialiser on Darwin
    #else
    var thread = pthread_t()
    #endif
    let status = pthread_create(
        &thread,
        nil,
        { context in
            // Optional or not depending on the C library's headers; the cast reads both.
            Unmanaged<Body>.fromOpaque((context as UnsafeMutableRawPointer?)!).takeRetainedValue().run()
            return nil
        },
        context
    )
    precondition(status == 0, "pthread_create failed: \(status)")
}
