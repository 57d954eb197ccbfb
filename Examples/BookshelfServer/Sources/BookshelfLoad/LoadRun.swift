import Foundation
import Histogram
import NIOCore
import NIOHTTP1
import NIOPosix

/// A request the generator sends: its kind, its id, and for a PUT the title that makes its body unique.
struct PlannedRequest {
    enum Kind: String, CaseIterable, Codable {
        case get = "GET", put = "PUT", delete = "DELETE"

        /// Whether `status` is an answer this kind of request expects: for a write, one that says its outcome (a
        /// DELETE's 404 says the book was not there: it is absent, as after a 204).
        func expects(_ status: Int) -> Bool {
            switch self {
            case .get: status == 200 || status == 404
            case .put: status == 200
            case .delete: status == 204 || status == 404
            }
        }
    }

    var kind: Kind
    var id: Int
    var title: String
    /// Whether its latency counts (sent during the measured part of the run).
    var measured: Bool
    /// With `--check-reads`: a write's sequence number, or a GET's floor (see `ReadModel`).
    var writeSequence: Int?
    var readFloor: Int?

    var path: String { "/books/book-\(id)" }
    var body: String { #"{"id":"book-\#(id)","title":"\#(title)","author":"BookshelfLoad"}"# }
}

/// One run of the load: what each connection sends next, and everything that came back. Confined to the one event
/// loop all its connections run on, so it needs no lock.
final class LoadRun {
    let options: LoadOptions
    let eventLoop: any EventLoop
    let finished: EventLoopPromise<Void>

    private var generators: [SplitMix]
    private var sequence = 0
    private var nextSeedID = 0
    private var measuring: (start: NIODeadline, end: NIODeadline)?
    private var measuredSent = 0
    private var lastMeasuredCompletion: NIODeadline?
    private var liveConnections = 0
    private var acked = ""
    private var readModel = ReadModel()
    private var events = ""
    private var putsAcknowledged = 0

    // What came back.
    var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    var completed: [PlannedRequest.Kind: Int] = [:]
    var statuses: [Int: Int] = [:]
    var unexpected = 0
    var unanswered = 0
    var truncated = 0
    var connectsRefused = 0
    var closedByServer = 0
    var shutdownSeen = false
    var connectsAcceptedAfterShutdown = 0
    var unmeasured = 0
    var byPort: [Int: PortStats] = [:]
    var readbacks = 0
    var readbackMismatches: [String] = []

    init(options: LoadOptions, eventLoop: any EventLoop) {
        self.options = options
        self.eventLoop = eventLoop
        self.finished = eventLoop.makePromise()
        self.generators = (0..<options.connections).map { SplitMix(seed: options.seed &+ UInt64($0) &* 7919) }
        if !options.seedBooks { startWarmup(now: .now()) }
    }

    /// Opens every connection.
    func start() {
        eventLoop.assertInEventLoop()
        liveConnections = options.connections
        for index in 0..<options.connections { connect(index) }
    }

    private func startWarmup(now: NIODeadline) {
        let start = now + .nanoseconds(Int64(options.warmup * 1e9))
        let end = start + .nanoseconds(Int64(options.duration * 1e9))
        measuring = (start, end)
        let (servers, database) = (options.serverPIDs, options.databasePID)
        let run = NIOLoopBound(self, eventLoop: eventLoop)
        eventLoop.scheduleTask(deadline: start) {
            run.value.serverCPUAtStart = processesCPUSeconds(servers)
            run.value.databaseCPUAtStart = database.flatMap(processTreeCPUSeconds)
            run.value.loadAverages.append(contentsOf: loadAverage().map { [$0] } ?? [])
        }
        eventLoop.scheduleTask(deadline: end) {
            run.value.serverCPUAtEnd = processesCPUSeconds(servers)
            run.value.databaseCPUAtEnd = database.flatMap(processTreeCPUSeconds)
            run.value.loadAverages.append(contentsOf: loadAverage().map { [$0] } ?? [])
        }
    }

    /// The machine's load average (1 minute) when the measured part began and ended.
    private var loadAverages: [Double] = []

    private var serverCPUAtStart: Double?
    private var serverCPUAtEnd: Double?
    private var databaseCPUAtStart: Double?
    private var databaseCPUAtEnd: Double?

    // MARK: Planning

