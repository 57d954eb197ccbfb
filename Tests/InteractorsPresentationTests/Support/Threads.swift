#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs `body(index)` for each index on a thread of its own, all at once, and returns when all have finished.
/// Real threads rather than a dispatch queue, which may run several jobs one after another on one thread.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    final class Job {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
    #if canImport(Darwin)
    var threads: [pthread_t?] = []
    #else
    var threads: [pthread_t] = []
    #endif
    for index in 0..<count {
        let job = Unmanaged.passRetained(Job { body(index) }).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(
            &thread,
            nil,
            { pointer in
                #if canImport(Darwin)
                let job = Unmanaged<Job>.fromOpaque(pointer).takeRetainedValue()
                #else
                let job = Unmanaged<Job>.fromOpaque(pointer!).takeRetainedValue()
                #endif
                job.run()
                return nil
            },
            job
        )
        precondition(status == 0, "pthread_create failed (\(status))")
        threads.append(thread)
    }
    for thread in threads {
        #if canImport(Darwin)
        pthread_join(thread!, nil)
        #else
        pthread_join(thread, nil)
        #endif
    }
}
