import Foundation

/// The lowest and highest of `averages`, "1.20–3.40" (the machine's load while the runs were measured).
func loadRange(_ averages: [Double]?) -> String {
    guard let averages, let low = averages.min(), let high = averages.max() else { return "" }
    return low == high ? fmt(low) : "\(fmt(low))–\(fmt(high))"
}

/// The comparison of the two variants' runs: the table, the ratios against the targets, and the chart.
struct Comparison {
    static let throughputTarget = 0.95
    static let p99Target = 1.10

    let plain: LoadResult
    let library: LoadResult
    /// The CPU-a-request target (library ÷ plain), when the run checks it (`--cpu-target`).
    var cpuTarget: Double?

    var throughputRatio: Double { library.throughput / plain.throughput }
    var p99Ratio: Double { library.p99 / plain.p99 }
    /// The server's CPU time per request, library ÷ plain, when both runs read it.
    var cpuRatio: Double? {
        library.serverCPUMicrosPerRequest.flatMap { mine in plain.serverCPUMicrosPerRequest.map { mine / $0 } }
    }

    /// The Markdown table BENCHMARKS.md carries.
    var markdown: String {
        // The database's CPU column only when the runs read it (PostgreSQL).
        let database = plain.databaseCPUMicrosPerRequest != nil && library.databaseCPUMicrosPerRequest != nil
        func row(_ result: LoadResult) -> String {
            "| \(result.label) | \(result.requests) | \(String(format: "%.0f", result.throughput)) | \(fmt(result.p50)) | "
                + "\(fmt(result.p90)) | \(fmt(result.p99)) | \(fmt(result.p999)) | \(fmt(result.max)) | "
                + "\(result.serverCPUMicrosPerRequest.map(fmt) ?? "") |"
                + (database ? " \(result.databaseCPUMicrosPerRequest.map(fmt) ?? "") |" : "")
                + " \(loadRange(result.loadAverages)) |"
        }
        func ratio(_ value: KeyPath<LoadResult, Double>) -> String {
            String(format: "%.3f", library[keyPath: value] / plain[keyPath: value])
        }
        let databaseRatio = library.databaseCPUMicrosPerRequest.flatMap { mine in
            plain.databaseCPUMicrosPerRequest.map { String(format: "%.3f", mine / $0) }
        }
        return """
            | variant | requests | req/s | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | server CPU µs/request |\
            \(database ? " database CPU µs/request |" : "") load average |
            |---|---:|---:|---:|---:|---:|---:|---:|---:|\(database ? "---:|" : "")---|
            \(row(plain))
            \(row(library))
            | library ÷ plain | | \(ratio(\.throughput)) | \(ratio(\.p50)) | \(ratio(\.p90)) | \(ratio(\.p99)) | \
            \(ratio(\.p999)) | | \(cpuRatio.map { String(format: "%.3f", $0) } ?? "") |\(database ? " \(databaseRatio ?? "") |" : "") |
            """
    }

    /// One line per target, `PASS` or `FAIL`.
    var checks: [Check] {
        [
            Check(
                name: "library throughput ≥ \(Self.throughputTarget)× plain",
                passed: throughputRatio >= Self.throughputTarget,
                detail: String(
                    format: "%.0f vs %.0f req/s = %.3f×",
                    library.throughput,
                    plain.throughput,
                    throughputRatio
                )
            ),
            Check(
                name: "library p99 ≤ \(Self.p99Target)× plain",
                passed: p99Ratio <= Self.p99Target,
                detail: String(format: "%.2f vs %.2f ms = %.3f×", library.p99, plain.p99, p99Ratio)
            ),
        ] + cpuChecks
    }

    /// With a CPU target: the servers' CPU time a request, library against plain (the database's apart).
    private var cpuChecks: [Check] {
        guard let cpuTarget else { return [] }
        guard let cpuRatio, let mine = library.serverCPUMicrosPerRequest, let theirs = plain.serverCPUMicrosPerRequest
        else { return [Check(name: "library CPU a request ≤ \(cpuTarget)× plain", passed: false, detail: "not read")] }
        return [
            Check(
                name: "library CPU a request ≤ \(cpuTarget)× plain",
                passed: cpuRatio <= cpuTarget,
                detail: String(format: "%.2f vs %.2f µs = %.3f×", mine, theirs, cpuRatio)
                    + (library.databaseCPUMicrosPerRequest.flatMap { mine in
                        plain.databaseCPUMicrosPerRequest.map { theirs in
                            String(format: " (the database apart: %.2f vs %.2f µs)", mine, theirs)
                        }
                    } ?? "")
            )
        ]
    }

