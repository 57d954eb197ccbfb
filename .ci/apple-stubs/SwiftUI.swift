// Stand-ins for the SwiftUI declarations the documentation's SwiftUI snippets use (views, an app, its scene, the
// scene phase), shaped as the SDK shapes them: `View`, `Scene` and `App` are `@MainActor`. Type-checked against
// by .ci/apple-typecheck, never run.
@_exported import Foundation

@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder var body: Body { get }
}

@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    init()
    @SceneBuilder var body: Body { get }
}

extension Never: View {
    public var body: Never { return standIn() }
}

/// The body of a scene that has none (SwiftUI uses `Never` for both; one stand-in type each keeps the builders
/// apart).
public enum _NoScene: Scene {
    public var body: _NoScene { return standIn() }
}

@resultBuilder
public enum ViewBuilder {
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildEither<First: View, Second: View>(first: First) -> _ConditionalContent<First, Second> {
        standIn()
    }
    public static func buildEither<First: View, Second: View>(second: Second) -> _ConditionalContent<First, Second> {
        standIn()
    }
}

@resultBuilder
public enum SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

public struct _ConditionalContent<First: View, Second: View>: View {
    public var body: Never { return standIn() }
}

public struct Text: View {
    public init<S: StringProtocol>(_ content: S) {}
    public var body: Never { return standIn() }
}

public struct ProgressView: View {
    public init() {}
    public var body: Never { return standIn() }
}

public struct WindowGroup<Content: View>: Scene {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: _NoScene { return standIn() }
}

public struct _ModifiedView<Content: View>: View {
    public var body: Never { return standIn() }
}

public struct _ModifiedScene<Content: Scene>: Scene {
    public var body: _NoScene { return standIn() }
}

extension View {
    public func onOpenURL(perform action: @escaping (URL) -> Void) -> some View { _ModifiedView<Self>() }
}

extension Scene {
    /// With `initial: true` (watchOS 10, iOS 17, macOS 14 and later) the action also runs once when the scene
    /// appears, with the first value as both old and new.
    public func onChange<Value: Equatable>(
        of value: Value,
        initial: Bool = false,
        _ action: @escaping (_ oldValue: Value, _ newValue: Value) -> Void
    ) -> some Scene { _ModifiedScene<Self>() }
}

public enum ScenePhase: Hashable, Sendable {
    case background, inactive, active
}

public struct EnvironmentValues {
    public var scenePhase: ScenePhase { return standIn() }
}

@propertyWrapper
public struct Environment<Value> {
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
    public var wrappedValue: Value { return standIn() }
}

/// Any value, for the bodies of the stand-ins (generic, so that a result builder's block gets the type it needs).
func standIn<T>() -> T { fatalError("a stand-in for type-checking only") }
