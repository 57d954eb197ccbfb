// MARK: Progress
//
// Progress is reported through the resolver (`resolver.reportProgress(0.5)`) and heard through `onProgress`
// or the `progress` sequence: fractions in 0...1, rising, never after the response has settled.

extension Response {
    /// Runs `handler` with each progress fraction reported, on the response's callback queue. A handler added
    /// after some progress was reported hears the latest fraction first. Dropped when the response settles.
    @discardableResult
    public func onProgress(_ handler: @escaping @Sendable (Double) -> Void) -> Response {
        addProgressHandler(Handler(.success(handler), on: queueReference))
        return self
    }

    /// Runs `handler` with each progress fraction reported, on `queue`.
    @_disfavoredOverload
    @discardableResult
    public func onProgress(on queue: some CallbackQueue, _ handler: @escaping @Sendable (Double) -> Void) -> Response {
        addProgressHandler(Handler(.success(handler), on: QueueReference(queue)))
        return self
    }

    /// Runs `handler` on the main actor with each progress fraction reported.
    @discardableResult
    public func onProgress(on queue: MainCallbackQueue, _ handler: @escaping @MainActor (Double) -> Void) -> Response {
        addProgressHandler(Handler(.success { fraction in MainActor.assumeIsolated { handler(fraction) } }, on: .main))
        return self
    }

    /// The progress fractions reported, as an async sequence that ends when the response settles.
    ///
    /// ```swift
    /// for await fraction in download.progress { progressView.progress = fraction }
    /// ```
    public var progress: AsyncStream<Double> {
        AsyncStream { continuation in
            onProgress(on: .immediate) { continuation.yield($0) }
            onResult(on: .immediate) { _ in continuation.finish() }
        }
    }

    private func addProgressHandler(_ handler: Handler<Double>) {
        let subscriber = ProgressSubscriber(handler) { [weak self] in self?.isDone ?? true }
        let mustStart = withExtras { extras -> Bool in
            extras.progressSubscribers.append(subscriber)
            return extras.progress >= 0 && subscriber.offer(extras.progress)
        }
        if mustStart == true { subscriber.startDelivering() }
    }

    /// Offers `fraction` to the progress subscribers if it is new and the response is pending.
    func reportProgress(_ fraction: Double) {
        guard !fraction.isNaN else { return }
        let clamped = min(max(fraction, 0), 1)
        let starting = withExtras { extras -> [ProgressSubscriber] in
            guard clamped > extras.progress else { return [] }
            extras.progress = clamped
            return extras.progressSubscribers.filter { $0.offer(clamped) }
        }
        for subscriber in starting ?? [] { subscriber.startDelivering() }
    }
}
