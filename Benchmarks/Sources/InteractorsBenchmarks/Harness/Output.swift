#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Progress goes to standard error, so standard output holds only the report.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        #if canImport(Glibc)
        _ = string.withCString { Glibc.write(2, $0, strlen($0)) }
        #elseif canImport(Darwin)
        _ = string.withCString { Darwin.write(2, $0, strlen($0)) }
        #endif
    }
}

func format(nanoseconds: Double) -> String {
    if nanoseconds >= 1_000_000 { return "\(rounded(nanoseconds / 1_000_000)) ms" }
    if nanoseconds >= 1_000 { return "\(rounded(nanoseconds / 1_000)) µs" }
    return "\(Int(nanoseconds.rounded())) ns"
}

func format(count: Double) -> String {
    guard count.isFinite else { return "?" }
    if abs(count - count.rounded()) < 0.05 { return "\(Int(count.rounded()))" }
    return "\(Double(Int((count * 10).rounded())) / 10)"
}

func format(bytes: Double) -> String {
    "\(Int(bytes.rounded())) B"
}

func format(ratio: Double) -> String {
    "\(Double(Int((ratio * 100).rounded())) / 100)x"
}

/// Three significant digits at most, as text.
private func rounded(_ value: Double) -> String {
    if value >= 100 { return "\(Int(value.rounded()))" }
    if value >= 10 { return "\(Double(Int((value * 10).rounded())) / 10)" }
    return "\(Double(Int((value * 100).rounded())) / 100)"
}

/// The report: one Markdown table of medians and allocations, ratios and targets, then the legend.
struct Report {
    let cases: [BenchmarkCase]
    let results: Results
    let countsAllocations: Bool

