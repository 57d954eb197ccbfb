import Interactors
import InteractorsPresentation
import TestThreads
import Testing

// Two use cases with action types of their own, served by one screen's presenter through `map`.

private enum ProfileAction: Sendable {
    case loaded(String)
}

private enum CartAction: Sendable {
    case added(Int)
}

private enum ScreenAction: Sendable {
    case profile(ProfileAction)
    case cart(CartAction)
}

private struct Screen: Sendable, Equatable {
    var name = ""
    var items: [Int] = []
}

private struct ScreenTranslator: Translator {
    func translate(_ action: ScreenAction, state: inout Screen) {
        switch action {
        case .profile(.loaded(let name)): state.name = name
        case .cart(.added(let item)): state.items.append(item)
        }
    }
}

private struct ProfileInteractor {
    let dispatcher: AnyDispatcher<ProfileAction>

    func load() -> Response<String> {
        Response(value: "ada").dispatch(to: dispatcher) { .loaded((try? $0.get()) ?? "?") }
    }
}

private struct CartInteractor {
    let dispatcher: AnyDispatcher<CartAction>

    func add(_ item: Int) {
        dispatcher.dispatch(.added(item))
    }
}

@Suite(.onThreadsOfTheirOwn) struct PresenterCompositionTests {
    @Test func onePresenterServesTwoInteractorsWithDifferentActionTypes() {
        let presenter = Presenter(
            store: Store(Screen(), queue: .immediate),
            translator: ScreenTranslator(),
            queue: .immediate
        )
        let screen = presenter.asDispatcher()
        let profile = ProfileInteractor(dispatcher: screen.map { .profile($0) })
        let cart = CartInteractor(dispatcher: screen.map { .cart($0) })
        cart.add(1)
        _ = profile.load()
        cart.add(2)
        #expect(presenter.store.state == Screen(name: "ada", items: [1, 2]))
    }
}
