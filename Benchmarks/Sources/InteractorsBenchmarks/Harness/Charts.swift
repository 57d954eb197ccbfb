#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: Charts
//
// `--charts DIRECTORY` writes each table of the report as an SVG picture next to the Markdown: a bar chart of
// Response's time divided by each peer's (left of the line at 1 is faster), and the scale rows as a line chart of
// a round's time against n. Plain SVG text, so the harness needs no dependency, and BENCHMARKS.md embeds the files.

extension Report {
    /// Writes the charts of this run into `directory`; returns the files written.
    func writeCharts(to directory: String) -> [String] {
        var written: [String] = []
        func write(_ name: String, _ svg: String?) {
            guard let svg else { return }
            let path = directory + "/" + name
            guard let file = fopen(path, "w") else { return }
            fputs(svg, file)
            fclose(file)
            written.append(path)
        }
        write("main.svg", ratioChart(.main, ours: .response, against: Library.ratioPeers, title: "Response ÷ peer"))
        write(
            "locks.svg",
            ratioChart(.locks, ours: .lockModel, against: [.oldLockModel, .pthreadMutexModel], title: "Lock ÷ peer")
        )
        write(
            "presentation.svg",
            ratioChart(.presentation, ours: .store, against: [.observableModel, .mutexState], title: "Store ÷ peer")
        )
        write(
            "stores.svg",
            ratioChart(.stores, ours: .sqliteStore, against: [.rawSQLite, .fileStore], title: "SQLite ÷ peer")
        )
        write("scale.svg", scaleChart())
        return written
    }

    /// One group of bars per case of `table`: `ours` divided by each of `peers` that ran it.
    private func ratioChart(
        _ table: BenchmarkCase.Table,
        ours: Library,
        against peers: [Library],
        title: String
    ) -> String? {
        let groups = cases.filter { $0.table == table }.compactMap { benchmark -> BarGroup? in
            guard let mine = results[benchmark.id, ours] else { return nil }
            let bars = peers.compactMap { peer -> (String, Double)? in
                guard let theirs = results[benchmark.id, peer] else { return nil }
                return (peer.title, mine.nanoseconds / theirs.nanoseconds)
            }
            return bars.isEmpty ? nil : BarGroup(label: benchmark.title, bars: bars)
        }
        guard !groups.isEmpty else { return nil }
        return SVGChart.bars(title: title + " (time; below 1 is faster)", groups: groups, peers: peers.map(\.title))
    }

    /// A round's time against n, one line per kind of scale row and contender.
    private func scaleChart() -> String? {
        var series: [(name: String, points: [(n: Double, nanoseconds: Double)])] = []
        for benchmark in cases where benchmark.table == .scale {
            guard let n = benchmark.itemsPerRound else { continue }
            // The series name is the title without its count: "pending responses, `timeout(after: 600 s)` each".
            let kind = String(benchmark.title.drop { $0 != " " }.dropFirst())
            for library in Library.scaleColumns {
                guard let measured = results[benchmark.id, library] else { continue }
                let name = library == .response ? kind : "\(kind): \(library.title)"
                if let index = series.firstIndex(where: { $0.name == name }) {
                    series[index].points.append((Double(n), measured.nanoseconds))
                } else {
                    series.append((name, [(Double(n), measured.nanoseconds)]))
                }
            }
        }
        guard !series.isEmpty else { return nil }
        return SVGChart.lines(
            title: "Time of a round of n operations (log-log: a slope of 1 is a flat cost per item)",
            series: series
        )
    }
}

/// One case's bars: its title, then each peer's ratio.
struct BarGroup {
    let label: String
    let bars: [(peer: String, ratio: Double)]
}

/// SVG text for the two kinds of chart.
enum SVGChart {
    private static let palette = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1"]

    /// Horizontal bars on a logarithmic axis from 1/8 to 8, a line at 1.
    static func bars(title: String, groups: [BarGroup], peers: [String]) -> String {
        let labelWidth = 430.0
        let plotWidth = 420.0
        let barHeight = 9.0
        let groupGap = 8.0
        let top = 50.0
        let groupHeights = groups.map { Double($0.bars.count) * barHeight + groupGap }
        let height = top + groupHeights.reduce(0, +) + 40
        let width = labelWidth + plotWidth + 60
        func x(_ ratio: Double) -> Double {
            let clamped = min(max(ratio, 0.125), 8)
            return labelWidth + (log2(clamped) + 3) / 6 * plotWidth
        }
        var svg = header(width: width, height: height, title: title)
        // The legend: one swatch per peer.
        for (index, peer) in peers.enumerated() {
            let left = labelWidth + Double(index) * 110
            svg += rect(x: left, y: 28, width: 10, height: 10, color: palette[index % palette.count])
            svg += text(peer, x: left + 14, y: 37, size: 11)
        }
        // The axis: ticks at 1/8 ... 8, the line at 1 darker.
        let bottom = height - 30
        for exponent in -3...3 {
            let ratio = pow(2, Double(exponent))
            let tickX = x(ratio)
            svg += line(x1: tickX, y1: top - 4, x2: tickX, y2: bottom, color: exponent == 0 ? "#333" : "#ddd")
            let label = exponent < 0 ? "1/\(1 << -exponent)" : "\(1 << exponent)"
            svg += text(label + "x", x: tickX, y: bottom + 14, size: 10, anchor: "middle")
        }
        var y = top
        for group in groups {
            svg += text(
                escape(group.label),
                x: labelWidth - 8,
                y: y + Double(group.bars.count) * barHeight / 2 + 4,
                size: 11,
                anchor: "end"
            )
            for bar in group.bars {
                let color = palette[(peers.firstIndex(of: bar.peer) ?? 0) % palette.count]
                let start = x(1)
                let end = x(bar.ratio)
                svg += rect(
                    x: min(start, end),
                    y: y,
                    width: max(1, abs(end - start)),
                    height: barHeight - 1,
                    color: color
                )
                svg += "<title>\(escape(group.label)) ÷ \(escape(bar.peer)): \(format(ratio: bar.ratio))</title>"
                y += barHeight
            }
            y += groupGap
        }
        return svg + "</svg>\n"
    }

