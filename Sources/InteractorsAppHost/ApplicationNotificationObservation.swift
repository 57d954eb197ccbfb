#if (canImport(UIKit) && !os(watchOS)) || (canImport(AppKit) && !targetEnvironment(macCatalyst))
import Foundation

/// Forwarding of the application's lifecycle notifications to a `ServiceRegistry`, made by
/// `ServiceRegistry.observeApplicationNotifications(from:onFailure:)`: keep it for as long as the registry should
/// hear them.
///
/// ``cancel()`` stops forwarding; releasing the observation cancels it, as the library's other observations do
/// (`StoreObservation`, `DataObservation`).
@MainActor
public final class ApplicationNotificationObservation {
    private let center: NotificationCenter
    // nonisolated(unsafe): also read by `deinit`, which runs when nothing else can reach the observation.
    nonisolated(unsafe) private var tokens: [any NSObjectProtocol]

    init(center: NotificationCenter, tokens: [any NSObjectProtocol]) {
        self.center = center
        self.tokens = tokens
    }

    deinit {
        for token in tokens { center.removeObserver(token) }
    }

    /// Stops forwarding notifications. Cancelling again does nothing.
    public func cancel() {
        for token in tokens { center.removeObserver(token) }
        tokens = []
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool { tokens.isEmpty }

    /// Stops forwarding notifications: ``cancel()``, by its earlier name.
    @available(*, deprecated, renamed: "cancel()")
    public func stop() {
        cancel()
    }
}
#endif
