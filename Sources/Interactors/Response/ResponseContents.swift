/// What a response holds in the one place it keeps for its phase: while pending, what it was derived from and its
/// first handler; once settled, the outcome.
///
/// Never both at once: the settlement moves the upstream and the first handler out (to release and to deliver)
/// in the same step that stores the outcome. Sharing the storage is what keeps a pending response within its
/// size budget. Handlers registered after the settlement go to `Response.more`.
@usableFromInline
enum ResponseContents<Value: Sendable> {
    /// Pending. `upstream` is what a derived response waits on (its demand is released when it settles);
    /// `first` its first handler, stored inline because most responses have one.
    case pending(upstream: (any UpstreamLink)?, first: Handler<Value>?)
    case succeeded(Value)
    case failed(any Error)

    @inlinable
    init(_ outcome: Result<Value, any Error>) {
        switch outcome {
        case .success(let value): self = .succeeded(value)
        case .failure(let error): self = .failed(error)
        }
    }

    /// The outcome; `nil` while pending.
    @inlinable
    var outcome: Result<Value, any Error>? {
        switch self {
        case .pending: nil
        case .succeeded(let value): .success(value)
        case .failed(let error): .failure(error)
        }
    }

    /// The upstream, while pending.
    @inlinable
    var upstream: (any UpstreamLink)? {
        if case .pending(let upstream, _) = self { return upstream }
        return nil
    }

    /// Whether a pending slot has its first handler.
    @inlinable
    var hasFirst: Bool {
        if case .pending(_, .some) = self { return true }
        return false
    }

}

// MARK: - Changing the slot in place
//
// Through a pointer to the stored property, moving the old value out and the new one in: a handler or an
// upstream changes place without a retain or a release, where assigning a rebuilt enum would copy its payload.

extension Response {
    /// Stores `outcome`, moving out what the pending slot held. Call with the lock held, while pending.
    @inlinable
    func takePending(
        storing outcome: Result<Value, any Error>
    ) -> (
        upstream: (any UpstreamLink)?, first: Handler<Value>?
    ) {
        withUnsafeMutablePointer(to: &slot) { pointer in
            let old = pointer.move()
            pointer.initialize(to: ResponseContents(outcome))
            switch old {
            case .pending(let upstream, let first): return (upstream, first)
            case .succeeded, .failed: return (nil, nil)
            }
        }
    }

    /// Sets the first handler of the pending slot. Call with the lock held, while pending.
    @inlinable
    func setFirstPending(_ handler: consuming Handler<Value>) {
        withUnsafeMutablePointer(to: &slot) { pointer in
            let old = pointer.move()
            switch old {
            case .pending(let upstream, _): pointer.initialize(to: .pending(upstream: upstream, first: handler))
            case .succeeded, .failed: pointer.initialize(to: old)
            }
        }
    }

    /// Takes the first handler out of the pending slot. Call with the lock held.
    @inlinable
    func takeFirstPending() -> Handler<Value>? {
        withUnsafeMutablePointer(to: &slot) { pointer in
            let old = pointer.move()
            switch old {
            case .pending(let upstream, let first):
                pointer.initialize(to: .pending(upstream: upstream, first: nil))
                return first
            case .succeeded, .failed:
                pointer.initialize(to: old)
                return nil
            }
        }
    }

    /// Replaces the upstream of the pending slot (a `flatMap` moving on to the response its transform
    /// returned); returns the one it replaced, to release after the lock. Call with the lock held.
    @usableFromInline
    func replaceUpstreamPending(with upstream: (any UpstreamLink)?) -> (any UpstreamLink)? {
        withUnsafeMutablePointer(to: &slot) { pointer in
            let old = pointer.move()
            switch old {
            case .pending(let previous, let first):
                pointer.initialize(to: .pending(upstream: upstream, first: first))
                return previous
            case .succeeded, .failed:
                pointer.initialize(to: old)
                return nil
            }
        }
    }
}
