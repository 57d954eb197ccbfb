#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether the calling thread is the process's main thread; `nil` where the platform cannot tell.
///
/// On Linux the main thread's ID is the process ID. `gettid()` is looked up at run time, since the C library
/// module does not export it (glibc has it from 2.30, musl from 1.2.2).
package func callingThreadIsMain() -> Bool? {
    #if canImport(Darwin)
    return pthread_main_np() != 0
    #else
    guard let gettid = threadIDFunction else { return nil }
    return getpid() == gettid()
    #endif
}

#if !canImport(Darwin)
private let threadIDFunction: (@convention(c) () -> pid_t)? = {
    guard let symbol = dlsym(nil, "gettid") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) () -> pid_t).self)
}()
#endif

/// The calling thread's identity, to tell one thread from another (a re-entrant call from a concurrent one, in
/// tests which thread ran a handler).
package func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}
