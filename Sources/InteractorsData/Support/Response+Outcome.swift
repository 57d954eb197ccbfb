import Interactors

// MARK: Continuing on either outcome

extension Response {
    /// A response that continues with what `next` returns for this one's outcome, success or failure: the
    /// repositories' way to say "if that failed, try this" without catching the failures of "this".
    func then<Next: Sendable>(
        _ next: @escaping @Sendable (Result<Value, any Error>) -> Response<Next>
    ) -> Response<Next> {
        map { Result<Value, any Error>.success($0) }
            .recover { .failure($0) }
            .flatMap { next($0) }
    }
}

extension Error {
    /// Whether this is a ``DataError`` with `code`.
    func isDataError(_ code: DataError.Code) -> Bool {
        (self as? DataError)?.code == code
    }
}
