// Foundation's Process, which starts this, exists on macOS and Linux only.
#if os(macOS) || os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DataTestSupport
import Dispatch
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite

/// A disk that fills up under the database, one of two ways:
///   fsize <bytes>   the process may not write past that size in any file (`setrlimit(RLIMIT_FSIZE)`): SQLite's
///                   write fails with EFBIG, and SQLite answers SQLITE_IOERR_WRITE;
///   pages <count>   the writer's connection may not grow the database past that many pages more than it has
///                   (`PRAGMA max_page_count`, per connection): SQLite answers SQLITE_FULL.
/// Either way SQLite rolls back the whole transaction of the write that meets it.
enum DiskLimit {
    case fileSize(Int)
    case pages(Int)

    init?(_ kind: String, _ amount: String) {
        guard let amount = Int(amount) else { return nil }
        switch kind {
        case "fsize": self = .fileSize(amount)
        case "pages": self = .pages(amount)
        default: return nil
        }
    }

    /// Applies the limit to this process, or to `database`'s writer.
    func apply(to database: SQLiteDatabase) throws {
        switch self {
        case .fileSize(let bytes):
            // Past the limit the kernel sends SIGXFSZ, which would kill the process; ignored, the write fails.
            signal(SIGXFSZ, SIG_IGN)
            var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
            #if os(Linux)
            guard setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0 else {
                throw DataError(code: .storageFailed, message: "setrlimit failed: \(errno)")
            }
            #else
            guard setrlimit(RLIMIT_FSIZE, &limit) == 0 else {
                throw DataError(code: .storageFailed, message: "setrlimit failed: \(errno)")
            }
            #endif
        case .pages(let pages):
            try database.limitPagesForTesting(grantingMore: pages)
        }
    }
}

/// Notes of about 3 KB each, enough to fill any limit the tests set.
func bulkyNote(_ id: String) -> Note {
    Note(id: id, text: String(repeating: "x", count: 3_000))
}

/// Prints how `response` ended: "<label> ok", or "<label> error <code>: <message>".
func report<T>(_ label: String, _ response: Response<T>) {
    if let error = response.dataError {
        say("\(label) error \(error.code): \(error.message)")
    } else if let error = response.error {
        say("\(label) error \(error)")
    } else {
        say("\(label) ok")
    }
}

/// fill: one write body puts bulky notes until a put fails, catches that, then puts "after" (printing how each
/// ended), and returns: the write must fail, and nothing of it be committed.
func fillInOneBody(_ notes: SQLiteDataSource<Note>, _ database: SQLiteDatabase) {
    let response = database.write { transaction in
        var index = 0
        while true {
            do {
                try transaction.put(bulkyNote("bulky-\(index)"), in: notes)
                index += 1
            } catch {
                say("failed after \(index) puts: \((error as? DataError)?.message ?? "\(error)")")
                break
            }
        }
        do {
            try transaction.put(Note(id: "after", text: "put after the failure"), in: notes)
            say("after ok")
        } catch {
            say("after error \((error as? DataError)?.code.description ?? "?"): \(error)")
        }
    }
    report("write", response)
}

/// group: three writes queued while the writer is held, so that they share a transaction: a small put, a putAll
/// too big for what is left, another small put. Each prints how it ended.
func fillInAGroup(_ notes: SQLiteDataSource<Note>, _ database: SQLiteDatabase) {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let held = database.write { _ in
        entered.signal()
        release.wait()
    }
    entered.wait()
    let first = notes.put(Note(id: "small-1", text: "fits"))
    let big = notes.putAll((0..<2_000).map { bulkyNote("big-\($0)") })
    let last = notes.put(Note(id: "small-2", text: "fits too"))
    release.signal()
    report("held", held)
    report("small-1", first)
    report("big", big)
    report("small-2", last)
}
#endif
