// MARK: Progress
//
// Progress is reported through the resolver (`resolver.reportProgress(0.5)`) and heard through `onProgress`
// or the `progress` sequence: fractions in 0...1, rising, never after the response has settled.

extension Response {
    /// Runs `handler` with each progress fraction reported, on the response's callback queue. A handler added
    /// after some progress was reported hears the latest fraction first. Dropped when the response settles.
    @discardableResult
    public func onProgress(_ handler: @escaping @Sendable (Double) -> Void) -> Response {
        addProgressHandler(Handler(.success(handler), on: callbackQueue))
        return self
    }

    /// Runs `handler` with each progress fraction reported, on `queue`.
    @_disfavoredOverload
    @discardableResult
    public func onProgress(on queue: some CallbackQueue, _ handler: @escaping @Sendable (Double) -> Void) -> Response {
        addProgressHandler(Handler(.success(handler), on: queue))
        return self
    }

    /// Runs `handler` on the main actor with each progress fraction reported.
    @discardableResult
    public func onProgress(on queue: MainCallbackQueue, _ handler: @escaping @MainActor (Double) -> Void) -> Response {
        addProgressHandler(Handler(.success { fraction in MainActor.assumeIsolated { handler(fraction) } }, on: queue))
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
        let latest = withExtras { extras -> Double in
            extras.progressHandlers.append(handler)
            return extras.progress
        }
        if let latest, latest >= 0 { deliverProgress(latest, to: handler) }
    }

    /// Hands `fraction` to the progress handlers if it is new and the response is pending.
    func reportProgress(_ fraction: Double) {
        guard !fraction.isNaN else { return }
        let clamped = min(max(fraction, 0), 1)
        let handlers = withExtras { extras -> [Handler<Double>] in
            guard clamped > extras.progress else { return [] }
            extras.progress = clamped
            return extras.progressHandlers
        }
        for handler in handlers ?? [] { deliverProgress(clamped, to: handler) }
    }

    /// Runs one progress handler, unless the response settles before it gets its turn.
    private func deliverProgress(_ fraction: Double, to handler: Handler<Double>) {
        let callback = handler.callback
        let deliver: @Sendable () -> Void = { [self] in
            if !isDone { callback.invoke(with: .success(fraction)) }
        }
        if let queue = handler.queue { queue.schedule(deliver) } else { deliver() }
    }
}
