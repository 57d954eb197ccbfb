import CoreFoundation
import Foundation
import Interactors

// Compiled on every platform (the rest of this module only where UIKit or AppKit is), so that its tests run on
// Linux, whose Foundation bridges numbers as Apple's does.

/// The launch options of a launch notification's user info: keys by their string (a launch-options key by its
/// raw value), URLs, strings, booleans and integers as they are, anything else as its description.
///
/// The values of a notification posted by Objective-C code are Foundation objects, and Swift casts an `NSNumber`
/// holding 0 or 1 to `Bool` as readily as to `Int`, and a Boolean one to `Int` as readily as to `Bool`: only the
/// number's own type (`CFBoolean` or not) says which it is. So an integer option 0 or 1 stays an `Int`, and
/// `true` stays a `Bool`.
func launchOptions(from userInfo: [AnyHashable: Any]?) -> LaunchOptions {
    var options = LaunchOptions()
    for (key, value) in userInfo ?? [:] {
        let name = (key.base as? any RawRepresentable<String>)?.rawValue ?? (key.base as? String) ?? "\(key)"
        switch value {
        case let value as URL: options[name] = value
        case let value as String: options[name] = value
        case let number as NSNumber where CFGetTypeID(number) == CFBooleanGetTypeID(): options[name] = number.boolValue
        case let value as Int: options[name] = value
        default: options[name] = String(describing: value)
        }
    }
    return options
}
