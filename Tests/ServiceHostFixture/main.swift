// A server for the signal-host tests: two services that print every event they hear, hosted by
// `runUntilTerminated`. It prints "ready" once the termination handlers are installed; the test then signals it.
// With the argument `fail-on-terminate`, the second service throws from willTerminate.
import Dispatch
import Foundation
import Interactors

func say(_ line: String) {
    // Unbuffered, so the test sees each line at once and nothing is lost when the process exits.
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

struct Failure: Error {}

final class Printer: Service {
    let name: String
    let failsOnTerminate: Bool

    init(name: String, failsOnTerminate: Bool = false) {
        self.name = name
        self.failsOnTerminate = failsOnTerminate
    }

    func receive(_ event: LifecycleEvent) throws {
        say("\(name): \(event)")
        if failsOnTerminate, event == .willTerminate { throw Failure() }
    }
}

let registry = ServiceRegistry()
registry.register(Printer(name: "first"))
registry.register(Printer(name: "second", failsOnTerminate: CommandLine.arguments.contains("fail-on-terminate")))
DispatchQueue.main.async { say("ready") }
registry.runUntilTerminated()