    func render() -> String {
        var lines: [String] = []
        var header = ["Case"] + Library.mainColumns.map(\.title)
        header += Library.ratioPeers.map { "Response ÷ \($0.title)" }
        header += ["Target", "Verdict"]
        lines.append(row(header))
        lines.append(row(header.map { _ in "---" }))

        for benchmark in cases where benchmark.table == .main {
            let unit = benchmark.itemsPerRound.map { " (per round of \($0.formatted))" } ?? ""
            var cells = [benchmark.title + unit]
            cells += Library.mainColumns.map { cell(benchmark.id, $0) }
            cells += Library.ratioPeers.map { ratio(benchmark.id, $0) }
            cells += verdicts(benchmark.targets.filter { !$0.statement.contains("heap") })
            lines.append(row(cells))

            if benchmark.itemsPerRound != nil {
                var heapCells = ["↳ heap held per pending item (net bytes)"]
                heapCells += Library.mainColumns.map { library in
                    results[benchmark.id, library]?.heapBytesPerItem.map { format(bytes: $0) } ?? ""
                }
                heapCells += Library.ratioPeers.map { peer in
                    guard let ours = results[benchmark.id, .response]?.heapBytesPerItem,
                        let theirs = results[benchmark.id, peer]?.heapBytesPerItem
                    else { return "" }
                    return format(ratio: ours / theirs)
                }
                heapCells += verdicts(benchmark.targets.filter { $0.statement.contains("heap") })
                lines.append(row(heapCells))
            }
        }

        lines += sideTable(
            .locks,
            caption: "Locks: the same minimal future on each lock, `Response` and the mutex future for reference.",
            columns: Library.lockColumns,
            ours: .lockModel,
            against: [.oldLockModel, .pthreadMutexModel]
        )
        lines += sideTable(
            .presentation,
            caption: "Presentation: the store and the presenter beside a plain `@Observable` model and a `Mutex` "
                + "around the same state.",
            columns: Library.presentationColumns,
            ours: .store,
            against: [.observableModel, .mutexState]
        )
        lines += scaleTable()
        lines += sideTable(
            .stores,
            caption: "Stores: one run, each store holding the row's number of values (`StoreNote`, about 150 bytes "
                + "of JSON).",
            columns: Library.storeColumns,
            ours: .sqliteStore,
            against: [.rawSQLite, .fileStore]
        )

        lines.append("")
        lines.append("Cells: median time per operation · allocations per operation (malloc calls, counted).")
        if !countsAllocations {
            lines.append("Allocation counts are missing: the malloc interposer was not loaded (see README.md).")
        }
        lines.append("Ratios: Response's median time ÷ the peer's (below 1 means Response is faster).")
        lines.append("")
        lines.append("What each cell measures:")
        lines.append("")
        for benchmark in cases {
            lines.append("- **\(benchmark.title)**")
            for contender in benchmark.contenders {
                lines.append("  - \(contender.library.title): \(contender.note)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A table of its own after the main one: `columns`, then `ours` divided by each of `against`, then the
    /// targets; nothing if no case of `table` ran.
    private func sideTable(
        _ table: BenchmarkCase.Table,
        caption: String,
        columns: [Library],
        ours: Library,
        against peers: [Library]
    ) -> [String] {
        let tableCases = cases.filter { $0.table == table }
        guard !tableCases.isEmpty else { return [] }
        var lines = ["", caption, ""]
        var header = ["Case"] + columns.map(\.title)
        header += peers.map { "\(ours.shortTitle) ÷ \($0.title)" } + ["Target", "Verdict"]
        lines.append(row(header))
        lines.append(row(header.map { _ in "---" }))
        for benchmark in tableCases {
            var cells = [benchmark.title]
            cells += columns.map { cell(benchmark.id, $0) }
            cells += peers.map { ratio(benchmark.id, ours, to: $0) }
            cells += verdicts(benchmark.targets)
            lines.append(row(cells))
        }
        return lines
    }

    /// The scale rows: a round's time, and that time per item (flat when the cost does not grow with n).
    private func scaleTable() -> [String] {
        let tableCases = cases.filter { $0.table == .scale }
        guard !tableCases.isEmpty else { return [] }
        var lines = [
            "",
            "Scale: one round of n operations per row; the time per item stays flat when the cost does not grow "
                + "with the load.",
            "",
        ]
        var header = ["Case"] + Library.scaleColumns.flatMap { ["\($0.title), round", "per item"] }
        header += ["Response ÷ `map`", "Target", "Verdict"]
        lines.append(row(header))
        lines.append(row(header.map { _ in "---" }))
        for benchmark in tableCases {
            let items = Double(benchmark.itemsPerRound ?? 1)
            var cells = [benchmark.title]
            cells += Library.scaleColumns.flatMap { library -> [String] in
                guard let measured = results[benchmark.id, library] else { return ["", ""] }
                return [format(nanoseconds: measured.nanoseconds), format(nanoseconds: measured.nanoseconds / items)]
            }
            cells.append(ratio(benchmark.id, .response, to: .mapReference))
            cells += verdicts(benchmark.targets)
            lines.append(row(cells))
        }
        return lines
    }

    private func row(_ cells: [String]) -> String {
        "| " + cells.joined(separator: " | ") + " |"
    }

    private func cell(_ caseID: String, _ library: Library) -> String {
        guard let measured = results[caseID, library] else { return "" }
        let time = format(nanoseconds: measured.nanoseconds)
        return countsAllocations ? "\(time) · \(format(count: measured.allocations))" : time
    }

    private func ratio(_ caseID: String, _ peer: Library) -> String {
        ratio(caseID, .response, to: peer)
    }

    private func ratio(_ caseID: String, _ library: Library, to peer: Library) -> String {
        guard let ours = results[caseID, library], let theirs = results[caseID, peer] else { return "" }
        return format(ratio: ours.nanoseconds / theirs.nanoseconds)
    }

    private func verdicts(_ targets: [Target]) -> [String] {
        guard !targets.isEmpty else { return ["", ""] }
        let statements = targets.map(\.statement).joined(separator: "; ")
        let verdicts = targets.map { target -> String in
            guard let verdict = target.check(results) else { return "n/a" }
            return (verdict.met ? "met (" : "**missed** (") + verdict.detail + ")"
        }
        return [statements, verdicts.joined(separator: "; ")]
    }
}

extension Int {
    /// With thousands separators: 100,000.
    var formatted: String {
        let digits = Array(String(self))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