    /// Grouped bars, one group per percentile, one bar per variant, on a linear axis in milliseconds.
    var svg: String {
        let groups: [(String, Double, Double)] = [
            ("p50", plain.p50, library.p50), ("p90", plain.p90, library.p90), ("p99", plain.p99, library.p99),
            ("p99.9", plain.p999, library.p999),
        ]
        let colors = (plain: "#4e79a7", library: "#f28e2b")
        let left = 60.0, top = 50.0, plotWidth = 540.0, plotHeight = 260.0
        let width = left + plotWidth + 30, height = top + plotHeight + 50
        let highest = groups.map { max($0.1, $0.2) }.max() ?? 1
        let step = niceStep(highest / 5)
        let topValue = (highest / step).rounded(.up) * step
        func y(_ value: Double) -> Double { top + plotHeight - value / topValue * plotHeight }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            font-family="Helvetica, Arial, sans-serif">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="20" font-size="13" font-weight="bold">Latency at \(plain.connections) connections, \
            80/15/5 GET/PUT/DELETE (ms; lower is better)</text>

            """
        svg += "<rect x=\"\(left)\" y=\"30\" width=\"10\" height=\"10\" fill=\"\(colors.plain)\"/>"
        svg +=
            "<text x=\"\(left + 14)\" y=\"39\" font-size=\"11\">plain (\(String(format: "%.0f", plain.throughput)) req/s)</text>\n"
        svg += "<rect x=\"\(left + 200)\" y=\"30\" width=\"10\" height=\"10\" fill=\"\(colors.library)\"/>"
        svg +=
            "<text x=\"\(left + 214)\" y=\"39\" font-size=\"11\">library (\(String(format: "%.0f", library.throughput)) req/s)</text>\n"
        var tick = 0.0
        while tick <= topValue + step / 2 {
            svg +=
                "<line x1=\"\(left)\" y1=\"\(y(tick))\" x2=\"\(left + plotWidth)\" y2=\"\(y(tick))\" stroke=\"#ddd\"/>"
            svg +=
                "<text x=\"\(left - 6)\" y=\"\(y(tick) + 4)\" font-size=\"10\" text-anchor=\"end\">\(String(format: "%g", tick))</text>\n"
            tick += step
        }
        let groupWidth = plotWidth / Double(groups.count)
        let barWidth = groupWidth / 3
        for (index, (name, plainValue, libraryValue)) in groups.enumerated() {
            let x = left + Double(index) * groupWidth + groupWidth / 6
            for (offset, value, color, variant) in [
                (0.0, plainValue, colors.plain, "plain"), (barWidth, libraryValue, colors.library, "library"),
            ] {
                svg += "<rect x=\"\(x + offset)\" y=\"\(y(value))\" width=\"\(barWidth - 2)\" "
                svg += "height=\"\(max(1, top + plotHeight - y(value)))\" fill=\"\(color)\">"
                svg += "<title>\(variant) \(name): \(fmt(value)) ms</title></rect>\n"
                svg += "<text x=\"\(x + offset + barWidth / 2 - 1)\" y=\"\(y(value) - 3)\" font-size=\"9\" "
                svg += "text-anchor=\"middle\">\(fmt(value))</text>\n"
            }
            svg += "<text x=\"\(x + barWidth)\" y=\"\(top + plotHeight + 16)\" font-size=\"11\" "
            svg += "text-anchor=\"middle\">\(name) (\(String(format: "%.2f", libraryValue / plainValue))×)</text>\n"
        }
        svg +=
            "<line x1=\"\(left)\" y1=\"\(top + plotHeight)\" x2=\"\(left + plotWidth)\" y2=\"\(top + plotHeight)\" stroke=\"#333\"/>\n"
        return svg + "</svg>\n"
    }

    private func niceStep(_ rough: Double) -> Double {
        let magnitude = pow(10, floor(log10(max(rough, 1e-6))))
        for factor in [1.0, 2.0, 5.0, 10.0] where factor * magnitude >= rough { return factor * magnitude }
        return 10 * magnitude
    }
}

extension LoadResult {
    /// The mean of the runs in `files` (a comma-separated list): requests and seconds added up, the percentiles'
    /// means.
    static func mean(of files: String) throws -> LoadResult {
        let runs = try files.split(separator: ",").map { file in
            try JSONDecoder().decode(LoadResult.self, from: Data(contentsOf: URL(fileURLWithPath: String(file))))
        }
        guard var mean = runs.first else { throw LoadError("no result files in '\(files)'") }
        let count = Double(runs.count)
        func average(_ value: KeyPath<LoadResult, Double>) -> Double {
            runs.map { $0[keyPath: value] }.reduce(0, +) / count
        }
        mean.requests = runs.map(\.requests).reduce(0, +)
        mean.seconds = runs.map(\.seconds).reduce(0, +)
        mean.throughput = Double(mean.requests) / mean.seconds
        mean.p50 = average(\.p50)
        mean.p90 = average(\.p90)
        mean.p99 = average(\.p99)
        mean.p999 = average(\.p999)
        mean.max = runs.map(\.max).max() ?? 0
        let cpu = runs.compactMap(\.serverCPUMicrosPerRequest)
        mean.serverCPUMicrosPerRequest = cpu.count == runs.count ? cpu.reduce(0, +) / count : nil
        mean.loadAverages = runs.flatMap { $0.loadAverages ?? [] }
        let database = runs.compactMap(\.databaseCPUMicrosPerRequest)
        mean.databaseCPUMicrosPerRequest = database.count == runs.count ? database.reduce(0, +) / count : nil
        return mean
    }
}
