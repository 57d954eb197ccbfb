import Foundation

// MARK: The server's word on how long to wait (RFC 9110 §10.2.3)

extension HTTPRetryPolicy {
    /// The wait `error`'s `Retry-After` asks for, if it is a 429 or a 503 with a readable one: a number of seconds,
    /// or an HTTP date (the time until it, zero if it is past).
    static func retryAfter(_ error: any Error) -> Duration? {
        guard let error = error as? HTTPError, error.status == 429 || error.status == 503,
            let field = error.headers["Retry-After"]?.trimmingCharacters(in: .whitespaces), !field.isEmpty
        else { return nil }
        if field.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // More digits than an Int64 holds is longer than any cap: the longest wait.
            return Int64(field).map { min(.seconds($0), longestWait) } ?? longestWait
        }
        guard let date = httpDate(field) else { return nil }
        let seconds = date.timeIntervalSinceNow
        return seconds > 0 ? min(.seconds(seconds), longestWait) : .zero
    }

    /// `text` read as an HTTP date: the preferred IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), or the obsolete
    /// RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) forms, which RFC 9110
    /// §5.6.7 says a recipient must accept too.
    static func httpDate(_ text: String) -> Date? {
        let collapsed = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        // A two-digit year more than 50 years ahead is the last past year that ends so (RFC 9110 §5.6.7).
        formatter.twoDigitStartDate = Date(timeIntervalSinceNow: -50 * 365.25 * 24 * 3600)
        for format in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: collapsed) { return date }
        }
        return nil
    }
}
