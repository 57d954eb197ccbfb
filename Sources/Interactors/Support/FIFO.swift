/// A first-in, first-out queue with O(1) appends and removals from the front.
///
/// Removed slots are cleared at once, so a removed element (an action, a state) is released when it is taken,
/// not when the storage is next compacted.
///
/// `@usableFromInline` and `@inlinable` so that the presentation layer's hot paths, which are `@inlinable` to be
/// specialised for the caller's state and action types, can use it.
@usableFromInline
package struct FIFO<Element> {
    @usableFromInline var slots: [Element?] = []
    @usableFromInline var head = 0

    @inlinable
    package init() {}

    @inlinable
    package var isEmpty: Bool { head == slots.count }

    @inlinable
    package mutating func append(_ element: Element) {
        slots.append(element)
    }

    /// Removes and returns the first element if `isTaken` says so; `nil`, leaving the queue as it is, otherwise.
    package mutating func popFirst(if isTaken: (Element) -> Bool) -> Element? {
        guard head < slots.count, isTaken(slots[head]!) else { return nil }
        return popFirst()
    }

    @inlinable
    package mutating func popFirst() -> Element? {
        guard head < slots.count else { return nil }
        let element = slots[head].take()
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: slots.capacity <= 256)
            head = 0
        } else if head >= 256, head * 2 >= slots.count {
            slots.removeFirst(head)
            head = 0
        }
        return element
    }
}
