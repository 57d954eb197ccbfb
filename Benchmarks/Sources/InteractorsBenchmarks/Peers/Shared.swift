import Dispatch
import NIOCore
import NIOPosix

/// Threads and loops shared by the cases, created once so no case pays for them.
enum Shared {
    /// The "other thread" that settles in cross-thread cases.
    static let settler = DispatchQueue(label: "benchmarks.settler")
    /// Where handlers are delivered in the DispatchQueue-delivery cases.
    static let delivery = DispatchQueue(label: "benchmarks.delivery")
    /// A real NIO event loop, on its own thread, for the cases that need one.
    static let loop: any EventLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()
}
