import Interactors
import InteractorsData

extension InteractorExecutor {
    /// Registers the four CRUD interactors of the routes (`GetRequest<Book>`, `GetAllRequest<Book>`,
    /// `PutRequest<Book>`, `DeleteRequest<Book>`) over a `SingleSourceRepository` of `books`, whichever store it is.
    ///
    /// On `.immediate`: the use case starts its repository call on the request's own thread; both stores run the
    /// work itself elsewhere (SQLite's reads and its writer on threads of their own, PostgreSQL's calls in a task),
    /// so another queue would only add a hop.
    func registerBookInteractors(over books: some DataSource<Book>) {
        let repository = SingleSourceRepository(books)
        register(GetInteractor(repository: repository, queue: .immediate))
        register(GetAllInteractor(repository: repository, queue: .immediate))
        register(PutInteractor(repository: repository, queue: .immediate))
        register(DeleteInteractor(repository: repository, queue: .immediate))
    }

    /// Unregisters what ``registerBookInteractors(over:)`` registered: requests fail with
    /// `UnregisteredRequestError` (a 503) from then on.
    func unregisterBookInteractors() {
        unregister(GetRequest<Book>.self)
        unregister(GetAllRequest<Book>.self)
        unregister(PutRequest<Book>.self)
        unregister(DeleteRequest<Book>.self)
    }
}
