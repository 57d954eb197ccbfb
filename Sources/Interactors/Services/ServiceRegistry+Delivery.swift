import Dispatch

// How requests run one at a time without holding the lock while user code runs.
//
// Each outside call gets a Ticket. When the registry is idle the call becomes the deliverer and runs its
// request on its own thread; otherwise it queues the request and waits on its semaphore. A call made by a hook
// (recognised by its thread being the deliverer's) queues its request under the deliverer's ticket and returns
// at once. After each request the deliverer looks at the head of the queue: its own requests it runs; another
// call's request it hands over by making that call the deliverer and signalling it. So every request runs on
// the thread of the call that made it (or whose hooks made it), in queue order, and each call collects exactly
// its own failures.
//
// A hook may block, through the library, on work running on another thread; if that work calls the registry, it
// would wait for the hook that waits for it. The deliverer publishes what its hooks block on (`WaitRecord`), so a
// waiting call can tell: it is then refused with `calledFromWorkAHookWaitsFor` (an unregistration, which needs no
// answer, is handed to the deliverer instead, as a hook's own would be), and the hook goes on.

extension ServiceRegistry {
    enum Work {
        case send(LifecycleEvent)
        case register(any Service)
        case unregister(ObjectIdentifier)
        case open(URLOpenRequest)
        /// The tear-down events the state calls for when the request runs, all in one request.
        case shutDown
    }

    struct Request {
        let work: Work
        let ticket: Ticket
    }

    /// One outside call and the results of the requests run for it.
    final class Ticket {
        // Not Sendable and no lock of its own: `queued`, `semaphore` and identity are read and written under
        // the registry's lock; the results are written only by the ticket's own thread, which runs all of the
        // ticket's requests, and read by it after the last.
        let thread = currentThreadID()
        /// The calling thread's record of what it blocks on, published while it delivers.
        let record = WaitRecord.current
        /// Requests of this ticket that have not finished.
        var queued = 1
        /// Signalled when this call becomes the deliverer. Made only when the call has to wait.
        var semaphore: DispatchSemaphore?
        var failures: [ServiceFailure] = []
        var urlClaimed = false
        var urlRefusal: LifecycleError?
    }

    private enum Start {
        case deliver(Ticket)
        case wait(Ticket)
        case queuedReentrantly
    }

    private enum Next {
        case runOwn
        case finished
        case handedOver(to: DispatchSemaphore, waitForTurn: DispatchSemaphore?)
    }

    /// Runs `work` in turn. Returns the call's ticket once all its requests have run, or `nil` when called
    /// from a hook, in which case `work` was queued (URL opens, which cannot wait, are dropped instead and the
    /// caller reports the refusal).
    func perform(_ work: Work) -> Ticket? {
        let start: Start = storage.withLock { storage in
            if let deliverer = storage.deliverer, deliverer.thread == currentThreadID() {
                if case .open = work { return .queuedReentrantly }
                deliverer.queued += 1
                storage.pending.append(Request(work: work, ticket: deliverer))
                return .queuedReentrantly
            }
            let ticket = Ticket()
            if storage.deliverer == nil {
                storage.deliverer = ticket
                return .deliver(ticket)
            }
            // Rare path, so allocating under the lock is fine; the deliverer must find the semaphore here.
            ticket.semaphore = DispatchSemaphore(value: 0)
            storage.pending.append(Request(work: work, ticket: ticket))
            return .wait(ticket)
        }
        switch start {
        case .queuedReentrantly:
            return nil
        case .deliver(let ticket):
            deliver(for: ticket, first: work)
            return ticket
        case .wait(let ticket):
            guard waitForTurn(ticket) else {
                refuse(work, for: ticket)
                return ticket
            }
            deliver(for: ticket, first: nil)
            return ticket
        }
    }

    /// Waits until `ticket`'s call is the deliverer. Returns `false`, the call's request withdrawn, when the
    /// deliverer's hook waits, through the library, for work this thread runs: the turn would never come. An
    /// unregistration is handed to the deliverer instead, and counts as done.
    private func waitForTurn(_ ticket: Ticket) -> Bool {
        let isTurn = { self.storage.withLock { $0.deliverer === ticket } }
        let deliverer = { self.storage.withLock { $0.deliverer?.record } }
        if WaitRecord.wait(on: ticket.semaphore!, for: deliverer(), until: isTurn) { return true }
        return storage.withLock { storage in
            guard let deliverer = storage.deliverer, deliverer !== ticket else { return true }
            guard let index = storage.pending.firstIndex(where: { $0.ticket === ticket }) else { return true }
            let request = storage.pending[index]
            if case .unregister = request.work {
                deliverer.queued += 1
                storage.pending[index] = Request(work: request.work, ticket: deliverer)
            } else {
                storage.pending.remove(at: index)
            }
            return false
        }
    }