    /// The next request for connection `index`, or `nil` when the run is over for it.
    func next(for index: Int) -> PlannedRequest? {
        eventLoop.assertInEventLoop()
        let now = NIODeadline.now()
        sequence += 1
        if options.seedBooks, nextSeedID < options.ids {
            defer { nextSeedID += 1 }
            if nextSeedID + 1 == options.ids { startWarmup(now: now) }
            return planned(PlannedRequest(kind: .put, id: nextSeedID, title: "seed-\(nextSeedID)", measured: false))
        }
        guard let (start, end) = measuring, now < end, measuredSent < options.requests else { return nil }
        let measured = now >= start
        if measured { measuredSent += 1 }
        var generator = generators[index]
        defer { generators[index] = generator }
        let roll = Int(generator.next() % 100)
        let kind: PlannedRequest.Kind =
            roll < options.mix.get ? .get : roll < options.mix.get + options.mix.put ? .put : .delete
        var id = Int(generator.next() % UInt64(options.ids))
        // Writes only to ids ≡ index (mod connections): no other connection writes them. With --check-reads,
        // reads go to any id, written through any instance.
        if options.partitionIds, kind != .get || !options.checkReads {
            let connections = options.connections
            id = id - id % connections + index
            if id >= options.ids { id = index }
        }
        return planned(PlannedRequest(kind: kind, id: id, title: "c\(index)-s\(sequence)", measured: measured))
    }

    /// `request`, entered in the read model when reads are checked.
    private func planned(_ request: PlannedRequest) -> PlannedRequest {
        guard options.checkReads else { return request }
        var request = request
        switch request.kind {
        case .get: request.readFloor = readModel.floor(of: request.id)
        case .put: request.writeSequence = readModel.sent(id: request.id, title: request.title)
        case .delete: request.writeSequence = readModel.sent(id: request.id, title: nil)
        }
        return request
    }

    // MARK: Outcomes

    func answered(_ request: PlannedRequest, status: Int, sentAt: NIODeadline, port: Int, body: ByteBuffer?) {
        let now = NIODeadline.now()
        statuses[status, default: 0] += 1
        let expected = request.kind.expects(status)
        if !expected { unexpected += 1 }
        if request.kind == .put {
            // A 5xx PUT may have committed (a statement that outlived its deadline): it is not the truth, but
            // it may be what the store holds.
            acked += "\(status == 200 ? "ack" : "maybe")\tbook-\(request.id)\t\(request.title)\n"
            if status == 200 { putsAcknowledged += 1 }
        } else if request.kind == .delete {
            acked += "\(expected ? "ack-delete" : "maybe-delete")\tbook-\(request.id)\t-\n"
        }
        if let sequence = request.writeSequence, expected {
            readModel.acknowledged(id: request.id, sequence: sequence)
        }
        var stats = byPort[port, default: PortStats()]
        stats.answered += 1
        stats.statuses[String(status), default: 0] += 1
        stats.maxMilliseconds = max(stats.maxMilliseconds, Double((now - sentAt).nanoseconds) / 1e6)
        if !expected { stats.note("\(request.kind.rawValue) \(request.path): \(status)") }
        if !expected { stats.unexpected += 1 }
        if options.checkReads, request.kind == .get, expected {
            let read = status == 200 ? body.flatMap { title(ofBook: request.id, in: $0) } : nil
            let readable = status == 404 || read != nil
            if !readable || !readModel.accepts(id: request.id, floor: request.readFloor, title: read) {
                stats.wrongReads += 1
                stats.note("GET \(request.path): \(status) \(read ?? "") (floor \(request.readFloor ?? -1))")
            }
        }
        byPort[port] = stats
        if options.eventsFile != nil {
            let json = status >= 400 && isJSONError(body)
            events +=
                "\(wallClock(sentAt))\t\(wallClock(now))\t\(port)\t\(request.kind.rawValue)\t\(status)\t\(json ? 1 : 0)\n"
        }
        guard request.measured else {
            unmeasured += 1
            return
        }
        completed[request.kind, default: 0] += 1
        let micros = UInt64(max(1, (now - sentAt).nanoseconds / 1000))
        _ = histogram.record(micros)
        lastMeasuredCompletion = now
    }

