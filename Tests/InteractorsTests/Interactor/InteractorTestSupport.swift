import Dispatch
import Interactors

/// A request for a greeting.
struct GreetRequest: InteractorRequest {
    typealias Output = String
    var name: String
}

/// A request to double a number.
struct DoubleRequest: InteractorRequest {
    typealias Output = Int
    var number: Int
}

/// A request to count characters.
struct CountRequest: InteractorRequest {
    typealias Output = Int
    var text: String
}

/// Greets on the queue it was given, recording every request it executes.
struct GreetInteractor: Interactor {
    var queue: any CallbackQueue = ImmediateCallbackQueue.shared
    var received = Recorder<String>()

    func execute(_ request: GreetRequest) -> Response<String> {
        received.record(request.name)
        return Response(on: queue) { "hello, \(request.name)" }
    }
}

/// Doubles on the queue it was given.
struct DoubleInteractor: Interactor {
    var queue: any CallbackQueue = ImmediateCallbackQueue.shared

    func execute(_ request: DoubleRequest) -> Response<Int> {
        Response(on: queue) { request.number * 2 }
    }
}

/// Counts characters, at once.
struct CountInteractor: Interactor {
    func execute(_ request: CountRequest) -> Response<Int> {
        Response(value: request.text.count)
    }
}
