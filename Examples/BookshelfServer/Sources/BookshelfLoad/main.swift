import BookshelfHTTPClient
import Foundation
import NIOCore
import NIOPosix

// BookshelfLoad: the bookshelf server's load generator and checker, for 127.0.0.1 only.
//
//   BookshelfLoad run (--port P | --ports P1,P2…) [--connections 64] [--duration 10] [--warmup 1] [--requests N]
//       [--ids 10000] [--mix 80/15/5] [--seed S] [--seed-books] [--partition-ids] [--acked FILE] [--json FILE]
//       [--label NAME] [--server-pid PID[,PID…]] [--database-pid PID] [--check-reads] [--readback-every N]
//       [--events FILE] [--reconnect]
//   BookshelfLoad verify (--port P | --stored FILE) --acked FILE
//   BookshelfLoad probe --port P
//   BookshelfLoad report --plain FILE[,FILE…] --library FILE[,FILE…] [--svg FILE] [--markdown] [--cpu-target X]
//   BookshelfLoad outage --events FILE --stopping MS --stopped MS --starting MS --started MS
//
// `verify`, `probe`, `report` and `outage` print one `PASS`/`FAIL` line per check and exit 1 if any failed.

func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func port(in arguments: [String]) throws -> Int {
    guard let text = option("--port", in: arguments), let port = Int(text), (1...65535).contains(port) else {
        throw LoadError("--port PORT is required")
    }
    return port
}

func printChecks(_ checks: [Check]) -> Int32 {
    for check in checks { print(check.line) }
    return checks.allSatisfy(\.passed) ? 0 : 1
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "run":
        let options = try LoadOptions(arguments: arguments.dropFirst())
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let eventLoop = group.next()
        // A guard against a server that stops answering without closing: the run ends anyway.
        let limit = options.duration + options.warmup + (options.seedBooks ? 120 : 0) + 30
        eventLoop.scheduleTask(in: .seconds(Int64(limit))) {
            FileHandle.standardError.write(Data("BookshelfLoad: the run outlived its limit of \(Int(limit)) s\n".utf8))
            exit(2)
        }
        // The run lives on its event loop; only its promise and its result leave it.
        let run = try await eventLoop.submit {
            let run = LoadRun(options: options, eventLoop: eventLoop)
            run.start()
            return NIOLoopBound(run, eventLoop: eventLoop)
        }.get()
        try await eventLoop.flatSubmit { run.value.finished.futureResult }.get()
        let result = try await eventLoop.submit { run.value.result() }.get()
        print(result.summary)
        if let file = options.jsonFile {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(result).write(to: URL(fileURLWithPath: file))
        }
        try await group.shutdownGracefully()
    case "verify":
        guard let file = option("--acked", in: arguments) else { throw LoadError("--acked FILE is required") }
        let stored = option("--stored", in: arguments)
        let port = stored == nil ? try port(in: arguments) : nil
        exit(printChecks([try verifyAcknowledgedPuts(port: port, storedFile: stored, ackedFile: file)]))
    case "probe":
        exit(printChecks(try probeBadInput(port: try port(in: arguments))))
    case "report":
        guard let plainFile = option("--plain", in: arguments), let libraryFile = option("--library", in: arguments)
        else { throw LoadError("report needs --plain FILE and --library FILE") }
        let comparison = Comparison(
            plain: try LoadResult.mean(of: plainFile),
            library: try LoadResult.mean(of: libraryFile),
            cpuTarget: option("--cpu-target", in: arguments).flatMap(Double.init)
        )
        if arguments.contains("--markdown") { print(comparison.markdown) }
        if let svg = option("--svg", in: arguments) {
            try comparison.svg.write(toFile: svg, atomically: true, encoding: .utf8)
        }
        exit(printChecks(comparison.checks))
    case "outage":
        func moment(_ name: String) throws -> Int64 {
            guard let value = option(name, in: arguments).flatMap(Int64.init) else {
                throw LoadError("outage needs \(name) MILLISECONDS")
            }
            return value
        }
        guard let events = option("--events", in: arguments) else { throw LoadError("outage needs --events FILE") }
        let outage = try Outage(
            eventsFile: events,
            stopping: try moment("--stopping"),
            stopped: try moment("--stopped"),
            starting: try moment("--starting"),
            started: try moment("--started")
        )
        exit(printChecks(outage.checks))
    default:
        throw LoadError("usage: BookshelfLoad run|verify|probe|report|outage … (see the comment atop main.swift)")
    }
} catch {
    FileHandle.standardError.write(Data("BookshelfLoad: \(error)\n".utf8))
    exit(64)
}
