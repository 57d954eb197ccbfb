/// A first-in, first-out queue with O(1) appends and removals from the front.
///
/// Removed slots are cleared at once, so a removed element (an action, a state) is released when it is taken,
/// not when the storage is next compacted.
package struct FIFO<Element> {
    private var slots: [Element?] = []
    private var head = 0

    package init() {}

    package var isEmpty: Bool { head == slots.count }

    package mutating func append(_ element: Element) {
        slots.append(element)
    }

    /// Removes and returns the first element if `isTaken` says so; `nil`, leaving the queue as it is, otherwise.
    package mutating func popFirst(if isTaken: (Element) -> Bool) -> Element? {
        guard head < slots.count, isTaken(slots[head]!) else { return nil }
        return popFirst()
    }

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
