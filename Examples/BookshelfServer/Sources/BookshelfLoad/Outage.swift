import Foundation

/// The database restarted under load, judged from a run's events (`run --events FILE`, one line per request: sent
/// and answered in Unix milliseconds, port, method, status, whether the body was a JSON error) and the moments the
/// script noted: `stopping` (it ran `pg_ctl stop -m fast`), `stopped` (that returned: the server is down),
/// `starting` (it ran `pg_ctl start`) and `started` (that returned: the server accepts connections).
struct Outage {
    struct Event {
        var sent: Int64
        /// -1 when the connection ended first.
        var answered: Int64
        var port: Int
        var method: String
        var status: Int
        var jsonError: Bool

        var milliseconds: Int64 { answered - sent }
        var isExpected: Bool { PlannedRequest.Kind(rawValue: method)?.expects(status) ?? false }
    }

    let events: [Event]
    let stopping: Int64
    let stopped: Int64
    let starting: Int64
    let started: Int64
    /// How long an answer may take while the database is down.
    static let answerLimit: Int64 = 1000
    /// How long after its return both instances must serve again.
    static let recoveryLimit: Int64 = 10_000

    init(eventsFile: String, stopping: Int64, stopped: Int64, starting: Int64, started: Int64) throws {
        events = try String(contentsOfFile: eventsFile, encoding: .utf8).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 6, let sent = Int64(fields[0]), let answered = Int64(fields[1]),
                let port = Int(fields[2]), let status = Int(fields[4])
            else { return nil }
            return Event(
                sent: sent,
                answered: answered,
                port: port,
                method: fields[3],
                status: status,
                jsonError: fields[5] == "1"
            )
        }
        (self.stopping, self.stopped, self.starting, self.started) = (stopping, stopped, starting, started)
    }

    var checks: [Check] {
        let down = events.filter { $0.sent >= stopped && $0.sent < starting }
        let downAnswered = down.filter { $0.answered >= 0 }
        let downRight = downAnswered.filter {
            $0.status == 503 && $0.jsonError && $0.milliseconds <= Self.answerLimit
        }
        let slowest = downAnswered.map(\.milliseconds).max() ?? 0
        let putsAcknowledgedWhileDown = events.filter {
            $0.method == "PUT" && $0.status == 200 && $0.answered > stopped && $0.answered < starting
        }
        let serverErrors = events.filter { $0.status >= 500 && $0.status != 503 }
        let transition = events.filter { $0.sent >= stopping && $0.sent < started }
        let hung = transition.filter { $0.answered < 0 || $0.milliseconds > Self.answerLimit }
        var checks = [
            Check(
                name: "database restart: while it is down, every request answers 503 with a JSON error within 1 s",
                passed: !down.isEmpty && downRight.count == down.count,
                detail: "\(down.count) requests sent while it was down (\(starting - stopped) ms): \(downRight.count) "
                    + "answered so, \(down.count - downAnswered.count) unanswered; the slowest took \(slowest) ms; "
                    + "statuses \(Self.statuses(down))"
            ),
            Check(
                name: "database restart: no request hangs or answers 500, no PUT answers 200 while it is down",
                passed: hung.isEmpty && serverErrors.isEmpty && putsAcknowledgedWhileDown.isEmpty,
                detail: "\(transition.count) requests sent from the stop to the restart: \(hung.count) unanswered or "
                    + "slower than 1 s; \(serverErrors.count) 5xx other than 503 in the whole run; "
                    + "\(putsAcknowledgedWhileDown.count) PUTs answered 200 while it was down"
            ),
        ]
        for port in Set(events.map(\.port)).sorted() {
            let after = events.filter { $0.port == port && $0.sent >= started }
            let firstServed = after.filter { $0.answered >= 0 && $0.isExpected }.map(\.answered).min()
            let late = after.filter { $0.sent >= started + Self.recoveryLimit && !$0.isExpected }
            let recovery = firstServed.map { $0 - started }
            checks.append(
                Check(
                    name: "database restart: the instance on port \(port) serves again within 10 s of its return",
                    passed: recovery.map { $0 <= Self.recoveryLimit } == true && late.isEmpty && !after.isEmpty,
                    detail: "first answered as expected \(recovery.map { "\($0) ms" } ?? "never") after the "
                        + "database accepted connections again; \(late.count) of the \(after.count) requests after "
                        + "answered otherwise past 10 s"
                )
            )
        }
        return checks
    }

    private static func statuses(_ events: [Event]) -> String {
        let counts = Dictionary(grouping: events, by: \.status).mapValues(\.count).sorted { $0.key < $1.key }
        return counts.map { "\($0.key == 0 ? "none" : String($0.key)) \($0.value)" }.joined(separator: ", ")
    }
}
