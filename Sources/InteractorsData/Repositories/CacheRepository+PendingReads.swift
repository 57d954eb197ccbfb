import Foundation
public import Interactors

// MARK: Reads that show the pending writes
//
// With `pendingWrites: .keep`, every read but `.main` reads the store's pending writes first, answers as the sources
// do (the cache holds the pending writes already: a pending put's value, a pending delete's absence), then shows
// them on the answer: a pending put in place of the value the answer holds, in the lists it belongs to, a pending
// delete in none. A list the store keeps goes on naming an id with a pending delete (see `PendingWriteStore`), so
// that the repository tells which lists the delete changed and a delete the server refuses finds its place again.

extension CacheRepository {
    /// The one value `query` selects, from the sources `operation` names, with where it came from and when it was
    /// stored. With ``PendingWrites/keep`` (and any `operation` but ``RepositoryOperation/main``), a value with a
    /// pending put is that put's value, and one with a pending delete fails with ``DataError/Code/notFound``.
    public func fetch(_ query: any Query, operation: RepositoryOperation = .cacheSync) -> Response<Fetched<Value>> {
        guard let pendingStore, operation != .main else { return fetchFromSources(query, operation: operation) }
        return readingPendingWrites(pendingStore) { reader in
            if let id = (query as? IdQuery<Value.ID>)?.id, reader.pendingSnapshot?.write(of: id)?.isDeletion == true {
                return Response(error: reader.deletedError(query))  // nothing to ask: it is gone, for now
            }
            return reader.fetchFromSources(query, operation: operation).then { reader.showingPending($0, query) }
        }
    }

    /// Every value `query` selects, from the sources `operation` names, with where they came from and when they
    /// were stored. With ``PendingWrites/keep`` (and any `operation` but ``RepositoryOperation/main``), the
    /// pending writes are shown: a pending put's value in place of the one the list holds, appended to the list of
    /// ``AllObjectsQuery`` when it is not in it, in the lists of the ``IdsQuery``s that name it and of the
    /// ``FilterQuery``s it matches; a pending delete's value in none. Offline, with no list the cache can answer
    /// instead, the pending puts that belong to the list answer alone (origin
    /// ``Fetched/Origin-swift.enum/cacheAfterFailure(_:)``).
    public func fetchAll(
        _ query: any Query,
        operation: RepositoryOperation = .cacheSync
    ) -> Response<Fetched<[Value]>> {
        guard let pendingStore, operation != .main else { return fetchAllFromSources(query, operation: operation) }
        return readingPendingWrites(pendingStore) { reader in
            reader.fetchAllFromSources(query, operation: operation).then { result in
                guard let snapshot = reader.pendingSnapshot else { return Response(result: result) }
                switch result {
                case .success(let fetched):
                    return Response(value: snapshot.showing(on: fetched, query))
                case .failure(let error) where reader.fallback(error) && !HTTPClient.isCancellation(error):
                    // Offline with no list to stand in: the pending puts that belong to it are all there is to show.
                    let shown = snapshot.showing(
                        on: Fetched(value: [], origin: .cacheAfterFailure(error), storedAt: nil),
                        query
                    )
                    return shown.value.isEmpty ? Response(error: error) : Response(value: shown)
                case .failure(let error):
                    return Response(error: error)
                }
            }
        }
    }

    /// Reads the pending writes, then runs `read` on a copy of the repository that knows them. If they cannot be
    /// read, the failure is reported and `read` runs without them (the cache holds them already).
    private func readingPendingWrites<T: Sendable>(
        _ store: any PendingWriteStore<Value>,
        _ read: @escaping @Sendable (CacheRepository) -> Response<T>
    ) -> Response<T> {
        store.pendingWrites(after: nil, limit: nil).then { [self] pending in
            var reader = self
            switch pending {
            case .success(let writes):
                reader.pendingSnapshot = PendingSnapshot(writes)
            case .failure(let error):
                if HTTPClient.isCancellation(error) { return Response(error: error) }
                CacheFailureReport(onCacheFailure).report(error)
            }
            return read(reader)
        }
    }

    /// A cached list as a read answers it: nil unless the store holds every value it names, but those with a
    /// pending delete; pending if it names one of those.
    func answer(fromList list: CachedList<Value>, origin: Fetched<[Value]>.Origin) -> Fetched<[Value]>? {
        var namesPendingDelete = false
        if list.entries.count != list.ids.count {
            guard let pendingSnapshot else { return nil }
            let held = Set(list.entries.map { ExactID($0.value.id) })
            for id in list.ids where !held.contains(ExactID(id)) {
                guard pendingSnapshot.write(of: id)?.isDeletion == true else { return nil }
                namesPendingDelete = true
            }
        }
        return Fetched(
            value: list.entries.map(\.value),
            origin: origin,
            storedAt: list.storedAt,
            isPending: namesPendingDelete
        )
    }

