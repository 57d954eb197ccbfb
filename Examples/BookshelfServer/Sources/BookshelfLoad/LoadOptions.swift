import Foundation

/// What `BookshelfLoad run` is asked to do, bounded: only to the loopback address, for at most
/// ``maximumDuration`` and ``maximumRequests``.
struct LoadOptions {
    static let maximumDuration = 600.0
    static let maximumRequests = 10_000_000
    static let maximumConnections = 1024

    var host = "127.0.0.1"
    var port = 0
    var connections = 64
    /// Seconds measured, after the warm-up.
    var duration = 10.0
    /// Seconds sent but not measured, first.
    var warmup = 1.0
    /// Requests measured, at most.
    var requests = maximumRequests
    /// The ids are `book-0` … `book-(ids - 1)`.
    var ids = 10_000
    /// Percentages of GET, PUT and DELETE.
    var mix = (get: 80, put: 15, delete: 5)
    var seed: UInt64 = 1
    /// PUT every id once before the warm-up, so reads find books.
    var seedBooks = false
    /// Each connection writes only ids of its own (id mod connections), so its acknowledged puts are the truth for
    /// those ids: for the SIGKILL check.
    var partitionIds = false
    /// Where to write each acknowledged PUT (`ack`) and each PUT left unanswered (`maybe`).
    var ackedFile: String?
    /// Where to write the result as JSON.
    var jsonFile: String?
    var label = "run"
    /// The server's process, whose CPU time over the measured part is read from `/proc` (Linux).
    var serverPID: Int32?

    init(arguments: some Sequence<String>) throws {
        var arguments = arguments.makeIterator()
        func value(_ option: String) throws -> String {
            guard let value = arguments.next() else { throw LoadError("\(option) needs a value") }
            return value
        }
        func number<T: LosslessStringConvertible>(_ option: String, _ range: ClosedRange<T>) throws -> T {
            let text = try value(option)
            guard let number = T(text), range.contains(number) else {
                throw LoadError("\(option) takes a number in \(range), not '\(text)'")
            }
            return number
        }
        while let argument = arguments.next() {
            switch argument {
            case "--host": host = try value(argument)
            case "--port": port = try number(argument, 1...65535)
            case "--connections": connections = try number(argument, 1...Self.maximumConnections)
            case "--duration": duration = try number(argument, 0.1...Self.maximumDuration)
            case "--warmup": warmup = try number(argument, 0...60)
            case "--requests": requests = try number(argument, 1...Self.maximumRequests)
            case "--ids": ids = try number(argument, 1...1_000_000)
            case "--seed": seed = try number(argument, 0...UInt64.max)
            case "--seed-books": seedBooks = true
            case "--partition-ids": partitionIds = true
            case "--acked": ackedFile = try value(argument)
            case "--json": jsonFile = try value(argument)
            case "--label": label = try value(argument)
            case "--server-pid": serverPID = try number(argument, 1...Int32.max)
            case "--mix":
                let parts = try value(argument).split(separator: "/").compactMap { Int($0) }
                guard parts.count == 3, parts.allSatisfy({ $0 >= 0 }), parts.reduce(0, +) == 100 else {
                    throw LoadError("--mix takes GET/PUT/DELETE percentages that add up to 100, such as 80/15/5")
                }
                mix = (parts[0], parts[1], parts[2])
            default: throw LoadError("unknown argument '\(argument)'")
            }
        }
        try Self.requireLoopback(host)
        guard port != 0 else { throw LoadError("--port is required") }
    }

    /// Load goes to this machine only.
    static func requireLoopback(_ host: String) throws {
        guard host == "127.0.0.1" || host == "localhost" || host == "::1" else {
            throw LoadError("only 127.0.0.1, localhost or ::1 may be loaded, not '\(host)'")
        }
    }
}

struct LoadError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
