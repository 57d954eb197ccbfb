#if (canImport(UIKit) && !os(watchOS)) || (canImport(AppKit) && !targetEnvironment(macCatalyst))
import Foundation

/// Forwarding of the application's lifecycle notifications to a `ServiceRegistry`, made by
/// `ServiceRegistry.observeApplicationNotifications(from:onFailure:)`.
@MainActor
public final class ApplicationNotificationObservation {
    private let center: NotificationCenter
    private var tokens: [any NSObjectProtocol]

    init(center: NotificationCenter, tokens: [any NSObjectProtocol]) {
        self.center = center
        self.tokens = tokens
    }

    /// Stops forwarding notifications. Calling it again does nothing.
    public func stop() {
        for token in tokens { center.removeObserver(token) }
        tokens = []
    }
}
#endif
