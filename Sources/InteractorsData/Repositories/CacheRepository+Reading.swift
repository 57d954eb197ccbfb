import Foundation
import Interactors

// MARK: Reading, with where the answer came from

extension CacheRepository {
    /// `fetch` as the sources answer it, before the pending writes are shown (CacheRepository+PendingReads.swift).
    func fetchFromSources(_ query: any Query, operation: RepositoryOperation) -> Response<Fetched<Value>> {
        let report = CacheFailureReport(onCacheFailure)
        switch operation {
        case .main:
            return main.get(query).map { Fetched(value: $0, origin: .main, storedAt: nil) }
        case .cache:
            guard let id = (query as? IdQuery<Value.ID>)?.id else {
                return cache.get(query).map { Fetched(value: $0, origin: .cache, storedAt: nil) }
            }
            return cache.cachedEntries([id]).flatMap { [cache] entries in
                guard let entry = entries.first else {  // the source's own answer: notFound, as it words it
                    return cache.get(query).map { Fetched(value: $0, origin: .cache, storedAt: nil) }
                }
                return Response(value: Fetched(value: entry.value, origin: .cache, storedAt: entry.storedAt))
            }
        case .mainSync:
            return getFromMain(query, report)
        case .cacheSync:
            guard let id = (query as? IdQuery<Value.ID>)?.id else { return getFromMain(query, report) }
            return cache.cachedEntries([id]).then { [self] cached in
                switch cached {
                case .success(let entries):
                    if let entry = entries.first, isFresh(entry) {
                        return Response(value: Fetched(value: entry.value, origin: .cache, storedAt: entry.storedAt))
                    }
                case .failure(let error):
                    if !Self.isCacheMiss(error) { report.report(error) }  // an unreadable cache is a miss
                }
                return getFromMain(query, report)
            }
        }
    }

    /// `fetchAll` as the sources answer it, before the pending writes are shown (CacheRepository+PendingReads.swift).
    func fetchAllFromSources(_ query: any Query, operation: RepositoryOperation) -> Response<Fetched<[Value]>> {
        let report = CacheFailureReport(onCacheFailure)
        switch operation {
        case .main:
            return main.getAll(query).map { Fetched(value: $0, origin: .main, storedAt: nil) }
        case .cache:
            return cache.getAll(query).map { Fetched(value: $0, origin: .cache, storedAt: nil) }
        case .mainSync:
            return getAllFromMain(query, report)
        case .cacheSync:
            guard let key = (query as? any CacheKeyQuery)?.cacheKey else { return getAllFromMain(query, report) }
            return cache.cachedList(forKey: key).then { [self] cached in
                switch cached {
                case .success(let list?):
                    if isYoung(list.storedAt), list.entries.allSatisfy(isFresh),
                        let fetched = answer(fromList: list, origin: .cache)
                    {
                        return Response(value: fetched)
                    }
                case .success(nil):
                    break
                case .failure(let error):
                    if !Self.isCacheMiss(error) { report.report(error) }
                }
                return getAllFromMain(query, report)
            }
        }
    }

    // MARK: From the main source

    /// When a read of the main source was sent, and where the cache was in its order of writes just before: what
    /// the cache keeps of the answer is applied as of then, so that no write made since is undone, and is as old
    /// as the read.
    struct ReadStamp: Sendable {
        let position: CacheWritePosition?
        let sentAt: Date

        func change(
            removal: CacheChange<Value>.Removal = .nothing,
            values: [Value] = [],
            listKey: String? = nil
        ) -> CacheChange<Value> {
            CacheChange(date: sentAt, removal: removal, values: values, listKey: listKey, readPosition: position)
        }
    }

    /// Reads the cache's position, then stamps the read about to be sent. Nil if the cache could not say (its
    /// failure is reported): the answer is then not kept, since it could undo a write.
    private func stampRead(_ report: CacheFailureReport) -> Response<ReadStamp?> {
        cache.writePosition().then { result in
            switch result {
            case .success(let position):
                return Response(value: ReadStamp(position: position, sentAt: Date()))
            case .failure(let error):
                if HTTPClient.isCancellation(error) { return Response(error: error) }
                report.report(error)
                return Response(value: nil)
            }
        }
    }

