import Foundation
import Interactors

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of the client's own session: hands each task's events to its ``Transfer``.
///
/// A session-wide delegate, because FoundationNetworking gives a task's own delegate (`task.delegate`) the body's
/// bytes only when the session has no delegate of its own and the task no completion handler, and then gives it
/// nothing at all: the bytes of a 401 with a challenge, and every byte the watchdog counts, come through here.
final class SessionEvents: NSObject, URLSessionDataDelegate, Sendable {
    private let transfers = LockedBox([Int: Transfer]())

    /// Sends the events of `task` to `transfer` until the task completes. Call it before the task resumes.
    func register(_ transfer: Transfer, for task: URLSessionTask) {
        transfers.withLock { $0[task.taskIdentifier] = transfer }
    }

    private func transfer(of task: URLSessionTask) -> Transfer? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let transfer = transfer(of: task) else { return completionHandler(nil) }
        transfer.urlSession(
            session,
            task: task,
            willPerformHTTPRedirection: response,
            newRequest: request,
            completionHandler: completionHandler
        )
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let transfer = transfer(of: task) else { return completionHandler(.cancelAuthenticationChallenge, nil) }
        transfer.urlSession(session, task: task, didReceive: challenge, completionHandler: completionHandler)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let transfer = transfer(of: dataTask) else { return completionHandler(.cancel) }
        transfer.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(of: dataTask)?.urlSession(session, dataTask: dataTask, didReceive: data)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        transfer(of: task)?.urlSession(
            session,
            task: task,
            didSendBodyData: bytesSent,
            totalBytesSent: totalBytesSent,
            totalBytesExpectedToSend: totalBytesExpectedToSend
        )
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        transfer?.urlSession(session, task: task, didCompleteWithError: error)
    }
}
