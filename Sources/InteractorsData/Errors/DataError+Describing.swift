import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: Describing any error, safely

extension DataError {
    /// A readable text for any error, the same on every platform and safe to show or log: what a server, a screen
    /// or a log line may print.
    ///
    /// ```swift
    /// } catch {
    ///     logger.error("refresh failed: \(DataError.describe(error))")  // URLError.timedOut GET https://…/books
    /// }
    /// ```
    ///
    /// - A ``DataError`` or an ``HTTPError``: its own description (files by name, URLs without query values).
    /// - A `URLError`: its code's name and the URL it failed on, query values written `…`
    ///   (`URLError.timedOut http://api.example.com/v1/books?page=…`), where FoundationNetworking prints
    ///   `Error Domain=NSURLErrorDomain Code=-1001 "(null)"`.
    /// - Another Foundation error (`CocoaError`, `POSIXError`, an `NSError`): its domain, its code and its reason,
    ///   without its user info, which holds absolute paths (`NSCocoaErrorDomain 4: The file doesn’t exist.`).
    /// - Any other error: as Swift prints it.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let error as DataError: return error.description
        case let error as HTTPError: return error.description
        case let error as URLError: return describe(error)
        case let error as DecodingError: return "\(error)"
        case let error as EncodingError: return "\(error)"
        default: break
        }
        // A Foundation error; any other is a Swift error of the app's own, printed as it prints itself.
        guard error is CocoaError || error is POSIXError || type(of: error) is NSError.Type else { return "\(error)" }
        let error = error as NSError
        var reason = error.localizedFailureReason ?? error.localizedDescription
        for prefix in ["The operation could not be completed. ", "The operation couldn’t be completed. "]
        where reason.hasPrefix(prefix) {
            reason = String(reason.dropFirst(prefix.count))
        }
        return "\(error.domain) \(error.code): \(reason)"
    }

    private static func describe(_ error: URLError) -> String {
        var text = "URLError." + (urlErrorNames[error.code.rawValue] ?? "code\(error.code.rawValue)")
        if let url = error.failingURL { text += " \(RedactedURL(url))" }
        // A description the library set itself (too many redirects), not the platform's stock sentence.
        if let given = error.userInfo[NSLocalizedDescriptionKey] as? String { text += ": \(given)" }
        return text
    }

    /// The names of the `URLError` codes a network call meets, as Swift spells them.
    private static let urlErrorNames: [Int: String] = [
        URLError.Code.unknown.rawValue: "unknown",
        URLError.Code.cancelled.rawValue: "cancelled",
        URLError.Code.badURL.rawValue: "badURL",
        URLError.Code.timedOut.rawValue: "timedOut",
        URLError.Code.unsupportedURL.rawValue: "unsupportedURL",
        URLError.Code.cannotFindHost.rawValue: "cannotFindHost",
        URLError.Code.cannotConnectToHost.rawValue: "cannotConnectToHost",
        URLError.Code.networkConnectionLost.rawValue: "networkConnectionLost",
        URLError.Code.dnsLookupFailed.rawValue: "dnsLookupFailed",
        URLError.Code.httpTooManyRedirects.rawValue: "httpTooManyRedirects",
        URLError.Code.resourceUnavailable.rawValue: "resourceUnavailable",
        URLError.Code.notConnectedToInternet.rawValue: "notConnectedToInternet",
        URLError.Code.redirectToNonExistentLocation.rawValue: "redirectToNonExistentLocation",
        URLError.Code.badServerResponse.rawValue: "badServerResponse",
        URLError.Code.userCancelledAuthentication.rawValue: "userCancelledAuthentication",
        URLError.Code.userAuthenticationRequired.rawValue: "userAuthenticationRequired",
        URLError.Code.zeroByteResource.rawValue: "zeroByteResource",
        URLError.Code.cannotDecodeRawData.rawValue: "cannotDecodeRawData",
        URLError.Code.cannotDecodeContentData.rawValue: "cannotDecodeContentData",
        URLError.Code.cannotParseResponse.rawValue: "cannotParseResponse",
        URLError.Code.fileDoesNotExist.rawValue: "fileDoesNotExist",
        URLError.Code.noPermissionsToReadFile.rawValue: "noPermissionsToReadFile",
        URLError.Code.dataLengthExceedsMaximum.rawValue: "dataLengthExceedsMaximum",
        URLError.Code.secureConnectionFailed.rawValue: "secureConnectionFailed",
        URLError.Code.serverCertificateHasBadDate.rawValue: "serverCertificateHasBadDate",
        URLError.Code.serverCertificateUntrusted.rawValue: "serverCertificateUntrusted",
        URLError.Code.serverCertificateHasUnknownRoot.rawValue: "serverCertificateHasUnknownRoot",
        URLError.Code.serverCertificateNotYetValid.rawValue: "serverCertificateNotYetValid",
        URLError.Code.clientCertificateRejected.rawValue: "clientCertificateRejected",
        URLError.Code.clientCertificateRequired.rawValue: "clientCertificateRequired",
        URLError.Code.cannotLoadFromNetwork.rawValue: "cannotLoadFromNetwork",
        URLError.Code.internationalRoamingOff.rawValue: "internationalRoamingOff",
        URLError.Code.callIsActive.rawValue: "callIsActive",
        URLError.Code.dataNotAllowed.rawValue: "dataNotAllowed",
        URLError.Code.requestBodyStreamExhausted.rawValue: "requestBodyStreamExhausted",
        URLError.Code.backgroundSessionWasDisconnected.rawValue: "backgroundSessionWasDisconnected",
    ]
}