    /// Lines of time against n on logarithmic axes, a marker at each measured point.
    static func lines(title: String, series: [(name: String, points: [(n: Double, nanoseconds: Double)])]) -> String {
        let left = 80.0
        let top = 40.0
        let plotWidth = 520.0
        let plotHeight = 320.0
        let legendTop = top + plotHeight + 40
        let height = legendTop + Double(series.count) * 16 + 10
        let width = left + plotWidth + 40
        let allN = series.flatMap { $0.points.map(\.n) }
        let allTimes = series.flatMap { $0.points.map(\.nanoseconds) }
        let nRange = floor(log10(allN.min()!))...ceil(log10(allN.max()!))
        let timeRange = floor(log10(allTimes.min()!))...ceil(log10(allTimes.max()!))
        func x(_ n: Double) -> Double {
            left + (log10(n) - nRange.lowerBound) / max(1, nRange.upperBound - nRange.lowerBound) * plotWidth
        }
        func y(_ nanoseconds: Double) -> Double {
            top + plotHeight - (log10(nanoseconds) - timeRange.lowerBound)
                / max(1, timeRange.upperBound - timeRange.lowerBound) * plotHeight
        }
        var svg = header(width: width, height: height, title: title)
        for decade in Int(nRange.lowerBound)...Int(nRange.upperBound) {
            let tickX = x(pow(10, Double(decade)))
            svg += line(x1: tickX, y1: top, x2: tickX, y2: top + plotHeight, color: "#ddd")
            svg += text(
                "n = \(Int(pow(10, Double(decade))).formatted)",
                x: tickX,
                y: top + plotHeight + 16,
                size: 10,
                anchor: "middle"
            )
        }
        for decade in Int(timeRange.lowerBound)...Int(timeRange.upperBound) {
            let tickY = y(pow(10, Double(decade)))
            svg += line(x1: left, y1: tickY, x2: left + plotWidth, y2: tickY, color: "#ddd")
            svg += text(
                format(nanoseconds: pow(10, Double(decade))),
                x: left - 6,
                y: tickY + 4,
                size: 10,
                anchor: "end"
            )
        }
        for (index, entry) in series.enumerated() {
            let color = palette[index % palette.count]
            let points = entry.points.sorted { $0.n < $1.n }
            let path = points.map { "\(x($0.n)),\(y($0.nanoseconds))" }.joined(separator: " ")
            svg += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(path)\"/>\n"
            for point in points {
                svg += "<circle cx=\"\(x(point.n))\" cy=\"\(y(point.nanoseconds))\" r=\"3\" fill=\"\(color)\">"
                svg +=
                    "<title>\(escape(entry.name)), n = \(Int(point.n).formatted): \(format(nanoseconds: point.nanoseconds))</title></circle>\n"
            }
            let legendY = legendTop + Double(index) * 16
            svg += rect(x: left, y: legendY - 9, width: 10, height: 10, color: color)
            svg += text(escape(entry.name), x: left + 16, y: legendY, size: 11)
        }
        return svg + "</svg>\n"
    }

    // MARK: Elements

    private static func header(width: Double, height: Double, title: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\">\n"
            + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
            + text(escape(title), x: 10, y: 18, size: 13)
    }

    private static func rect(x: Double, y: Double, width: Double, height: Double, color: String) -> String {
        "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"\(height)\" fill=\"\(color)\"/>\n"
    }

    private static func line(x1: Double, y1: Double, x2: Double, y2: Double, color: String) -> String {
        "<line x1=\"\(x1)\" y1=\"\(y1)\" x2=\"\(x2)\" y2=\"\(y2)\" stroke=\"\(color)\"/>\n"
    }

    private static func text(_ content: String, x: Double, y: Double, size: Int, anchor: String = "start") -> String {
        "<text x=\"\(x)\" y=\"\(y)\" font-size=\"\(size)\" text-anchor=\"\(anchor)\">\(content)</text>\n"
    }

    /// The text with the characters XML reserves escaped, and Markdown's backticks dropped.
    private static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "`": continue
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
