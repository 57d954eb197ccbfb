// MARK: Combining
//
// The combined response is a consumer of every input. Once it settles (it has its answer, or it was cancelled)
// it releases them all: inputs it no longer needs are cancelled unless something else still consumes them.

extension Response {
    /// A response with every input's value, in input order; the first failure fails it and cancels the rest.
    ///
    /// ```swift
    /// let dashboard = Response.all([profile(id), feed(id), notifications(id)])
    /// ```
    ///
    /// - Parameters:
    ///   - responses: The inputs.
    ///   - callbackQueue: Where the combined response delivers; `nil` for the process default.
    public static func all<Element: Sendable>(
        _ responses: [Response<Element>],
        callbackQueue: (any CallbackQueue)? = nil
    ) -> Response<[Element]> where Value == [Element] {
        let combined = combination(of: responses, callbackQueue: callbackQueue, ifEmpty: .success([]))
        guard !responses.isEmpty else { return combined }
        let collected = LockedBox(
            (values: [Element?](repeating: nil, count: responses.count), missing: responses.count)
        )
        for (index, response) in responses.enumerated() where !combined.isSettled {
            response.addConsumerStage(
                of: combined,
                .result { outcome in
                    switch outcome {
                    case .failure(let error):
                        combined.settle(.failure(error))
                    case .success(let value):
                        let values = collected.withLock { state -> [Element]? in
                            state.values[index] = value
                            state.missing -= 1
                            return state.missing == 0 ? state.values.map { $0! } : nil
                        }
                        if let values { combined.settle(.success(values)) }
                    }
                }
            )
        }
        return combined
    }

    /// A response with the values of all the inputs, of any types, as a tuple; the first failure fails it and
    /// cancels the rest.
    ///
    /// ```swift
    /// let (user, settings) = try Response.zip(login(credentials), loadSettings()).get()
    /// ```
    ///
    /// - Parameters:
    ///   - responses: The inputs.
    ///   - callbackQueue: Where the combined response delivers; `nil` for the process default.
    public static func zip<each Element: Sendable>(
        _ responses: repeat Response<each Element>,
        callbackQueue: (any CallbackQueue)? = nil
    ) -> Response<(repeat each Element)> where Value == (repeat each Element) {
        var erased: [Response<any Sendable>] = []
        for response in repeat each responses {
            erased.append(response.map(callbackQueue: .immediate) { $0 as any Sendable })
        }
        return Response<[any Sendable]>.all(erased, callbackQueue: .immediate)
            .map(callbackQueue: callbackQueue ?? DefaultCallbackQueue.shared) { values in
                var index = 0
                func next<Typed>(_: Typed.Type) -> Typed {
                    defer { index += 1 }
                    return values[index] as! Typed
                }
                return (repeat next((each Element).self))
            }
    }

    /// A response with the first value any input succeeds with; it fails only when every input fails, with a
    /// ``ResponseError`` whose code is ``ResponseError/Code/allFailed`` and whose
    /// ``ResponseError/underlyingErrors`` are every input's error, in input order. The rest are cancelled once
    /// one succeeds.
    ///
    /// ```swift
    /// let config = Response.any([primaryServer.config(), mirror.config()])
    /// ```
    ///
    /// - Parameters:
    ///   - responses: The inputs.
    ///   - callbackQueue: Where the combined response delivers; `nil` for the process default.
    public static func any(
        _ responses: [Response<Value>],
        callbackQueue: (any CallbackQueue)? = nil
    ) -> Response<Value> {
        let combined = combination(
            of: responses,
            callbackQueue: callbackQueue,
            ifEmpty: .failure(ResponseError(code: .allFailed))
        )
        guard !responses.isEmpty else { return combined }
        let failures = LockedBox(
            (errors: [(any Error)?](repeating: nil, count: responses.count), missing: responses.count)
        )
        for (index, response) in responses.enumerated() where !combined.isSettled {
            response.addConsumerStage(
                of: combined,
                .result { outcome in
                    switch outcome {
                    case .success:
                        combined.settle(outcome)
                    case .failure(let error):
                        let errors = failures.withLock { state -> [any Error]? in
                            state.errors[index] = error
                            state.missing -= 1
                            return state.missing == 0 ? state.errors.map { $0! } : nil
                        }
                        if let errors {
                            combined.settle(.failure(ResponseError(code: .allFailed, underlyingErrors: errors)))
                        }
                    }
                }
            )
        }
        return combined
    }

    /// A response that settles like the first input to settle, success or failure; the others are cancelled.
    ///
    /// ```swift
    /// let fastest = Response.race([cache.lookup(key), network.fetch(key)])
    /// ```
    ///
    /// Given no inputs, it fails at once with ``ResponseError/Code/allFailed``.
    ///
    /// - Parameters:
    ///   - responses: The inputs.
    ///   - callbackQueue: Where the combined response delivers; `nil` for the process default.
    public static func race(
        _ responses: [Response<Value>],
        callbackQueue: (any CallbackQueue)? = nil
    ) -> Response<Value> {
        let combined = combination(
            of: responses,
            callbackQueue: callbackQueue,
            ifEmpty: .failure(ResponseError(code: .allFailed))
        )
        guard !responses.isEmpty else { return combined }
        for response in responses where !combined.isSettled {
            response.addConsumerStage(of: combined, .result { outcome in combined.settle(outcome) })
        }
        return combined
    }

    /// Adds a combinator's stage, owned by `combined`: once `combined` settles and lets go, the stage is taken
    /// back out of an input that is still pending. The inputs after the one that decided `combined` get no stage
    /// (the loops stop), and a stage added as `combined` settled on another thread is taken back here, since that
    /// settlement's release may have come before the stage was there to take: a shared input keeps nothing of a
    /// combination that no longer needs it.
    private func addConsumerStage<Combined: Sendable>(of combined: Response<Combined>, _ stage: Callback<Value>) {
        add(Handler(immediate: stage, ownedBy: combined))
        if combined.isSettled { withdrawHandlers(ownedBy: combined) }
    }

    /// The combined response: a consumer of each of `inputs` that is still pending, or, with no inputs, already
    /// settled with `emptyOutcome`. Delivers on `callbackQueue`, or the process default.
    private static func combination<Input: Sendable>(
        of inputs: [Response<Input>],
        callbackQueue: (any CallbackQueue)?,
        ifEmpty emptyOutcome: Result<Value, any Error>
    ) -> Response<Value> {
        let queue = QueueReference(callbackQueue, or: .default)
        guard !inputs.isEmpty else { return Response(outcome: emptyOutcome, callbackQueue: queue) }
        let retained: [any UpstreamLink] = inputs.filter { $0.retainDemand() }
        return Response(callbackQueue: queue, upstream: retained.isEmpty ? nil : UpstreamGroup(retained))
    }
}