    /// `.mainSync` reads, and `.cacheSync` misses: the main source, stored in the cache; the cache when the main
    /// source cannot answer the query, or is unavailable. A read of an id already under way is joined, and the
    /// cache's value answers once `answerFromCacheAfter` has passed.
    private func getFromMain(_ query: any Query, _ report: CacheFailureReport) -> Response<Fetched<Value>> {
        let id = (query as? IdQuery<Value.ID>)?.id
        let cached = id.map { id in
            { @Sendable [cache] () -> Response<Fetched<Value>?> in
                cache.cachedEntries([id]).map { entries in
                    entries.first.map { Fetched(value: $0.value, origin: .cacheWhileRefreshing, storedAt: $0.storedAt) }
                }
            }
        }
        return shared(valueReads, id.map(ReadKey.id), cachedAnswer: cached) { [self] in
            stampRead(report).flatMap { [self] stamp in getFromMain(query, stamp, report) }
        }
    }

    private func getFromMain(
        _ query: any Query,
        _ stamp: ReadStamp?,
        _ report: CacheFailureReport
    ) -> Response<Fetched<Value>> {
        let id = (query as? IdQuery<Value.ID>)?.id
        return main.get(query).then { [self] fetched in
            switch fetched {
            case .success(let value):
                let answer = Fetched(value: value, origin: .main, storedAt: nil)
                return store(stamp?.change(values: [value]), report).map { answer }
            case .failure(let error) where error.isDataError(.notFound):
                // The main source's word: the value is gone, from the cache too.
                guard let id else { return Response(error: error) }
                return store(stamp?.change(removal: .ids([id])), report).map { throw error }
            case .failure(let error) where error.isDataError(.queryNotSupported):
                return cachedValue(for: query, id: id, origin: .cache, report, otherwise: error)
            case .failure(let error) where fallback(error):
                return cachedValue(for: query, id: id, origin: .cacheAfterFailure(error), report, otherwise: error)
            case .failure(let error):
                return Response(error: error)
            }
        }
    }

    private func getAllFromMain(_ query: any Query, _ report: CacheFailureReport) -> Response<Fetched<[Value]>> {
        let keyed = query as? any CacheKeyQuery
        let cached = keyed.map { query in
            { @Sendable [cache] () -> Response<Fetched<[Value]>?> in
                cache.cachedList(forKey: query.cacheKey).map { list in
                    guard let list, list.entries.count == list.ids.count else { return nil }
                    return Fetched(
                        value: list.entries.map(\.value),
                        origin: .cacheWhileRefreshing,
                        storedAt: list.storedAt
                    )
                }
            }
        }
        return shared(listReads, keyed.map(ReadKey.list), cachedAnswer: cached) { [self] in
            stampRead(report).flatMap { [self] stamp in getAllFromMain(query, stamp, report) }
        }
    }

    /// The answer of a read of the main source that `read` makes: joined if one with the same `key` is under way,
    /// and answered by `cachedAnswer` instead if it finds something once `answerFromCacheAfter` has passed and the
    /// read has not answered (the read goes on then, and keeps its answer in the cache).
    private func shared<T: Sendable>(
        _ reads: SharedReads<Fetched<T>>,
        _ key: ReadKey?,
        cachedAnswer: (@Sendable () -> Response<Fetched<T>?>)?,
        _ read: @escaping @Sendable () -> Response<Fetched<T>>
    ) -> Response<Fetched<T>> {
        let (answer, ticket) = reads.read(key, read)
        guard let deadline = answerFromCacheAfter, let cachedAnswer, !answer.isDone else { return answer }
        let standIn = Response(value: ()).delay(by: deadline).flatMap { cachedAnswer() }
        standIn.onCompletion(on: .immediate) { found in
            if let found { reads.answerEarly(ticket, with: found) }
        }
        answer.onResult(on: .immediate) { _ in standIn.cancel() }
        return answer
    }

    private func getAllFromMain(
        _ query: any Query,
        _ stamp: ReadStamp?,
        _ report: CacheFailureReport
    ) -> Response<Fetched<[Value]>> {
        let key = (query as? any CacheKeyQuery)?.cacheKey
        return main.getAll(query).then { [self] fetched in
            switch fetched {
            case .success(let values):
                let answer = Fetched(value: values, origin: .main, storedAt: nil)
                return store(stamp.map { refresh(query, key: key, with: values, $0) }, report).map { answer }
            case .failure(let error) where error.isDataError(.queryNotSupported) && key == nil:
                return cache.getAll(query).then { [self] cached in
                    switch cached {
                    case .success(let values): return answer(values, origin: .cache)
                    case .failure(let cacheError):
                        report.report(cacheError)
                        return Response(error: error)
                    }
                }
            case .failure(let error) where fallback(error):
                return cachedValues(for: query, key: key, after: error, report)
            case .failure(let error):
                return Response(error: error)
            }
        }
    }

