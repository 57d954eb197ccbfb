import InteractorsData

// MARK: Committing

extension SQLiteWriter {
    /// How a group of writes ended.
    enum Attempt {
        /// Committed: each write's outcome (a write that failed alone was rolled back to its savepoint).
        case committed([WriteOutcome])
        /// Nothing of it was applied. `retriesAlone`: the transaction was lost once writes had run in it (SQLite
        /// rolled it back by itself, or the commit failed), so each write may still commit on its own.
        case failed(DataError, retriesAlone: Bool)
    }

    /// Applies every queued write, in order, in one transaction, and tells the observers; answers how to answer
    /// each write, once the job has ended.
    ///
    /// One write's failure is its own: when the transaction fails as a whole (a full disk, an I/O error), each
    /// write is committed again alone, so the others still commit and each caller hears its own outcome.
    func commitPending() -> (@Sendable () -> Void)? {
        let writes = takePending()
        guard !writes.isEmpty else { return nil }
        var attempts = [(writes, commitTogether(writes))]
        if case .failed(_, retriesAlone: true) = attempts[0].1, writes.count > 1 {
            attempts = writes.map { ([$0], commitTogether([$0])) }
        }
        // The writes (whose bodies hold their sources, and they their database) are released when this returns,
        // before anyone is answered.
        let answers: [@Sendable () -> Void] = attempts.flatMap { writes, attempt -> [@Sendable () -> Void] in
            switch attempt {
            case .committed(let outcomes):
                return outcomes.map(\.answer)
            case .failed(let error, _):
                return writes.map { write in { write.fail(error) } }
            }
        }
        return { for answer in answers { answer() } }
    }

    /// Commits `writes` in one transaction and tells the observers of the tables they changed. Before answering,
    /// checks that the file is still the one at the path: a group committed into a file this database moved aside
    /// meanwhile runs again on the fresh one, and one committed into a file moved or deleted behind its back fails.
    private func commitTogether(_ writes: [QueuedWrite]) -> Attempt {
        var movedAside = false
        var ranAgain = false
        while true {
            do throws(DataError) {
                try prepareConnection()
            } catch {
                return .failed(error, retriesAlone: false)
            }
            switch runTransaction(writes) {
            case .failed(let error, let retriesAlone):
                guard let corruption = error.corruption, let file, file.ifCorrupt == .moveAside, !movedAside else {
                    return .failed(error, retriesAlone: retriesAlone)
                }
                movedAside = true
                do throws(DataError) {
                    try file.moveAside(seenIn: generation, corruption)
                } catch {
                    return .failed(error, retriesAlone: false)
                }
            case .committed(let outcomes, let changedTables):
                switch file?.standing(of: connection, openedIn: generation) ?? .current {
                case .current:
                    observers.tablesChanged(changedTables)
                    return .committed(outcomes)
                case .stale where !ranAgain:
                    ranAgain = true
                case .stale:
                    let error = DataError.misuse("\(connection.location) was moved aside twice during one write")
                    return .failed(error, retriesAlone: false)
                case .lost(let error):
                    foldLogIntoMovedFile()
                    return .failed(error, retriesAlone: false)
                }
            }
        }
    }

    /// One transaction's result.
    private enum TransactionResult {
        case committed([WriteOutcome], changedTables: Set<String>)
        case failed(DataError, retriesAlone: Bool)
    }

    /// Runs `writes` in one immediate transaction, each in a savepoint of its own (the transaction itself when it
    /// is the only write), and commits what succeeded.
    private func runTransaction(_ writes: [QueuedWrite]) -> TransactionResult {
        lostTransaction = nil
        do throws(DataError) {
            try connection.run("BEGIN IMMEDIATE")
        } catch {
            return .failed(error, retriesAlone: false)
        }
        var outcomes: [WriteOutcome] = []
        var changedTables: Set<String> = []
        for write in writes {
            do throws(DataError) {
                outcomes.append(try apply(write, alone: writes.count == 1, changedTables: &changedTables))
            } catch {
                rollBack()
                return .failed(error, retriesAlone: true)
            }
        }
        guard connection.isInTransaction else { return .committed(outcomes, changedTables: changedTables) }
        do throws(DataError) {
            try connection.run("COMMIT")
            return .committed(outcomes, changedTables: changedTables)
        } catch {
            rollBack()
            return .failed(error, retriesAlone: true)
        }
    }

    /// Runs one write inside a savepoint (the transaction itself when it is the only write): kept if it
    /// succeeded (its tables added to `changedTables`), rolled back if it failed. Throws if the transaction itself
    /// was lost (SQLite rolled it back by itself), or if the write met a damaged file.
    private func apply(
        _ write: QueuedWrite,
        alone: Bool,
        changedTables: inout Set<String>
    ) throws(DataError)
        -> WriteOutcome
    {
        if !alone { try connection.run("SAVEPOINT write") }
        let transaction = SQLiteTransaction(writer: self)
        isRunningBody = true
        let outcome = write.run(transaction)
        isRunningBody = false
        transaction.close()
        if let lost = lostTransaction { throw lost }
        guard connection.isInTransaction else {
            throw transaction.firstFailure ?? .misuse("SQLite rolled back the transaction of \(connection.location)")
        }
        if let failure = transaction.firstFailure, failure.corruption != nil { throw failure }
        if outcome.succeeded {
            if !alone { try connection.run("RELEASE write") }
            changedTables.formUnion(transaction.changedTables)
        } else if alone {
            try connection.run("ROLLBACK")
        } else {
            try connection.run("ROLLBACK TO write")
            try connection.run("RELEASE write")
        }
        return outcome
    }

    /// Rolls back what is left of the open transaction, if anything.
    private func rollBack() {
        if connection.isInTransaction { try? connection.run("ROLLBACK") }
    }
}
