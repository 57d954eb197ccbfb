/// The columns of the table: our `Response`, each peer, and raw Dispatch for the floors.
enum Library: CaseIterable, Hashable {
    case response
    case nio
    case openCombine
    case concurrency
    case mutexFuture
    case rawDispatch

    var title: String {
        switch self {
        case .response: "Response"
        case .nio: "SwiftNIO"
        case .openCombine: "OpenCombine"
        case .concurrency: "Concurrency"
        case .mutexFuture: "Mutex future"
        case .rawDispatch: "Raw Dispatch"
        }
    }

    /// The peers `Response` is divided by in the ratio columns.
    static let ratioPeers: [Library] = [.nio, .openCombine, .concurrency, .mutexFuture]
}