    /// The connection ended with `request` in flight: `sawResponse` when part of its answer had arrived.
    func lost(_ request: PlannedRequest, sawResponse: Bool, sentAt: NIODeadline, port: Int) {
        if sawResponse { truncated += 1 } else { unanswered += 1 }
        if request.kind == .put { acked += "maybe\tbook-\(request.id)\t\(request.title)\n" }
        if request.kind == .delete { acked += "maybe-delete\tbook-\(request.id)\t-\n" }
        byPort[port, default: PortStats()].lost += 1
        if options.eventsFile != nil {
            events += "\(wallClock(sentAt))\t-1\t\(port)\t\(request.kind.rawValue)\t0\t0\n"
        }
    }

    /// `deadline` in Unix milliseconds, the scripts' clock, mapped through the wall clock now rather than at the
    /// run's start: the events are judged against moments a script took with `date`, and the system may step the
    /// wall clock during a run (an event is written at most a request's time after its `deadline`).
    private func wallClock(_ deadline: NIODeadline) -> Int64 {
        let now = NIODeadline.now()
        return Int64(Date().timeIntervalSince1970 * 1000) - (now - deadline).nanoseconds / 1_000_000
    }

    // MARK: Reading back through another instance

    /// Whether the PUT just acknowledged is one to read back through another instance (every Nth).
    func readsBack(_ request: PlannedRequest) -> Bool {
        options.readbackEvery > 0 && request.kind == .put && putsAcknowledged % options.readbackEvery == 0
    }

    /// Reads `request`'s book back through the port after `port`, on a connection of its own, then calls `resume`:
    /// the connection that wrote it waits meanwhile, so nothing else writes that id.
    func readBack(_ request: PlannedRequest, writtenThrough port: Int, resume: @escaping () -> Void) {
        let ports = options.ports
        let other = ports[((ports.firstIndex(of: port) ?? 0) + 1) % ports.count]
        let run = NIOLoopBound(self, eventLoop: eventLoop)
        let check = { (outcome: (Int, ByteBuffer)?) in
            let run = run.value
            run.readbacks += 1
            let read = outcome.flatMap { $0.0 == 200 ? title(ofBook: request.id, in: $0.1) : nil }
            if read != request.title, run.readbackMismatches.count < 100 {
                let answer = outcome.map { "\($0.0) \(read ?? "")" } ?? "no answer"
                run.readbackMismatches.append(
                    "\(request.path) put '\(request.title)' via \(port), read via \(other): \(answer)"
                )
            }
            resume()
        }
        let once = NIOLoopBound(check, eventLoop: eventLoop)
        ClientBootstrap(group: eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(
                        ReadbackConnection(path: request.path) { once.value($0) }
                    )
                }
            }
            .connect(host: options.host, port: other)
            .whenFailure { _ in once.value(nil) }
    }

    // MARK: Connections

    func connect(_ index: Int) {
        let run = NIOLoopBound(self, eventLoop: eventLoop)
        let afterShutdown = shutdownSeen
        ClientBootstrap(group: eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(LoadConnection(run: run.value, index: index))
                }
            }
            .connect(host: options.host, port: port(of: index))
            .whenComplete { result in
                let run = run.value
                switch result {
                case .success:
                    if afterShutdown { run.connectsAcceptedAfterShutdown += 1 }
                case .failure:
                    run.connectsRefused += 1
                    if run.options.reconnect, let (_, end) = run.measuring, NIODeadline.now() + .milliseconds(100) < end
                    {
                        let again = NIOLoopBound(run, eventLoop: run.eventLoop)
                        run.eventLoop.scheduleTask(in: .milliseconds(100)) { again.value.connect(index) }
                    } else {
                        run.connectionEnded()
                    }
                }
            }
    }

    /// The port connection `index` goes to.
    func port(of index: Int) -> Int {
        options.ports[index % options.ports.count]
    }

    /// The server closed connection `index` (after an answer or with one in flight): reconnect while the run lasts.
    func closedByServer(_ index: Int) {
        closedByServer += 1
        shutdownSeen = true
        if let (_, end) = measuring, NIODeadline.now() >= end {
            connectionEnded()
        } else {
            connect(index)
        }
    }

    func connectionEnded() {
        liveConnections -= 1
        if liveConnections == 0 { finish() }
    }

    private func finish() {
        if let file = options.ackedFile {
            _ = FileManager.default.createFile(atPath: file, contents: Data(acked.utf8))
        }
        if let file = options.eventsFile {
            _ = FileManager.default.createFile(atPath: file, contents: Data(events.utf8))
        }
        finished.succeed()
    }

    // MARK: The result

    func result() -> LoadResult {
        let start = measuring?.start ?? .now()
        let seconds = max(1e-9, Double(((lastMeasuredCompletion ?? start) - start).nanoseconds) / 1e9)
        let count = completed.values.reduce(0, +)
        func ms(_ percentile: Double) -> Double { Double(histogram.valueAtPercentile(percentile)) / 1000 }
        return LoadResult(
            label: options.label,
            connections: options.connections,
            seconds: seconds,
            requests: count,
            throughput: Double(count) / seconds,
            p50: ms(50),
            p90: ms(90),
            p99: ms(99),
            p999: ms(99.9),
            max: Double(histogram.max) / 1000,
            byKind: Dictionary(uniqueKeysWithValues: completed.map { ($0.key.rawValue, $0.value) }),
            statuses: Dictionary(uniqueKeysWithValues: statuses.map { (String($0.key), $0.value) }),
            unexpected: unexpected,
            unanswered: unanswered,
            truncated: truncated,
            connectsRefused: connectsRefused,
            closedByServer: closedByServer,
            connectsAcceptedAfterShutdown: connectsAcceptedAfterShutdown,
            answeredInAll: statuses.values.reduce(0, +),
            serverCPUMicrosPerRequest: serverCPUAtEnd.flatMap { end in
                serverCPUAtStart.map { start in (end - start) * 1e6 / Double(max(1, count)) }
            },
            databaseCPUMicrosPerRequest: databaseCPUAtEnd.flatMap { end in
                databaseCPUAtStart.map { start in (end - start) * 1e6 / Double(max(1, count)) }
            },
            byPort: byPort.isEmpty ? nil : Dictionary(uniqueKeysWithValues: byPort.map { (String($0.key), $0.value) }),
            loadAverages: loadAverages,
            readbacks: options.readbackEvery > 0 ? readbacks : nil,
            readbackMismatches: options.readbackEvery > 0 ? readbackMismatches : nil
        )
    }
}

