/// The options an app was launched with, handed to every service in
/// ``LifecycleEvent/didFinishLaunching(_:)``.
///
/// Write them as a dictionary literal. Keys are strings (on iOS, the raw values of
/// `UIApplication.LaunchOptionsKey`); values are any hashable, sendable value, so options compare equal when
/// they hold the same keys with equal values.
///
/// ```swift
/// registry.send(.didFinishLaunching([:]))
/// registry.send(.didFinishLaunching(["environment": "staging", "attempt": 2]))
/// ```
public struct LaunchOptions: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The type of a value: anything hashable that can cross threads.
    public typealias Value = any Hashable & Sendable

    private var values: [String: Value]

    /// Creates options from a dictionary.
    public init(_ values: [String: Value] = [:]) {
        self.values = values
    }

    /// Creates options from a dictionary literal. When a key appears twice, the last value wins.
    public init(dictionaryLiteral elements: (String, Value)...) {
        self.values = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    /// The value for `key`, or `nil` when the app was not launched with that option.
    public subscript(key: String) -> Value? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// The value for `key` when it has type `T`, or `nil`.
    public subscript<T>(key: String, as type: T.Type) -> T? {
        values[key] as? T
    }

    /// The keys the app was launched with, in no particular order.
    public var keys: [String] { Array(values.keys) }

    /// Whether the app was launched without options.
    public var isEmpty: Bool { values.isEmpty }

    /// Options are equal when they hold the same keys with equal values.
    public static func == (lhs: LaunchOptions, rhs: LaunchOptions) -> Bool {
        guard lhs.values.count == rhs.values.count else { return false }
        // AnyHashable compares values of different static types, which is what `any Hashable` needs.
        return lhs.values.allSatisfy { key, value in
            rhs.values[key].map { AnyHashable($0) == AnyHashable(value) } ?? false
        }
    }

    /// Hashes the keys; equal options have equal keys, whatever order a dictionary keeps them in.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(Set(values.keys))
    }
}

extension LaunchOptions: CustomStringConvertible {
    /// The options as a sorted `key: value` list, for logs and test failures.
    public var description: String {
        if values.isEmpty { return "[:]" }
        let pairs = values.keys.sorted().map { key in "\(key): \(values[key]!)" }
        return "[" + pairs.joined(separator: ", ") + "]"
    }
}
