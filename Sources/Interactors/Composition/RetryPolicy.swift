/// What `Response.retry` was asked for: how many retries, how long to wait before each, which failures to retry,
/// and the clock to wait on, if any.
struct RetryPolicy: Sendable {
    /// How many retries at most, after the first attempt.
    let times: Int
    let delay: Duration
    let backoff: Double
    let maxDelay: Duration?
    let jitter: Double
    /// The clock the waits sleep on, and the retrying response's slot for its timer; `nil` for Dispatch's timers.
    let clock: (clock: any Clock<Duration>, timers: ClockTimerSlot)?
    /// Asked about each failure, other than a cancellation, while retries remain.
    let shouldRetry: @Sendable (any Error) -> Bool

    init(
        times: Int,
        delay: Duration,
        backoff: Double,
        maxDelay: Duration?,
        jitter: Double,
        clock: (clock: any Clock<Duration>, timers: ClockTimerSlot)?,
        shouldRetry: @escaping @Sendable (any Error) -> Bool
    ) {
        precondition(
            backoff >= 1,
            "Response.retry: backoff is \(backoff); it must be 1 or more (1 waits `delay` every time, 2 doubles it)"
        )
        precondition(
            (0...1).contains(jitter),
            "Response.retry: jitter is \(jitter); it must be in 0...1 (0.2 waits between 80% and 120% of the wait)"
        )
        self.times = times
        self.delay = delay
        self.backoff = backoff
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.clock = clock
        self.shouldRetry = shouldRetry
    }

    /// The wait before retry number `retry` (1 for the first retry): `delay × backoff^(retry−1)`, capped at
    /// `maxDelay`, times a random factor in `1 − jitter ... 1 + jitter` drawn now.
    func wait(beforeRetry retry: Int) -> Duration {
        var wait = Self.scale(delay, by: Self.power(backoff, retry - 1))
        if let maxDelay, wait > maxDelay { wait = maxDelay }
        if jitter > 0 { wait = Self.scale(wait, by: Double.random(in: (1 - jitter)...(1 + jitter))) }
        return wait
    }

    /// The longest wait: past it, `Duration`'s arithmetic would overflow (`backoff` compounds quickly: 2^100
    /// seconds). About 35,000 years.
    static let longestWait = Duration.seconds(Int64(1) << 40)

    /// `duration × factor`, exactly `duration` for a factor of 1, and at most ``longestWait``.
    static func scale(_ duration: Duration, by factor: Double) -> Duration {
        guard factor != 1, duration != .zero else { return duration }
        let (seconds, attoseconds) = duration.components
        let scaled = (Double(seconds) + Double(attoseconds) * 1e-18) * factor
        guard scaled.magnitude < Double(longestWait.components.seconds) else {
            return scaled < 0 ? .zero - longestWait : longestWait
        }
        return duration * factor
    }

    /// `base` to the power `exponent` (≥ 0), by squaring: the core imports no C library for `pow`, and a
    /// retry's exponent may be in the thousands.
    static func power(_ base: Double, _ exponent: Int) -> Double {
        var result = 1.0
        var base = base
        var exponent = exponent
        while exponent > 0 {
            if exponent & 1 == 1 { result *= base }
            base *= base
            exponent >>= 1
        }
        return result
    }
}