/// One keep-alive connection: sends a request, waits for its whole answer, sends the next.
final class LoadConnection: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let run: LoadRun
    private let index: Int
    private var inFlight: (request: PlannedRequest, sentAt: NIODeadline, status: Int?)?
    private var body: ByteBuffer?
    private var closeAfterAnswer = false
    private var closingOurselves = false
    private let port: Int

    init(run: LoadRun, index: Int) {
        self.run = run
        self.index = index
        self.port = run.port(of: index)
    }

    func channelActive(context: ChannelHandlerContext) {
        sendNext(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            inFlight?.status = Int(head.status.code)
            closeAfterAnswer = !head.isKeepAlive
        case .body(var part):
            if run.options.needsBodies {
                if body == nil { body = ByteBuffer() }
                body?.writeBuffer(&part)
            }
        case .end:
            guard let (request, sentAt, status) = inFlight else { return }
            inFlight = nil
            run.answered(request, status: status ?? 0, sentAt: sentAt, port: port, body: body)
            body = nil
            if closeAfterAnswer {
                context.close(promise: nil)
            } else if status == 200, run.readsBack(request) {
                let connection = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                run.readBack(request, writtenThrough: port) {
                    let (handler, context) = connection.value
                    if context.channel.isActive { handler.sendNext(context) }
                }
            } else {
                sendNext(context)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset, or an answer cut short (the decoder's EOF error): the connection is over.
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let (request, sentAt, status) = inFlight {
            run.lost(request, sawResponse: status != nil, sentAt: sentAt, port: port)
            inFlight = nil
        }
        if closingOurselves {
            run.connectionEnded()
        } else {
            run.closedByServer(index)
        }
        context.fireChannelInactive()
    }

    private func sendNext(_ context: ChannelHandlerContext) {
        guard let request = run.next(for: index) else {
            closingOurselves = true
            context.close(promise: nil)
            return
        }
        var head = HTTPRequestHead(
            version: .http1_1,
            method: request.kind == .get ? .GET : request.kind == .put ? .PUT : .DELETE,
            uri: request.path
        )
        head.headers.add(name: "Host", value: run.options.host)
        inFlight = (request, .now(), nil)
        if request.kind == .put {
            let body = ByteBuffer(string: request.body)
            head.headers.add(name: "Content-Type", value: "application/json")
            head.headers.add(name: "Content-Length", value: String(body.readableBytes))
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        } else {
            context.write(wrapOutboundOut(.head(head)), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

/// What one run measured, as printed and as written to its JSON file.
struct LoadResult: Codable {
    var label: String
    var connections: Int
    var seconds: Double
    var requests: Int
    var throughput: Double
    /// Latencies in milliseconds.
    var p50: Double
    var p90: Double
    var p99: Double
    var p999: Double
    var max: Double
    var byKind: [String: Int]
    var statuses: [String: Int]
    var unexpected: Int
    var unanswered: Int
    var truncated: Int
    var connectsRefused: Int
    var closedByServer: Int
    var connectsAcceptedAfterShutdown: Int
    /// Every answer received, measured or not (the seeding and warm-up included).
    var answeredInAll: Int
    /// The server's CPU time (user and system, all its threads) over the measured part, per measured request.
    var serverCPUMicrosPerRequest: Double?
    /// The database server's CPU time (its main process and its children) over the measured part, per request.
    var databaseCPUMicrosPerRequest: Double?
    /// By port (instance): what it answered.
    var byPort: [String: PortStats]?
    /// The machine's load average over 1 minute (`/proc/loadavg`) when the measured part began and ended; for a
    /// mean of runs, every run's.
    var loadAverages: [Double]?
    /// With `--readback-every`: the acknowledged PUTs read back through another instance, and those that read back
    /// something else.
    var readbacks: Int?
    var readbackMismatches: [String]?

    var summary: String {
        let statuses = self.statuses.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return """
            \(label): \(requests) requests in \(String(format: "%.1f", seconds)) s = \(String(format: "%.0f", throughput)) req/s \
            over \(connections) connections; latency p50 \(fmt(p50)) ms, p90 \(fmt(p90)) ms, p99 \(fmt(p99)) ms, \
            p99.9 \(fmt(p999)) ms, max \(fmt(max)) ms\(serverCPUMicrosPerRequest.map { "; server CPU \(fmt($0)) µs a request" } ?? "")\
            \(databaseCPUMicrosPerRequest.map { ", database CPU \(fmt($0)) µs" } ?? "")\
            \(loadAverages?.isEmpty == false ? "; load average \(loadRange(loadAverages))" : "")
              answers: \(statuses) (\(answeredInAll) in all); unexpected \(unexpected), unanswered \(unanswered), \
            truncated \(truncated); closed by the server \(closedByServer), connects refused \(connectsRefused), \
            accepted after shutdown began \(connectsAcceptedAfterShutdown)
            """
    }
}

func fmt(_ value: Double) -> String { String(format: "%.2f", value) }

/// The machine's load average over the last minute, from `/proc/loadavg`; nil elsewhere.
func loadAverage() -> Double? {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.flatMap {
        Double(String($0))
    }
}

/// The CPU time of the processes `pids`, added up; nil if any cannot be read.
func processesCPUSeconds(_ pids: [Int32]) -> Double? {
    guard !pids.isEmpty else { return nil }
    var total = 0.0
    for pid in pids {
        guard let seconds = processCPUSeconds(pid) else { return nil }
        total += seconds
    }
    return total
}

/// The CPU time of process `root` and its children now alive, with what its children that ended had used
/// (PostgreSQL's postmaster and its backends: one process per connection).
func processTreeCPUSeconds(_ root: Int32) -> Double? {
    guard let own = processCPUSeconds(root, withEndedChildren: true) else { return nil }
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    var total = own
    for entry in entries {
        guard let pid = Int32(entry), pid != root,
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let afterName = stat.lastIndex(of: ")")
        else { continue }
        let fields = stat[stat.index(after: afterName)...].split(separator: " ")
        // After "pid (name)": the parent's pid is field 4.
        guard fields.count > 2, Int32(fields[1]) == root else { continue }
        total += processCPUSeconds(pid) ?? 0
    }
    return total
}

/// The CPU time, user and system, that process `pid` has used so far, from `/proc/PID/stat`; nil elsewhere.
func processCPUSeconds(_ pid: Int32, withEndedChildren: Bool = false) -> Double? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let afterName = stat.lastIndex(of: ")")
    else { return nil }
    // After "pid (name)": state is field 3, utime field 14, stime field 15, the ended children's cutime and
    // cstime fields 16 and 17.
    let fields = stat[stat.index(after: afterName)...].split(separator: " ")
    guard fields.count > 14, let user = Double(fields[11]), let system = Double(fields[12]),
        let childrenUser = Double(fields[13]), let childrenSystem = Double(fields[14])
    else { return nil }
    let ticks = user + system + (withEndedChildren ? childrenUser + childrenSystem : 0)
    return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
}
