public import Interactors

// The default CRUD interactors are `Interactor`s through their one-argument `execute(_:)`, which uses the
// default repository operation: they can be type-erased, registered with a request type on an
// `InteractorExecutor`, or replaced by an `InteractorSpy` in tests.

extension GetInteractor: Interactor {}
extension GetAllInteractor: Interactor {}
extension PutInteractor: Interactor {}
extension PutAllInteractor: Interactor {}
extension DeleteInteractor: Interactor {}
extension DeleteAllInteractor: Interactor {}
