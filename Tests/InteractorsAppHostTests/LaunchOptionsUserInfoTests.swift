import Foundation
import Interactors
import Testing

@testable import InteractorsAppHost

/// A launch notification's user info, as Objective-C code posts it (Foundation objects), read into
/// `LaunchOptions`. Linux's Foundation bridges numbers as Apple's does (an `NSNumber` holding 1 casts to `Bool`),
/// so what the host reads on Apple's platforms is tested here.
@Suite struct LaunchOptionsUserInfoTests {
    /// A key as UIKit spells its launch-options keys: a struct with a string raw value.
    private struct Key: RawRepresentable, Hashable {
        let rawValue: String
    }

    @Test func anIntegerOptionOfZeroOrOneStaysAnInt() throws {
        let options = launchOptions(from: ["attempt": NSNumber(value: 1), "retries": NSNumber(value: 0)])
        let attempt = try #require(options["attempt"])
        let retries = try #require(options["retries"])
        #expect(type(of: attempt) == Int.self)
        #expect(type(of: retries) == Int.self)
        #expect(options["attempt", as: Int.self] == 1)
        #expect(options["retries", as: Int.self] == 0)
    }

    @Test func aBooleanOptionStaysABool() throws {
        let options = launchOptions(from: ["fromPush": NSNumber(value: true), "silent": NSNumber(value: false)])
        let fromPush = try #require(options["fromPush"])
        let silent = try #require(options["silent"])
        #expect(type(of: fromPush) == Bool.self)
        #expect(type(of: silent) == Bool.self)
        #expect(options["fromPush", as: Bool.self] == true)
        #expect(options["silent", as: Bool.self] == false)
    }

    @Test func swiftValuesKeepTheirTypes() throws {
        let options = launchOptions(from: ["flag": true, "count": 1, "large": 42])
        #expect(type(of: try #require(options["flag"])) == Bool.self)
        #expect(type(of: try #require(options["count"])) == Int.self)
        #expect(options["large", as: Int.self] == 42)
    }

    @Test func urlsAndStringsStayAsTheyAreAndOtherValuesBecomeTheirDescription() {
        let url = URL(string: "books://shelf/7")!
        let options = launchOptions(from: [
            Key(rawValue: "UIApplicationLaunchOptionsURLKey"): url as NSURL,
            "source": "com.example.mail" as NSString,
            "pages": [1, 2],
        ])
        #expect(options["UIApplicationLaunchOptionsURLKey", as: URL.self] == url)
        #expect(options["source", as: String.self] == "com.example.mail")
        #expect(options["pages", as: String.self] == String(describing: [1, 2]))
    }

    @Test func noUserInfoIsNoOptions() {
        #expect(launchOptions(from: nil).isEmpty)
    }
}
