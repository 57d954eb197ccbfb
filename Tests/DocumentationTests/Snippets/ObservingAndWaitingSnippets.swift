import Dispatch
import Interactors

// The code blocks of Sources/Interactors/Interactors.docc/ObservingAndWaiting.md. The waits the library cannot
// see are compiled, never run: they hang.

private struct ObservingAndWaitingSnippets {
    final class Box: @unchecked Sendable {
        var value = 0
    }

    func blocking() throws {
        let serial = DispatchQueue(label: "db")
        let value = try serial.sync { try Response(on: serial) { 21 }.get() }  // 21, no deadlock

        _ = value
    }

    func firstInFirstOut(_ queue: DispatchQueue, _ box: Box) {
        queue.sync {
            _ = Response(on: queue) { box.value = 1 }  // queued first: the write
            print(try! Response(on: queue) { box.value }.get())  // 1: the write runs first, in the caller's place
        }
    }

    func mainQueueTokens() {
        DispatchQueue.main.async {
            _ = try? Response(on: .main) { 1 }.get()  // runs the job in its place
            DispatchQueue.main.async { print("X") }  // queued first
            Response(value: 2).onCompletion(on: .main) { _ in print("B") }  // queued second: prints X, then B
        }
    }

    func appBlocksAreOvertaken(_ queue: DispatchQueue) {
        queue.sync {
            queue.async { print("app") }  // the app's own block, queued first
            _ = try? Response(on: queue) { print("library") }.get()  // prints "library" now, "app" after this block
        }
    }

    func waitsTheLibraryCannotSee(_ p: DispatchQueue, _ q: DispatchQueue) {
        // A queue that targets the caller's: `inner` runs its jobs on `outer`, which the caller holds.
        let outer = DispatchQueue(label: "outer"), inner = DispatchQueue(label: "inner", target: outer)
        outer.async { print(try! Response(on: inner) { 1 }.get()) }  // never returns

        // A sibling: `child` and `sibling` both target `outer`, which `child.sync` holds.
        let child = DispatchQueue(label: "child", target: outer)
        let sibling = DispatchQueue(label: "sibling", target: outer)
        child.sync { _ = try? Response(on: sibling) { 1 }.get(timeout: .seconds(2)) }  // timedOut after 2 s

        // A nested `sync`: inside `q.sync`, within a job on `p`, `p` is held yet `p.isCurrent` is false.
        p.async { q.sync { _ = try? Response(on: p) { 1 }.get() } }  // never returns
    }

    func theFix(_ outer: DispatchQueue, _ inner: DispatchQueue) {
        outer.async { print(try! Response(on: outer) { 1 }.get()) }  // the caller's own queue
        outer.async { Response(on: inner) { 1 }.onCompletion(on: outer) { print($0) } }  // a handler, no wait
    }
}
