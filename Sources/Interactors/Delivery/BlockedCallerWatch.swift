import Dispatch

/// The pending responses on a blocked caller's path that it watches, so that what may give it work to run in its
/// place wakes it, and nothing else does.
///
/// A caller blocked on a composition may owe work queued to its own queue (see
/// `Response.helpWhileBlocked(timed:from:watch:)`), and such work appears only where a response on its path moves
/// to a new upstream (a `flatMap` stage returns a response whose work is queued, a retry makes an attempt), defers
/// its delivery, or delivers. Each of those responses signals its watchers then; a settlement anywhere else wakes
/// nobody, so a thread-per-request server with many callers blocked pays nothing for the others' events.
///
/// Only responses are watched; the other links (a timeout's deadline, a delay's wait, a combinator's group) are
/// walked through. Watching holds each watched response until the wait ends.
struct BlockedCallerWatch {
    let wakeUp: DispatchSemaphore
    private var watched: [ObjectIdentifier: any UpstreamLink] = [:]

    init(wakeUp: DispatchSemaphore) {
        self.wakeUp = wakeUp
    }

    /// Watches the responses among `links` not watched yet; returns whether it added any, in which case the
    /// caller walks its path again: a change made before the watch began signalled nobody.
    mutating func add(_ links: [(link: any UpstreamLink, timed: Bool)]) -> Bool {
        var added = false
        for (link, _) in links {
            let id = ObjectIdentifier(link)
            guard watched[id] == nil, link.addWatcher(wakeUp) else { continue }
            watched[id] = link
            added = true
        }
        return added
    }

    /// Stops watching: the wait is over.
    mutating func end() {
        for link in watched.values { link.removeWatcher(wakeUp) }
        watched = [:]
    }
}
