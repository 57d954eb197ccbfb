// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import Foundation
import Testing

/// The python REST fixture (Fixtures/rest_server.py) on 127.0.0.1, on a port the system chose. Needs python3.
final class RESTServer: Sendable {
    let child: ChildProcess
    let baseURL: URL

    init() throws {
        child = try ChildProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["python3", Fixtures.restServerScript.path]
        )
        guard let line = child.waitForLine(where: { $0.hasPrefix("listening ") }),
            let port = Int(line.dropFirst("listening ".count))
        else {
            child.kill()
            throw FixtureError(message: "the REST fixture did not start: \(child.output) \(child.errorOutput)")
        }
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    deinit {
        child.stop()
    }

    /// Stops the server and waits for it to exit, so its port refuses connections.
    func stop() {
        child.stop()
    }

    /// Waits for the server to print `line`; false if the guard ran out.
    func waitFor(_ line: String) -> Bool {
        child.waitForLine { $0 == line } != nil
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
#endif