    /// Records why a withdrawn request was not carried out (see ``waitForTurn(_:)``).
    private func refuse(_ work: Work, for ticket: Ticket) {
        let state = self.state
        let error = LifecycleError(.calledFromWorkAHookWaitsFor, state: state)
        switch work {
        case .send(let event):
            let error = LifecycleError(.calledFromWorkAHookWaitsFor, state: state, event: event)
            ticket.failures.append(ServiceFailure(service: nil, event: event, error: error))
        case .register(let service): ticket.failures.append(ServiceFailure(service: service, event: nil, error: error))
        case .shutDown: ticket.failures.append(ServiceFailure(service: nil, event: .willTerminate, error: error))
        case .open: ticket.urlRefusal = error
        case .unregister: break  // handed to the deliverer
        }
    }

    /// Runs the ticket's requests while it is the deliverer: `first`, then the queue's head while it is the
    /// ticket's own, handing over to other calls and waiting for its turn again as the queue says.
    private func deliver(for ticket: Ticket, first: Work?) {
        var work = first
        while true {
            let current = work ?? storage.withLock { $0.pending.removeFirst().work }
            work = nil
            // What the hooks block on is published: see `waitForTurn(_:)`.
            WaitRecord.publishingWaits { run(current, for: ticket) }
            let next: Next = storage.withLock { storage in
                ticket.queued -= 1
                guard let head = storage.pending.first else {
                    storage.deliverer = nil
                    return .finished
                }
                if head.ticket === ticket { return .runOwn }
                storage.deliverer = head.ticket
                guard ticket.queued > 0 else { return .handedOver(to: head.ticket.semaphore!, waitForTurn: nil) }
                // Requests this call's hooks queued behind another call's: wait to be handed back.
                if ticket.semaphore == nil { ticket.semaphore = DispatchSemaphore(value: 0) }
                return .handedOver(to: head.ticket.semaphore!, waitForTurn: ticket.semaphore)
            }
            switch next {
            case .runOwn:
                continue
            case .finished:
                return
            case .handedOver(let other, let own):
                other.signal()
                guard let own else { return }
                // A signal left over from `waitForTurn(_:)` may wake it early: wait until it really is its turn.
                repeat { own.wait() } while storage.withLock { $0.deliverer !== ticket }
            }
        }
    }

    private func run(_ work: Work, for ticket: Ticket) {
        switch work {
        case .send(let event): deliver(event, into: &ticket.failures)
        case .register(let service): catchUp(service, into: &ticket.failures)
        case .unregister(let id):
            // Removed under the lock, released after it: the service's deinit is user code.
            let removed = storage.withLock { storage -> (any Service)? in
                storage.services.firstIndex { ObjectIdentifier($0) == id }.map { storage.services.remove(at: $0) }
            }
            withExtendedLifetime(removed) {}
        case .open(let request): offer(request, to: ticket)
        case .shutDown:
            // Picked now, not when asked: no other request runs between here and the last event.
            let events = storage.withLock { $0.state.shutDownEvents }
            for event in events { deliver(event, into: &ticket.failures) }
        }
    }

    private func deliver(_ event: LifecycleEvent, into failures: inout [ServiceFailure]) {
        var refusingState = LifecycleState.notRunning
        let services: [any Service]? = storage.withLock { storage in
            guard let next = storage.state.next(after: event) else {
                refusingState = storage.state
                return nil
            }
            storage.state = next
            if case .didFinishLaunching(let options) = event { storage.launchOptions = options }
            return storage.services  // a copy-on-write snapshot: one retain, no allocation
        }
        guard let services else {
            let refusal = LifecycleError(.eventOutOfOrder, state: refusingState, event: event)
            failures.append(ServiceFailure(service: nil, event: event, error: refusal))
            return
        }
        if event.isTearDown {
            for service in services.reversed() { deliver(event, to: service, into: &failures) }
        } else {
            for service in services { deliver(event, to: service, into: &failures) }
        }
    }

    @inline(__always)
    private func deliver(_ event: LifecycleEvent, to service: any Service, into failures: inout [ServiceFailure]) {
        do {
            try service.receive(event)
        } catch {
            failures.append(ServiceFailure(service: service, event: event, error: error))
        }
    }

    private func catchUp(_ service: any Service, into failures: inout [ServiceFailure]) {
        let missed: [LifecycleEvent]? = storage.withLock { storage in
            if storage.services.contains(where: { $0 === service }) { return [] }
            if storage.state == .terminated { return nil }
            storage.services.append(service)
            return storage.state.catchUpEvents(launchOptions: storage.launchOptions)
        }
        guard let missed else {
            let error = LifecycleError(.registeredAfterTermination, state: .terminated)
            failures.append(ServiceFailure(service: service, event: nil, error: error))
            return
        }
        for event in missed { deliver(event, to: service, into: &failures) }
    }

    private func offer(_ request: URLOpenRequest, to ticket: Ticket) {
        let (state, services) = storage.withLock { ($0.state, $0.services) }
        guard state.isRunning else {
            ticket.urlRefusal = LifecycleError(.urlOpenedWhileNotRunning, state: state)
            return
        }
        // No short-circuit: `||` would stop asking at the first claim.
        var claimed = false
        for service in services where service.open(request) { claimed = true }
        ticket.urlClaimed = claimed
    }
}
