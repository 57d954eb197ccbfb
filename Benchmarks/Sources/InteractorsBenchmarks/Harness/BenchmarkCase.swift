/// One row of the table: a workload, done by each library that can do it.
///
/// Adding a case is one file in `Cases/` that builds one of these, plus one line in ``BenchmarkCase/all``.
struct BenchmarkCase: Sendable {
    /// Stable key, used by targets to refer to other rows.
    let id: String
    /// The row's label in the table.
    let title: String
    /// Operations per timed sample (for a case with ``itemsPerRound``: rounds), in the full run.
    let iterations: Int
    /// Operations per timed sample in `--quick` mode.
    let quickIterations: Int
    /// When set, one operation is a round of this many items: the time column is per round, and a second row
    /// reports the heap held per pending item (what the body marks between `markStart` and `markPending`).
    let itemsPerRound: Int?
    /// Which table of the report the row goes in.
    let table: Table
    /// Timed samples per contender, when not the harness's (31, or 1 in `--quick` mode): for slow cases.
    let samples: (full: Int, quick: Int)?
    /// Whether `--quick` mode leaves the case out (the largest stores: CI runs quick mode).
    let skippedInQuickMode: Bool
    let contenders: [Contender]
    let targets: [Target]

    /// The report's tables: libraries side by side, the library's lock against others, the data stores, or the
    /// presentation layer against a plain `@Observable` model and a mutex.
    enum Table: Sendable {
        case main
        case locks
        case stores
        case presentation
        /// Costs that must not grow with the load: one round of n operations per row, for several n.
        case scale
    }

    init(
        id: String,
        title: String,
        iterations: Int,
        quickIterations: Int,
        itemsPerRound: Int? = nil,
        table: Table = .main,
        samples: (full: Int, quick: Int)? = nil,
        skippedInQuickMode: Bool = false,
        contenders: [Contender],
        targets: [Target] = []
    ) {
        self.id = id
        self.title = title
        self.iterations = iterations
        self.quickIterations = quickIterations
        self.itemsPerRound = itemsPerRound
        self.table = table
        self.samples = samples
        self.skippedInQuickMode = skippedInQuickMode
        self.contenders = contenders
        self.targets = targets
    }
}

/// One library's way of doing a case's workload.
struct Contender: Sendable {
    enum Body: Sendable {
        /// Runs on the harness thread.
        case sync(@Sendable (Run) -> Void)
        /// Runs in a detached task while the harness thread waits; the harness subtracts what the bridging costs.
        case async(@Sendable (Run) async -> Void)
    }

    let library: Library
    /// What exactly this contender does, for the legend under the table.
    let note: String
    let body: Body

    static func sync(_ library: Library, _ note: String, _ body: @escaping @Sendable (Run) -> Void) -> Contender {
        Contender(library: library, note: note, body: .sync(body))
    }

    static func async(
        _ library: Library,
        _ note: String,
        _ body: @escaping @Sendable (Run) async -> Void
    ) -> Contender {
        Contender(library: library, note: note, body: .async(body))
    }
}

extension Contender {
    /// The same contender, with every core kept busy by ``BusyLoad`` while its body runs.
    var underLoad: Contender {
        switch body {
        case .sync(let body):
            .sync(library, note) { run in
                BusyLoad.shared.start()
                defer { BusyLoad.shared.stop() }
                body(run)
            }
        case .async(let body):
            .async(library, note) { run in
                BusyLoad.shared.start()
                defer { BusyLoad.shared.stop() }
                await body(run)
            }
        }
    }
}

/// What one contender measured in one case.
struct Measurement {
    /// Median over the samples of nanoseconds per operation (per round for round cases).
    let nanoseconds: Double
    /// Fastest and slowest sample, nanoseconds per operation.
    let range: ClosedRange<Double>
    /// `malloc` calls per operation (per item for round cases), from a separate counted run.
    let allocations: Double
    /// Bytes requested from `malloc` per operation (per item for round cases).
    let allocatedBytes: Double
    /// Net heap bytes per pending item, for round cases whose body marks its phases.
    let heapBytesPerItem: Double?
}

/// Everything measured in one run, by case id and library.
struct Results {
    private var storage: [String: [Library: Measurement]] = [:]

    subscript(caseID: String, library: Library) -> Measurement? {
        get { storage[caseID]?[library] }
        set { storage[caseID, default: [:]][library] = newValue }
    }
}
