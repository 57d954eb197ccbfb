import Foundation

#if canImport(Glibc)
import Glibc
private let systemSend = Glibc.send
private let noSignal = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
import Darwin
private let systemSend = Darwin.send
private let noSignal: Int32 = 0
#endif

/// A one-request HTTP/1.1 client on a blocking socket, for the checks that need bytes exactly as written (an id
/// with `%00`, a 1 MiB body, a path of 100 KiB) and a whole answer read to the end: `Connection: close`, then read
/// until the server closes.
public enum RawHTTP {
    /// An answer read whole.
    public struct Answer: Sendable {
        /// The status code.
        public var status: Int
        /// The header fields, in order.
        public var headers: [(String, String)]
        /// The body.
        public var body: [UInt8]

        /// The body as UTF-8 text.
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
        /// The first field named `name`, whatever its case.
        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    /// Sends `method path` with `headers` and `body` to 127.0.0.1:`port` and reads the answer; throws when the
    /// connection fails or the answer is not HTTP. Gives up after `timeout` seconds without a byte.
    public static func request(
        port: Int,
        method: String,
        path: String,
        headers: [(String, String)] = [],
        body: [UInt8] = [],
        contentType: String? = "application/json",
        timeout: Int = 10
    ) throws -> Answer {
        let socket = try connect(port: port, timeout: timeout)
        defer { close(socket) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "PUT" {
            if let contentType { head += "Content-Type: \(contentType)\r\n" }
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        try send(socket, Array(head.utf8) + body)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count > 0 {
                received += buffer[0..<count]
            } else if count == 0 || errno == ECONNRESET {
                break
            } else if errno != EINTR {
                throw RawHTTPError("reading the answer to \(method) \(path.prefix(60)) failed: errno \(errno)")
            }
        }
        return try parse(received, for: "\(method) \(path.prefix(60))")
    }

    /// A connected socket to 127.0.0.1:`port`, with a receive timeout.
    public static func connect(port: Int, timeout: Int) throws -> Int32 {
        #if canImport(Glibc)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw RawHTTPError("socket() failed: errno \(errno)") }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                Darwin.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        guard connected == 0 else {
            let error = errno
            close(socket)
            throw RawHTTPError(error == ECONNREFUSED ? "connection refused" : "connect() failed: errno \(error)")
        }
        return socket
    }

    /// Writes the head of `method path` (no body) on `socket`, leaving the connection open.
    public static func writeRequest(_ socket: Int32, method: String, path: String) throws {
        try send(socket, Array("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
    }

    private static func send(_ socket: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { systemSend(socket, $0.baseAddress, $0.count, noSignal) }
            if sent < 0 {
                // The server may answer (413) and close before reading everything: read its answer then.
                if errno == EPIPE || errno == ECONNRESET { return }
                if errno == EINTR { continue }
                throw RawHTTPError("sending failed: errno \(errno)")
            }
            offset += sent
        }
    }

    private static func parse(_ bytes: [UInt8], for request: String) throws -> Answer {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else {
            throw RawHTTPError("the answer to \(request) has no complete head (\(bytes.count) bytes)")
        }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw RawHTTPError("the answer to \(request) starts '\(lines[0])'")
        }
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var answer = Answer(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
        if let length = answer.header("Content-Length").flatMap(Int.init), length != answer.body.count {
            throw RawHTTPError("the answer to \(request) is truncated: \(answer.body.count) of \(length) bytes")
        }
        answer.body = Array(answer.body)
        return answer
    }
}

/// A connection that failed, or an answer that is not whole HTTP.
public struct RawHTTPError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