    /// What the cache stores after the main source answered `values` to `query`, sent as `stamp` says.
    private func refresh(
        _ query: any Query,
        key: String?,
        with values: [Value],
        _ stamp: ReadStamp
    ) -> CacheChange<Value> {
        guard let key else { return stamp.change(values: values) }
        var removal = CacheChange<Value>.Removal.nothing
        if query is AllObjectsQuery {
            removal = .allOthers  // everything the main source no longer has
        } else if let asked = (query as? IdsQuery<Value.ID>)?.ids ?? (query as? IdQuery<Value.ID>).map({ [$0.id] }) {
            let answered = Set(values.map { ExactID($0.id) })
            let gone = asked.filter { !answered.contains(ExactID($0)) }
            if !gone.isEmpty { removal = .ids(gone) }
        }
        return stamp.change(removal: removal, values: values, listKey: key)
    }

    // MARK: From the cache, in the main source's place

    private func cachedValue(
        for query: any Query,
        id: Value.ID?,
        origin: Fetched<Value>.Origin,
        _ report: CacheFailureReport,
        otherwise error: any Error
    ) -> Response<Fetched<Value>> {
        let lookup: Response<Fetched<Value>?>
        if let id {
            lookup = cache.cachedEntries([id]).map { entries in
                entries.first.map { Fetched(value: $0.value, origin: origin, storedAt: $0.storedAt) }
            }
        } else {
            lookup = cache.get(query).map { Fetched(value: $0, origin: origin, storedAt: nil) }
        }
        return standIn(lookup, otherwise: error, report)
    }

    private func cachedValues(
        for query: any Query,
        key: String?,
        after error: any Error,
        _ report: CacheFailureReport
    ) -> Response<Fetched<[Value]>> {
        let lookup: Response<Fetched<[Value]>?>
        if let key {
            lookup = cache.cachedList(forKey: key).map { [self] list in
                list.flatMap { answer(fromList: $0, origin: .cacheAfterFailure(error)) }
            }
        } else {
            lookup = cache.getAll(query).flatMap { [self] values in
                values.isEmpty ? Response(value: nil) : answer(values, origin: .cacheAfterFailure(error)).map { $0 }
            }
        }
        return standIn(lookup, otherwise: error, report)
    }

    /// What the cache found in the main source's place; the main source's `error` if it found nothing or failed
    /// (a failure other than a miss is reported).
    private func standIn<T>(
        _ lookup: Response<Fetched<T>?>,
        otherwise error: any Error,
        _ report: CacheFailureReport
    ) -> Response<Fetched<T>> {
        lookup.then { found in
            switch found {
            case .success(let fetched?):
                return Response(value: fetched)
            case .success(nil):
                return Response(error: error)
            case .failure(let cacheError):
                if !Self.isCacheMiss(cacheError) { report.report(cacheError) }
                return Response(error: error)
            }
        }
    }

    /// `values` from the cache, with the oldest of their stored-at times (nil if one is unknown).
    private func answer(_ values: [Value], origin: Fetched<[Value]>.Origin) -> Response<Fetched<[Value]>> {
        cache.cachedEntries(values.map(\.id)).map { entries in
            let times = entries.map(\.storedAt)
            let storedAt = times.count == values.count && !times.contains(nil) ? times.compactMap { $0 }.min() : nil
            return Fetched(value: values, origin: origin, storedAt: storedAt)
        }.recover { _ in Fetched(value: values, origin: origin, storedAt: nil) }
    }

    // MARK: Storing

    /// Applies `change` to the cache (nothing for nil); a failure is reported, never the operation's: the main
    /// source's answer stands.
    func store(_ change: CacheChange<Value>?, _ report: CacheFailureReport) -> Response<Void> {
        guard let change else { return Response(value: ()) }
        return cache.applyCacheChange(change).recover { error in
            if HTTPClient.isCancellation(error) { throw error }
            report.report(error)
        }
    }
}
