// MARK: Waiting for a number of elements
//
// A spy's requests and a recorder's states are waited for the same way: until the list has at least `count`
// elements, then its first `count`; on a timeout, an error that says how many came, and which.

extension Watched {
    /// Blocks until the list `elements` reads from the value has at least `count` elements, and returns the
    /// first `count`; throws a ``ResponseProbeError`` naming `what` if `timeout` passes first.
    func waitForElements<Element: Sendable>(
        _ what: ElementsWanted,
        count: Int,
        timeout: Duration,
        in elements: @escaping @Sendable (Value) -> [Element]
    ) throws(ResponseProbeError) -> [Element] {
        let first = what.first(count, in: elements)
        return try wait(until: first, deadline: deadline(after: timeout)) { value in
            what.notYet(elements(value), count: count, within: timeout)
        }
    }

    /// Suspends until the list `elements` reads from the value has at least `count` elements, and returns the
    /// first `count`; throws a ``ResponseProbeError`` naming `what` if `timeout` passes first.
    func elements<Element: Sendable>(
        _ what: ElementsWanted,
        count: Int,
        timeout: Duration,
        in elements: @escaping @Sendable (Value) -> [Element]
    ) async throws -> [Element] {
        let first = what.first(count, in: elements)
        return try await value(timeout: timeout, until: first) { value in
            what.notYet(elements(value), count: count, within: timeout)
        }
    }
}

/// What a wait for elements is for, in its messages: "InteractorSpy<Int, User>", "requests", "made".
struct ElementsWanted: Sendable {
    let owner: String
    let plural: String
    let participle: String

    /// The condition: the first `count` elements once there are that many.
    ///
    /// - Precondition: `count` ≥ 0.
    func first<Value, Element>(
        _ count: Int,
        in elements: @escaping @Sendable (Value) -> [Element]
    ) -> @Sendable (Value) -> [Element]? {
        precondition(count >= 0, "\(owner): cannot wait for \(count) \(plural): the count must be 0 or more")
        return { value in
            let elements = elements(value)
            return elements.count >= count ? Array(elements.prefix(count)) : nil
        }
    }

    /// The error of a wait for `count` that saw only `elements` within `timeout`.
    func notYet<Element>(_ elements: [Element], count: Int, within timeout: Duration) -> ResponseProbeError {
        ResponseProbeError(
            code: .timedOut,
            description: "\(owner): \(count) \(plural) were not \(participle) within \(timeout); "
                + "\(elements.count) \(elements.count == 1 ? "was" : "were"): \(elements)"
        )
    }
}