    /// `result`, a read of one value, with its pending write shown.
    private func showingPending(
        _ result: Result<Fetched<Value>, any Error>,
        _ query: any Query
    ) -> Response<Fetched<Value>> {
        guard let pendingSnapshot else { return Response(result: result) }
        switch result {
        case .success(let fetched):
            guard let write = pendingSnapshot.write(of: fetched.value.id) else { return Response(value: fetched) }
            guard let value = write.value, (query as? FilterQuery<Value>)?.isIncluded(value) ?? true else {
                return Response(error: deletedError(query))
            }
            return Response(
                value: Fetched(value: value, origin: fetched.origin, storedAt: fetched.storedAt, isPending: true)
            )
        case .failure(let error):
            // The sources found nothing: a pending put is still there, unless the main source refused to answer.
            guard let id = (query as? IdQuery<Value.ID>)?.id, let value = pendingSnapshot.write(of: id)?.value,
                !HTTPClient.isCancellation(error)
            else { return Response(error: error) }
            if fallback(error) {
                return Response(
                    value: Fetched(value: value, origin: .cacheAfterFailure(error), storedAt: nil, isPending: true)
                )
            }
            guard error.isDataError(.notFound) || error.isDataError(.queryNotSupported) else {
                return Response(error: error)
            }
            return Response(value: Fetched(value: value, origin: .cache, storedAt: nil, isPending: true))
        }
    }

    /// The failure of a read of a value whose pending delete (or pending put that no longer matches) hides it.
    private func deletedError(_ query: any Query) -> DataError {
        DataError(
            code: .notFound,
            message: "nothing matches \(query) in CacheRepository<\(Value.self)>: a pending write removed it"
        )
    }
}

// MARK: - The pending writes a read shows

extension CacheRepository {
    /// The pending writes of the store, as read before a read, by id.
    struct PendingSnapshot: Sendable {
        let writes: [PendingWrite<Value>]
        private let byID: [ExactID<Value.ID>: Int]

        init(_ writes: [PendingWrite<Value>]) {
            self.writes = writes
            var byID: [ExactID<Value.ID>: Int] = [:]
            for (place, write) in writes.enumerated() { byID[ExactID(write.id)] = place }
            self.byID = byID
        }

        func write(of id: Value.ID) -> PendingWrite<Value>? {
            byID[ExactID(id)].map { writes[$0] }
        }

        /// `fetched`, a list `query` selects, with the pending writes shown.
        func showing(on fetched: Fetched<[Value]>, _ query: any Query) -> Fetched<[Value]> {
            guard !writes.isEmpty else { return fetched }
            let filter = query as? FilterQuery<Value>
            var values: [Value] = []
            values.reserveCapacity(fetched.value.count)
            var seen = Set<ExactID<Value.ID>>()
            var changed = false
            for value in fetched.value {
                seen.insert(ExactID(value.id))
                guard let write = write(of: value.id) else {
                    values.append(value)
                    continue
                }
                changed = true
                if let put = write.value, filter?.isIncluded(put) ?? true { values.append(put) }
            }
            let missing = writes.compactMap { write in seen.contains(ExactID(write.id)) ? nil : write.value }
            if query is AllObjectsQuery {
                values += missing
                changed = true  // every pending write changes the list of everything
            } else if let filter {
                let matching = missing.filter(filter.isIncluded)
                values += matching
                changed = changed || !matching.isEmpty
            } else if let named = (query as? IdsQuery<Value.ID>)?.ids ?? (query as? IdQuery<Value.ID>).map({ [$0.id] })
            {
                let names = Set(named.map(ExactID.init))
                // A list of ids that names one with a pending write shows it, or its absence.
                changed = changed || writes.contains { names.contains(ExactID($0.id)) }
                let joining = missing.filter { names.contains(ExactID($0.id)) }
                if !joining.isEmpty {
                    // In the query's order, as the source answers an IdsQuery.
                    var byID: [ExactID<Value.ID>: Value] = [:]
                    for value in values + joining { byID[ExactID(value.id)] = value }
                    values = named.compactMap { byID[ExactID($0)] }
                    changed = true
                }
            }
            return Fetched(
                value: values,
                origin: fetched.origin,
                storedAt: fetched.storedAt,
                isPending: fetched.isPending || changed
            )
        }
    }
}
