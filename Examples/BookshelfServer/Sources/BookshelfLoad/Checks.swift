import BookshelfHTTPClient
import Foundation

/// One check's outcome, printed as `PASS name: detail` or `FAIL name: detail`.
struct Check {
    var name: String
    var passed: Bool
    var detail: String

    var line: String { "\(passed ? "PASS" : "FAIL") \(name): \(detail)" }
}

// MARK: - Acknowledged puts survive a SIGKILL

/// Compares the store with the acknowledged writes of `ackedFile`: every id's stored title must be its last
/// acknowledged PUT's (or absent after an acknowledged DELETE), or that of a later write left unanswered or
/// answered 5xx (it may have committed). The store is read through the server (`GET /books` on `port`) or from
/// `storedFile`, a dump of the database (`id<TAB>title` lines, as `psql -At` writes them).
func verifyAcknowledgedPuts(port: Int?, storedFile: String? = nil, ackedFile: String) throws -> Check {
    let lines = try String(contentsOfFile: ackedFile, encoding: .utf8).split(separator: "\n")
    // Per id: the last acknowledged write (a title, or nil for a delete), and the uncertain writes after it.
    var expected: [String: (acked: String??, maybe: [String?])] = [:]
    var acknowledged = 0
    for line in lines {
        let fields = line.split(separator: "\t").map(String.init)
        guard fields.count == 3 else { continue }
        switch fields[0] {
        case "ack":
            expected[fields[1]] = (.some(fields[2]), [])
            acknowledged += 1
        case "ack-delete":
            expected[fields[1]] = (.some(nil), [])
            acknowledged += 1
        case "maybe": expected[fields[1], default: (nil, [])].maybe.append(fields[2])
        case "maybe-delete": expected[fields[1], default: (nil, [])].maybe.append(nil)
        default: continue
        }
    }
    let stored: [String: String]
    if let storedFile {
        let rows = try String(contentsOfFile: storedFile, encoding: .utf8).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            return fields.count == 2 ? (fields[0], fields[1]) : nil
        }
        stored = Dictionary(rows, uniquingKeysWith: { first, _ in first })
    } else if let port {
        let answer = try RawHTTP.request(port: port, method: "GET", path: "/books")
        guard answer.status == 200 else { throw LoadError("GET /books answered \(answer.status): \(answer.bodyText)") }
        struct Book: Decodable {
            var id: String
            var title: String
        }
        stored = Dictionary(
            try JSONDecoder().decode([Book].self, from: Data(answer.body)).map { ($0.id, $0.title) },
            uniquingKeysWith: { first, _ in first }
        )
    } else {
        throw LoadError("verify needs --port PORT or --stored FILE")
    }
    var missing: [String] = []
    var different: [String] = []
    for (id, writes) in expected {
        guard case .some(let acked) = writes.acked else { continue }
        let title = stored[id]
        guard title != acked, !writes.maybe.contains(title) else { continue }
        if title == nil {
            missing.append(id)
        } else {
            different.append("\(id): \(title ?? ""), acked \(acked ?? "a delete")")
        }
    }
    let ids = expected.values.filter { $0.acked != nil }.count
    let detail =
        "\(acknowledged) acknowledged writes over \(ids) ids: \(ids - missing.count - different.count) as acknowledged "
        + "(stored with their body, or deleted), \(missing.count) missing, \(different.count) different"
        + (missing.isEmpty ? "" : " (missing: \(missing.prefix(5).joined(separator: ", ")))")
        + (different.isEmpty ? "" : " (different: \(different.prefix(5).joined(separator: "; ")))")
    return Check(
        name: "acknowledged puts survive",
        passed: acknowledged > 0 && missing.isEmpty && different.isEmpty,
        detail: detail
    )
}

// MARK: - Bad input

/// Sends what a careless or hostile client sends, and checks that each gets a 4xx with a JSON error body, that the
/// server still serves afterwards, and that none of it was written.
func probeBadInput(port: Int) throws -> [Check] {
    func count() throws -> Int {
        let answer = try RawHTTP.request(port: port, method: "GET", path: "/books")
        guard answer.status == 200, let books = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [Any]
        else { throw LoadError("GET /books answered \(answer.status)") }
        return books.count
    }
    let before = try count()
    let book = #"{"id":"probe","title":"T","author":"A"}"#
    let mebibyte =
        Array(#"{"id":"probe","title":""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        + Array(#"","author":"A"}"#.utf8)
    let cases: [(name: String, method: String, path: String, body: [UInt8])] = [
        ("a body that is not JSON", "PUT", "/books/probe", Array("not json at all".utf8)),
        ("a JSON body that is not a book", "PUT", "/books/probe", Array(#"{"id":"probe"}"#.utf8)),
        ("a body whose id differs from the path's", "PUT", "/books/other", Array(book.utf8)),
        ("a 1 MiB body", "PUT", "/books/probe", mebibyte),
        ("an id with an encoded '/'", "PUT", "/books/a%2Fb", Array(#"{"id":"a/b","title":"T","author":"A"}"#.utf8)),
        ("an id with '/' (GET)", "GET", "/books/a/b", []),
        ("the id '..'", "PUT", "/books/%2E%2E", Array(#"{"id":"..","title":"T","author":"A"}"#.utf8)),
        (
            "an id with %00", "PUT", "/books/a%00b",
            Array("{\"id\":\"a\\u0000b\",\"title\":\"T\",\"author\":\"A\"}".utf8)
        ),
        ("a malformed escape", "GET", "/books/%zz", []),
        ("a 16 KiB id", "GET", "/books/" + String(repeating: "x", count: 16 * 1024), []),
        ("a 100 KiB path", "GET", "/books/" + String(repeating: "y", count: 100 * 1024), []),
        ("a page limit that is not a number", "GET", "/books?limit=ten", []),
        ("a page limit over the maximum", "GET", "/books?limit=100000", []),
    ]
    var checks: [Check] = []
    for probe in cases {
        let name = "bad input: \(probe.name)"
        do {
            let answer = try RawHTTP.request(port: port, method: probe.method, path: probe.path, body: probe.body)
            let json = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any]
            let error = json?["error"] as? [String: Any]
            let passed = (400..<500).contains(answer.status) && error?["message"] != nil
            let code = error?["code"].map { "\($0)" } ?? "no JSON error"
            checks.append(Check(name: name, passed: passed, detail: "\(answer.status) \(code)"))
        } catch {
            checks.append(Check(name: name, passed: false, detail: "\(error)"))
        }
    }
    let health = try RawHTTP.request(port: port, method: "GET", path: "/health")
    checks.append(
        Check(
            name: "bad input: the server keeps serving",
            passed: health.status == 200,
            detail: "GET /health \(health.status)"
        )
    )
    let after = try count()
    checks.append(
        Check(
            name: "bad input: nothing is written",
            passed: after == before,
            detail: "\(before) books before, \(after) after"
        )
    )
    return checks
}
