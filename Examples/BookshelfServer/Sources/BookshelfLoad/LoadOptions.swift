import Foundation

/// What `BookshelfLoad run` is asked to do, bounded: only to the loopback address, for at most
/// ``maximumDuration`` and ``maximumRequests``.
struct LoadOptions {
    static let maximumDuration = 600.0
    static let maximumRequests = 10_000_000
    static let maximumConnections = 1024

    var host = "127.0.0.1"
    /// The servers' ports: connection `i` goes to `ports[i % ports.count]` (`--port P`, or `--ports P1,P2` for
    /// several instances behind what a load balancer would do).
    var ports: [Int] = []
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
    /// Where to write each acknowledged PUT (`ack`) and DELETE (`ack-delete`), and each one left unanswered or
    /// answered 5xx (`maybe`, `maybe-delete`), in the order answered: per id, the order sent when `--partition-ids`
    /// gives each id one writer.
    var ackedFile: String?
    /// Where to write the result as JSON.
    var jsonFile: String?
    var label = "run"
    /// The servers' processes, whose CPU time over the measured part is read from `/proc` (Linux) and added up.
    var serverPIDs: [Int32] = []
    /// The database server's main process (PostgreSQL's postmaster): its CPU time and its children's over the
    /// measured part is counted apart from the servers'.
    var databasePID: Int32?
    /// Checks every GET's answer against what the run wrote and saw acknowledged (see `ReadModel`).
    var checkReads = false
    /// Reads every Nth acknowledged PUT back through another port (another instance) at once; 0: never.
    var readbackEvery = 0
    /// Where to write one line per request: when sent and answered (Unix milliseconds), port, method, status.
    var eventsFile: String?
    /// Reconnects, every 100 ms while the run lasts, to a port that refused a connection (an instance that was
    /// killed and is being restarted), instead of ending that connection.
    var reconnect = false

    /// Whether answers' bodies are kept for a check.
    var needsBodies: Bool { checkReads || eventsFile != nil }

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
        func numbers<T: LosslessStringConvertible>(_ option: String, _ range: ClosedRange<T>) throws -> [T] {
            let text = try value(option)
            let numbers = text.split(separator: ",").compactMap { T(String($0)) }
            guard !numbers.isEmpty, numbers.count == text.split(separator: ",").count,
                numbers.allSatisfy(range.contains)
            else { throw LoadError("\(option) takes numbers in \(range) separated by commas, not '\(text)'") }
            return numbers
        }
        while let argument = arguments.next() {
            switch argument {
            case "--host": host = try value(argument)
            case "--port": ports = [try number(argument, 1...65535)]
            case "--ports": ports = try numbers(argument, 1...65535)
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
            case "--server-pid": serverPIDs = try numbers(argument, 1...Int32.max)
            case "--database-pid": databasePID = try number(argument, 1...Int32.max)
            case "--check-reads": checkReads = true
            case "--readback-every": readbackEvery = try number(argument, 1...1_000_000)
            case "--events": eventsFile = try value(argument)
            case "--reconnect": reconnect = true
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
        guard !ports.isEmpty else { throw LoadError("--port or --ports is required") }
        guard readbackEvery == 0 || ports.count > 1 else { throw LoadError("--readback-every needs two --ports") }
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
