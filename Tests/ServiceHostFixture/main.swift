// A server for the signal-host tests: two services that print every event they hear, hosted by
// `runUntilTerminated`. It prints "ready" once the termination handlers are installed; the test then signals it.
// Arguments, any combination:
// - `fail-on-terminate`: the second service throws from willTerminate.
// - `hang-on-tear-down`: the second service's willResignActive, the first tear-down hook, never returns.
// - `sync-after-await`: an async main calls the synchronous host after an `await`, off the main thread.
// - `async`: an async main hosts with `try await runUntilTerminated()` after an `await`, then says how it
//   returned and exits with status 0, or 1 after tear-down failures.
// - `async-cancel`: as `async`, in a task that a line on standard input cancels.
// - `deadline`: the host gets a shut-down deadline of one second.
// - `diagnostics-handler`: the library's diagnostics go to a handler that prints them, with their product, to
//   standard output instead of standard error.
// A hook that runs off the main queue says so, after the event.
// The signal host exists on macOS and Linux only (apps on Apple's other platforms end with SIGKILL).
#if os(macOS) || os(Linux)
import Dispatch
import Foundation
import Interactors

func say(_ line: String) {
    // Unbuffered, so the test sees each line at once and nothing is lost when the process exits.
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

struct Failure: Error {}

let mainQueueKey = DispatchSpecificKey<Bool>()
DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)

final class Printer: Service {
    let name: String
    let failsOnTerminate: Bool
    let hangsOnTearDown: Bool

    init(name: String, failsOnTerminate: Bool = false, hangsOnTearDown: Bool = false) {
        self.name = name
        self.failsOnTerminate = failsOnTerminate
        self.hangsOnTearDown = hangsOnTearDown
    }

    func receive(_ event: LifecycleEvent) throws {
        let onMainQueue = DispatchQueue.getSpecific(key: mainQueueKey) == true
        say("\(name): \(event)\(onMainQueue ? "" : " (off the main queue)")")
        if hangsOnTearDown, event == .willResignActive { DispatchSemaphore(value: 0).wait() }
        if failsOnTerminate, event == .willTerminate { throw Failure() }
    }
}

let arguments = CommandLine.arguments
if arguments.contains("diagnostics-handler") {
    Diagnostics.setHandler { diagnostic in say("diagnostic from \(diagnostic.product): \(diagnostic.message)") }
}
let registry = ServiceRegistry()
registry.register(Printer(name: "first"))
registry.register(
    Printer(
        name: "second",
        failsOnTerminate: arguments.contains("fail-on-terminate"),
        hangsOnTearDown: arguments.contains("hang-on-tear-down")
    )
)

let deadline: Duration? = arguments.contains("deadline") ? .seconds(1) : nil

/// Hosts with the synchronous API; a function so that async top-level code may call it.
func hostSynchronously() -> Never {
    DispatchQueue.main.async { say("ready") }
    registry.runUntilTerminated(shutDownDeadline: deadline)
}

/// Hosts with the async API, after an `await` as a real server would (on Linux, off the main thread).
@MainActor func hostAsynchronously() async throws -> Never {
    await Task.yield()
    DispatchQueue.main.async { say("ready") }
    let failures = try await registry.runUntilTerminated(shutDownDeadline: deadline)
    say("returned with \(failures.count) failures")
    exit(failures.isEmpty ? EXIT_SUCCESS : EXIT_FAILURE)
}

if arguments.contains("sync-after-await") {
    await Task.yield()
    hostSynchronously()
} else if arguments.contains("async-cancel") {
    let host = Task { try await hostAsynchronously() }
    Thread.detachNewThread {
        _ = readLine()
        host.cancel()
    }
    switch await host.result {
    case .failure(let error): say(error is CancellationError ? "cancelled" : "failed: \(error)")
    }
    exit(EXIT_SUCCESS)
} else if arguments.contains("async") {
    try await hostAsynchronously()
} else {
    hostSynchronously()
}
#endif
