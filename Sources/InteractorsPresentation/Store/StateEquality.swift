/// `==` for `State` if it is `Equatable`, found at run time: a generic `Store<State: Sendable>` (and a presenter,
/// or any generic caller) cannot ask for the conformance statically, yet an update that leaves an `Equatable`
/// state equal must tell nobody.
func equality<State>(of type: State.Type) -> (@Sendable (State, State) -> Bool)? {
    guard let equatable = type as? any Equatable.Type else { return nil }
    return equatable.storeEquality(as: type)
}

extension Equatable {
    /// `==` on `State`, which is `Self` (the caller found the conformance on `State`'s own metatype): the values are
    /// compared in place, without a dynamic cast.
    fileprivate static func storeEquality<State>(as type: State.Type) -> @Sendable (State, State) -> Bool {
        precondition(State.self == Self.self)
        return { lhs, rhs in
            withUnsafePointer(to: lhs) { lhs in
                withUnsafePointer(to: rhs) { rhs in
                    UnsafeRawPointer(lhs).assumingMemoryBound(to: Self.self).pointee
                        == UnsafeRawPointer(rhs).assumingMemoryBound(to: Self.self).pointee
                }
            }
        }
    }
}
