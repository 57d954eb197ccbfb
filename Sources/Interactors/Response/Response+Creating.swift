import Dispatch

// MARK: Creating

extension Response {
    /// Starts `work` on `queue` now and returns its response at once; the value `work` returns succeeds the
    /// response, an error it throws fails it.
    ///
    /// ```swift
    /// Response(on: DispatchQueue.global()) { try database.loadUser(id) }
    /// ```
    ///
    /// A thread that blocks on the response (``get()``) while the work has not started yet runs the work in its
    /// place when it runs on `queue` itself (waiting would deadlock), first running the library's earlier work
    /// queued there, or, for a wait with no deadline off the main thread, when `queue` is one of Dispatch's
    /// global concurrent queues; see "Observing and waiting". The work is claimed once, so it never runs twice.
    /// A response cancelled before its work starts never starts it, and lets go of `work` and what it captured
    /// at once.
    ///
    /// - Parameters:
    ///   - queue: Where the work runs. `.immediate` runs it now, before this initializer returns.
    ///   - callbackQueue: Where handlers added without `on:` run.
    ///   - file: Where the response is created, for ``debugDescription`` (kept in debug builds only).
    ///   - line: The line where the response is created.
    ///   - work: The work.
    public convenience init(
        on queue: some CallbackQueue,
        callbackQueue: some CallbackQueue = DefaultCallbackQueue.shared,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ work: @escaping @Sendable () throws -> Value
    ) {
        self.init(callbackQueue: callbackQueue)
        recordCreationSite(file, line)
        if queue === ImmediateCallbackQueue.shared {
            settle(Result { try work() })
            return
        }
        // A serial `DispatchQueue` keeps a list of the library's work queued there, so a blocked caller that runs
        // some of it in the queue's place keeps the queue's order (see `QueueMarker`).
        let marker = (queue as? DispatchQueue).flatMap(QueueMarker.forLibraryWork(on:))
        let queuedWork = QueuedWork(queue: queue, response: self, position: marker?.nextPosition() ?? 0, work: work)
        _ = withExtras { $0.queuedWork = queuedWork }
        marker?.enqueue(queuedWork)
        queue.schedule { queuedWork.runAsQueuedJob(marker: marker) }
    }

    /// Runs `body` now, before this initializer returns, with the ``Resolver`` that settles the response; for
    /// wrapping callback APIs. An error `body` throws fails the response.
    ///
    /// ```swift
    /// Response { resolver in client.fetch(request) { result in resolver.resolve(result) } }
    /// ```
    ///
    /// If `body` neither settles the response nor keeps the resolver, the response fails with
    /// ``ResponseError/abandoned`` as soon as `body` returns. `file` and `line` say where the response was
    /// created, for ``debugDescription`` (kept in debug builds only).
    @inlinable
    public convenience init(
        callbackQueue: some CallbackQueue = DefaultCallbackQueue.shared,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: (Resolver<Value>) throws -> Void
    ) {
        self.init(callbackQueue: callbackQueue)
        recordCreationSite(file, line)
        let resolver = Resolver(self)
        do {
            try body(resolver)
        } catch {
            resolver.fail(error)
        }
    }

    /// Starts `work` now in a new `Task` and returns its response at once.
    ///
    /// ```swift
    /// Response { try await api.profile(for: id) }
    /// ```
    ///
    /// Cancelling the response cancels the task. `file` and `line` say where the response was created, for
    /// ``debugDescription`` (kept in debug builds only).
    public convenience init(
        callbackQueue: some CallbackQueue = DefaultCallbackQueue.shared,
        priority: TaskPriority? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ work: sending @escaping @isolated(any) () async throws -> Value
    ) {
        self.init(callbackQueue: callbackQueue)
        recordCreationSite(file, line)
        let task = Task(priority: priority) { [self] in
            do {
                settle(.success(try await work()))
            } catch {
                settle(.failure(error))
            }
        }
        whenCancelled { task.cancel() }
    }

    // Disfavoured: a trailing closure may fill a labelled parameter, and without this `Response { try await f() }`
    // would make a response whose value is the closure.

    /// A response that has already succeeded with `value`.
    @inlinable
    @_disfavoredOverload
    public convenience init(value: Value, callbackQueue: some CallbackQueue = DefaultCallbackQueue.shared) {
        self.init(outcome: .success(value), callbackQueue: QueueReference(callbackQueue))
    }

    /// A response that has already failed with `error`.
    @inlinable
    public convenience init(error: any Error, callbackQueue: some CallbackQueue = DefaultCallbackQueue.shared) {
        self.init(outcome: .failure(error), callbackQueue: QueueReference(callbackQueue))
    }

    /// A response that has already settled with `result`.
    @inlinable
    public convenience init(
        result: Result<Value, any Error>,
        callbackQueue: some CallbackQueue = DefaultCallbackQueue.shared
    ) {
        self.init(outcome: result, callbackQueue: QueueReference(callbackQueue))
    }

    /// A pending response and the resolver that settles it, for bridging code that settles it elsewhere.
    ///
    /// ```swift
    /// let (response, resolver) = Response<Int>.makePending()
    /// legacyAPI.start { resolver.succeed($0) }
    /// return response
    /// ```
    ///
    /// `file` and `line` say where the response was created, for ``debugDescription`` (kept in debug builds only).
    @inlinable
    public static func makePending(
        callbackQueue: some CallbackQueue = DefaultCallbackQueue.shared,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (response: Response, resolver: Resolver<Value>) {
        let response = Response(callbackQueue: callbackQueue)
        response.recordCreationSite(file, line)
        return (response, Resolver(response))
    }
}
