/// What a GET may answer, from the writes this run sent and the answers it saw: the check behind `--check-reads`.
///
/// Each PUT or DELETE gets a sequence number when sent. A GET remembers the newest write acknowledged when it was
/// sent (its floor): it may then see that write or any later one already sent when it is answered, acknowledged or
/// not (in flight, lost with a killed instance, or answered 5xx: each may have committed). An older write that was
/// never acknowledged may not reappear, nor may a 404 follow an acknowledged PUT. An id this run has not seen
/// acknowledged (a database kept from an earlier round) may answer anything.
struct ReadModel {
    private struct Write {
        let sequence: Int
        /// The PUT's title; nil for a DELETE.
        let title: String?
    }

    private var writes: [Int: [Write]] = [:]
    private var acknowledged: [Int: Int] = [:]
    private var nextSequence = 0

    /// A write of `title` (nil: a delete) to `id` was sent; its sequence number.
    mutating func sent(id: Int, title: String?) -> Int {
        nextSequence += 1
        var list = writes[id, default: []]
        list.append(Write(sequence: nextSequence, title: title))
        // A GET is answered long before 64 more writes to one id: older ones cannot be asked about.
        if list.count > 64 { list.removeFirst(list.count - 64) }
        writes[id] = list
        return nextSequence
    }

    /// The write `sequence` to `id` was acknowledged.
    mutating func acknowledged(id: Int, sequence: Int) {
        acknowledged[id] = max(acknowledged[id] ?? 0, sequence)
    }

    /// The floor of a GET of `id` sent now.
    func floor(of id: Int) -> Int? { acknowledged[id] }

    /// Whether a GET of `id` sent with `floor` may answer `title` (nil: 404).
    func accepts(id: Int, floor: Int?, title: String?) -> Bool {
        guard let floor else { return true }
        return writes[id, default: []].contains { $0.sequence >= floor && $0.title == title }
    }
}

/// What one port (one server instance) answered.
struct PortStats: Codable {
    var answered = 0
    /// Answers with a status the request does not expect (GET 200 or 404, PUT 200, DELETE 204 or 404), 5xx
    /// included.
    var unexpected = 0
    /// GETs whose answer the `ReadModel` refuses: a wrong body, or a 404 for an acknowledged book.
    var wrongReads = 0
    /// Requests in flight when their connection ended.
    var lost = 0
    /// The slowest answer, in milliseconds, measured or not.
    var maxMilliseconds = 0.0
    var statuses: [String: Int] = [:]
    /// A few of the unexpected answers and wrong reads, for the report.
    var examples: [String] = []

    mutating func note(_ example: String) {
        if examples.count < 5 { examples.append(example) }
    }
}
