import Interactors
import InteractorsData
import TestThreads
import Testing

/// `DataObservation`: its cancel action runs once, on `cancel()` or on release, and observations compare by
/// identity.
@Suite(.onThreadsOfTheirOwn) struct DataObservationTests {
    @Test func cancelRunsTheActionOnceAndReleasingAfterwardsRunsNothing() {
        let runs = LockedBox(0)
        do {
            let observation = DataObservation { runs.withLock { $0 += 1 } }
            #expect(!observation.isCancelled)
            observation.cancel()
            observation.cancel()
            #expect(observation.isCancelled)
        }
        #expect(runs.withLock { $0 } == 1)
    }

    @Test func releasingAnObservationCancelsIt() {
        let runs = LockedBox(0)
        do {
            _ = DataObservation { runs.withLock { $0 += 1 } }
        }
        #expect(runs.withLock { $0 } == 1)
    }

    @Test func observationsKeptInASetLiveUntilTheSetIsReleased() {
        let runs = LockedBox(0)
        do {
            var observations = Set<DataObservation>()
            DataObservation { runs.withLock { $0 += 1 } }.store(in: &observations)
            DataObservation { runs.withLock { $0 += 1 } }.store(in: &observations)
            #expect(observations.count == 2)
            #expect(runs.withLock { $0 } == 0)
        }
        #expect(runs.withLock { $0 } == 2)
    }
}
