public import Interactors

/// An interactor for tests that records every request and answers as the test tells it to.
///
/// ```swift
/// let logIn = InteractorSpy<LogInRequest, User>()
/// logIn.answer(with: User(name: "ada"))            // the first call succeeds
/// logIn.answer(withError: AuthError.locked)         // the second fails
/// executor.register(logIn)
/// // ... exercise the code under test ...
/// #expect(logIn.requests.map(\.username) == ["ada", "ada"])
/// ```
///
/// Each call takes the oldest queued answer; with none queued, the ``alwaysAnswer(with:)-(Output)`` answer if one was
/// given; otherwise the call stays pending until the test settles it with ``settleNext(with:)-(Result<Output,Error>)``,
/// oldest first. An answer queued later never settles a call that is already pending. Safe to use from any
/// thread: requests are recorded in the order the calls arrived.
///
/// A call made on another thread can be waited for, with ``requests(count:timeout:)`` in an `async` test or
/// ``waitForRequests(count:timeout:)`` in a synchronous one, rather than by polling or sleeping:
///
/// ```swift
/// screen.searchFieldChanged("swift")                  // searches on a background queue
/// let searches = try await search.requests(count: 1, timeout: .seconds(5))
/// #expect(searches.map(\.text) == ["swift"])
/// ```
public final class InteractorSpy<Request: Sendable, Output: Sendable>: Interactor {
    private struct State {
        var requests: [Request] = []
        var answers: [Result<Output, any Error>] = []
        var standingAnswer: Result<Output, any Error>?
        var pending: [Resolver<Output>] = []
        var cancelled = 0
    }

    private let state = Watched(State())
    private let callbackQueue: any CallbackQueue

    /// Makes a spy with no answers; its responses deliver handlers added without `on:` to `callbackQueue`.
    public init(callbackQueue: some CallbackQueue = DefaultCallbackQueue.shared) {
        self.callbackQueue = callbackQueue
    }

    // MARK: Recorded calls

    /// Every request executed, in call order.
    public var requests: [Request] {
        state.value.requests
    }

    /// The most recent request, or `nil` if none was executed.
    public var lastRequest: Request? {
        state.value.requests.last
    }

    /// How many times ``execute(_:)`` was called.
    public var executeCount: Int {
        state.value.requests.count
    }

    /// How many of the spy's responses were cancelled while still pending: directly, or because every consumer
    /// let go of them (a derived response that was cancelled, a task that stopped awaiting). Cancelling a
    /// response that has settled does not count.
    ///
    /// ```swift
    /// _ = screen.search("sw")
    /// _ = screen.search("swift")   // replaces the first search
    /// #expect(search.cancelledCount == 1)
    /// ```
    public var cancelledCount: Int {
        state.value.cancelled
    }

    // MARK: Waiting for calls

    /// Waits, suspended, until at least `count` requests have been made, and returns the first `count`; throws a
    /// ``ResponseProbeError`` with code ``ResponseProbeError/Code/timedOut`` if `timeout` passes first.
    ///
    /// - Precondition: `count` ≥ 0.
    public func requests(count: Int, timeout: Duration) async throws -> [Request] {
        try await state.elements(Self.wanted, count: count, timeout: timeout, in: \.requests)
    }

    /// Waits, blocking this thread, until at least `count` requests have been made, and returns the first
    /// `count`; throws a ``ResponseProbeError`` with code ``ResponseProbeError/Code/timedOut`` if `timeout`
    /// passes first. For synchronous tests; in `async` code use ``requests(count:timeout:)``.
    ///
    /// - Precondition: `count` ≥ 0.
    @available(*, noasync, message: "Blocking starves Swift concurrency's threads: use `requests(count:timeout:)`")
    public func waitForRequests(count: Int, timeout: Duration) throws -> [Request] {
        try state.waitForElements(Self.wanted, count: count, timeout: timeout, in: \.requests)
    }

    private static var wanted: ElementsWanted {
        ElementsWanted(owner: "InteractorSpy<\(Request.self), \(Output.self)>", plural: "requests", participle: "made")
    }

    // MARK: Answers

    /// Queues a success with `value` for one call.
    public func answer(with value: Output) {
        answer(with: .success(value))
    }

    /// Queues a failure with `error` for one call.
    public func answer(withError error: any Error) {
        answer(with: .failure(error))
    }

    /// Queues `result` for one call.
    public func answer(with result: Result<Output, any Error>) {
        state.modify { $0.answers.append(result) }
    }

    /// Answers every call with `value` once the queued answers are used up.
    public func alwaysAnswer(with value: Output) {
        alwaysAnswer(with: .success(value))
    }

    /// Answers every call with a failure with `error` once the queued answers are used up.
    public func alwaysAnswer(withError error: any Error) {
        alwaysAnswer(with: .failure(error))
    }

    /// Answers every call with `result` once the queued answers are used up.
    public func alwaysAnswer(with result: Result<Output, any Error>) {
        let previous = state.modify { state in
            defer { state.standingAnswer = result }
            return state.standingAnswer
        }
        withExtendedLifetime(previous) {}  // a value's deinit is user code: released after the lock
    }

    // MARK: Pending calls

    /// How many calls wait for ``settleNext(with:)-(Result<Output,Error>)``. A pending call whose response was
    /// cancelled no longer counts.
    public var pendingCount: Int {
        state.value.pending.count { !$0.isDone }
    }

    /// Settles the oldest pending call with `result`.
    ///
    /// - Precondition: A call is pending (``pendingCount`` > 0).
    public func settleNext(with result: Result<Output, any Error>) {
        let (next, dropped) = state.modify { state -> (Resolver<Output>?, [Resolver<Output>]) in
            // Calls cancelled meanwhile are not pending any more: skip them.
            let cancelled = Array(state.pending.prefix { $0.isDone })
            state.pending.removeFirst(cancelled.count)
            return (state.pending.isEmpty ? nil : state.pending.removeFirst(), cancelled)
        }
        withExtendedLifetime(dropped) {}
        guard let next else {
            preconditionFailure(
                "InteractorSpy<\(Request.self), \(Output.self)>.settleNext(with:): no call is pending. "
                    + "Execute the interactor first; calls answered by answer(with:) or alwaysAnswer(with:) "
                    + "are settled already."
            )
        }
        next.resolve(result)
    }

    /// Settles the oldest pending call with `value`; see ``settleNext(with:)-(Result<Output,Error>)``.
    public func settleNext(with value: Output) {
        settleNext(with: .success(value))
    }

    /// Settles the oldest pending call with a failure with `error`; see
    /// ``settleNext(with:)-(Result<Output,Error>)``.
    public func settleNext(withError error: any Error) {
        settleNext(with: .failure(error))
    }

    // MARK: Executing

    /// Records `request` and answers it: with the oldest queued answer, else the standing answer, else a
    /// response that stays pending until ``settleNext(with:)-(Result<Output,Error>)``.
    public func execute(_ request: Request) -> Response<Output> {
        let (response, resolver) = Response<Output>.makePending(callbackQueue: callbackQueue)
        let answer = state.modify { state -> Result<Output, any Error>? in
            state.requests.append(request)
            if !state.answers.isEmpty { return state.answers.removeFirst() }
            if let standing = state.standingAnswer { return standing }
            state.pending.append(resolver)
            return nil
        }
        if let answer {
            resolver.resolve(answer)
        } else {
            // Weakly: the state holds the resolver, which holds the response, which keeps this handler while it
            // is pending; a strong reference would keep them all alive, and the call would never be abandoned.
            resolver.onCancel { [weak state] in state?.modify { $0.cancelled += 1 } }
        }
        return response
    }
}
