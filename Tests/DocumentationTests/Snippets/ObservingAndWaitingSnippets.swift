import Dispatch
import Interactors

// The code block of Sources/Interactors/Interactors.docc/ObservingAndWaiting.md.

private struct ObservingAndWaitingSnippets {
    func blocking() throws {
        let serial = DispatchQueue(label: "db")
        let value = try serial.sync { try Response(on: serial) { 21 }.get() }  // 21, no deadlock

        _ = value
    }
}
