// MARK: Transforming
//
// Each operator returns a new response at once and never blocks. Stages run inline, on the thread where the
// upstream settles (no queue hop between stages); only the user's own handlers go to a callback queue. A derived
// response is a consumer of its upstream: cancelling it cancels the upstream unless another consumer needs it.
// `callbackQueue: nil` keeps the upstream's callback queue.

extension Response {
    /// A response with `transform` applied to this one's value; a failure passes through unchanged, and an error
    /// `transform` throws becomes the failure.
    ///
    /// ```swift
    /// let name = interactor.login(credentials).map { user in user.displayName }
    /// ```
    @inlinable
    public func map<NewValue: Sendable>(
        callbackQueue: (any CallbackQueue)? = nil,
        _ transform: @escaping @Sendable (Value) throws -> NewValue
    ) -> Response<NewValue> {
        derive(callbackQueue: callbackQueue) { (derived: Response<NewValue>) in
            .result { outcome in
                derived.settle(outcome.flatMap { value in Result { try transform(value) } }, upstreamIsSettled: true)
            }
        }
    }

    /// A response that continues with the response `transform` returns for this one's value; a failure passes
    /// through unchanged, and an error `transform` throws becomes the failure.
    ///
    /// ```swift
    /// let feed = interactor.login(credentials).flatMap { user in feedInteractor.feed(for: user) }
    /// ```
    @inlinable
    public func flatMap<NewValue: Sendable>(
        callbackQueue: (any CallbackQueue)? = nil,
        _ transform: @escaping @Sendable (Value) throws -> Response<NewValue>
    ) -> Response<NewValue> {
        derive(callbackQueue: callbackQueue) { (derived: Response<NewValue>) in
            .result { outcome in
                switch outcome {
                case .success(let value):
                    do {
                        derived.follow(try transform(value))
                    } catch {
                        derived.settle(.failure(error), upstreamIsSettled: true)
                    }
                case .failure(let error):
                    derived.settle(.failure(error), upstreamIsSettled: true)
                }
            }
        }
    }

    /// A response that turns this one's failure into a value with `recovery`; a success passes through, and an
    /// error `recovery` throws becomes the failure.
    ///
    /// ```swift
    /// let avatar = interactor.avatar(for: user).recover { _ in .placeholder }
    /// ```
    @inlinable
    public func recover(
        callbackQueue: (any CallbackQueue)? = nil,
        _ recovery: @escaping @Sendable (any Error) throws -> Value
    ) -> Response<Value> {
        derive(callbackQueue: callbackQueue) { (derived: Response<Value>) in
            .result { outcome in
                switch outcome {
                case .success: derived.settle(outcome, upstreamIsSettled: true)
                case .failure(let error): derived.settle(Result { try recovery(error) }, upstreamIsSettled: true)
                }
            }
        }
    }

    /// A response that continues with the response `recovery` returns for this one's failure; a success passes
    /// through, and an error `recovery` throws becomes the failure.
    ///
    /// ```swift
    /// let profile = remote.profile(id).flatRecover { _ in cache.profile(id) }
    /// ```
    @inlinable
    public func flatRecover(
        callbackQueue: (any CallbackQueue)? = nil,
        _ recovery: @escaping @Sendable (any Error) throws -> Response<Value>
    ) -> Response<Value> {
        derive(callbackQueue: callbackQueue) { (derived: Response<Value>) in
            .result { outcome in
                switch outcome {
                case .success:
                    derived.settle(outcome, upstreamIsSettled: true)
                case .failure(let error):
                    do {
                        derived.follow(try recovery(error))
                    } catch {
                        derived.settle(.failure(error), upstreamIsSettled: true)
                    }
                }
            }
        }
    }

    /// A response whose failure is `transform` applied to this one's error; a success passes through.
    ///
    /// ```swift
    /// let user = api.user(id).mapError { error in DomainError(error) }
    /// ```
    @inlinable
    public func mapError(
        callbackQueue: (any CallbackQueue)? = nil,
        _ transform: @escaping @Sendable (any Error) -> any Error
    ) -> Response<Value> {
        derive(callbackQueue: callbackQueue) { (derived: Response<Value>) in
            .result { outcome in
                derived.settle(outcome.mapError { transform($0) }, upstreamIsSettled: true)
            }
        }
    }
}

// MARK: - Deriving

extension Response {
    /// A pending response that consumes this one, settled by the stage `makeStage` builds for it, and
    /// delivering by default on this one's callback queue. One lock round trip: the stage is registered and the
    /// demand counted together.
    @inlinable
    func derive<NewValue: Sendable>(
        callbackQueue: (any CallbackQueue)?,
        stage makeStage: (Response<NewValue>) -> Callback<Value>
    ) -> Response<NewValue> {
        // If this one has settled, the stage runs at once and settles `derived` with `upstreamIsSettled`, which
        // drops the link without releasing anything.
        let queue = QueueReference(callbackQueue, or: queueReference)
        let derived = Response<NewValue>(callbackQueue: queue, upstream: self)
        addConsumingHandler(Handler(immediate: makeStage(derived), ownedBy: derived))
        return derived
    }

    /// Settles this response with `next`'s outcome, as a consumer of `next`; adds nothing to `next` once this
    /// response has settled (cancelled while the transform ran, say).
    @inlinable
    func follow(_ next: Response<Value>) {
        consume(next, through: .result { [self] outcome in settle(outcome, upstreamIsSettled: true) })
    }
}

// MARK: - Choosing a queue for a derived response

extension Optional where Wrapped == any CallbackQueue {
    /// The main queue, as a derived response's callback queue: `response.map(callbackQueue: .main) { ... }`.
    public static var main: Self { MainCallbackQueue.shared }

    /// Immediate delivery, as a derived response's callback queue.
    public static var immediate: Self { ImmediateCallbackQueue.shared }

    /// The process-wide default queue, as a derived response's callback queue.
    public static var `default`: Self { DefaultCallbackQueue.shared }
}
