import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a ``FileDataSource``'s data really is, and the files around it: the symbolic link it may be given is
/// followed to the file it names, and temporary or corrupt files go next to that file.
enum FileLocation {
    /// The file `url` names: `url` itself, or, if it is a symbolic link (relative or absolute, chained), the file
    /// at its end, which need not exist yet. A write then replaces that file and the link stays a link.
    static func resolve(_ url: URL) throws(DataError) -> URL {
        var path = url.path
        for _ in 0..<40 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else {
                return URL(fileURLWithPath: path)
            }
            path =
                destination.hasPrefix("/")
                ? destination
                : URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(destination).path
        }
        throw DataError(
            code: .storageFailed,
            message: "\(url.lastPathComponent) is a chain of more than 40 symbolic links",
            fileURL: url
        )
    }

    /// The last component of `path`: how messages name a file (its full path stays in ``DataError/fileURL``).
    static func name(_ path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent
    }

    /// A new temporary file for a write of `target`, next to it: `<file name>.<pid>-<random>.tmp`, so that the
    /// writer that made it can be told alive or gone (``removeStaleTemporaryFiles(of:)``).
    static func temporaryFile(for target: URL) -> URL {
        let random = (0..<16).map { _ in String(UInt8.random(in: 0...15), radix: 16) }.joined()
        return target.deletingLastPathComponent()
            .appendingPathComponent("\(target.lastPathComponent).\(getpid())-\(random).tmp")
    }

    /// Who made the temporary file `name` of the file `fileName`: a writer of this version (its process id), one
    /// of an earlier version (`<file name>.<UUID>.tmp`, written only under the exclusive lock), or nobody (any
    /// other name, a user's `notes.json.backup.tmp` among them: never touched).
    enum TemporaryFileMaker: Equatable {
        case process(pid_t)
        case earlierVersion
    }

    static func maker(ofTemporaryFile name: String, of fileName: String) -> TemporaryFileMaker? {
        guard name.hasPrefix(fileName + "."), name.hasSuffix(".tmp") else { return nil }
        let unique = name.dropFirst(fileName.count + 1).dropLast(".tmp".count)
        let parts = unique.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 2, let pid = pid_t(parts[0]), pid > 0, parts[1].count == 16,
            parts[1].allSatisfy({ $0.isHexDigit && !$0.isUppercase })
        {
            return .process(pid)
        }
        if UUID(uuidString: String(unique)) != nil, unique.count == 36 { return .earlierVersion }
        return nil
    }

    /// Removes the temporary files of `target` that are certainly stale: made by a process that is gone
    /// (`kill(pid, 0)` answers `ESRCH`), or older than an hour, or by an earlier version (which wrote them only
    /// under the exclusive lock). Called holding the exclusive lock: a live writer of this version may still be
    /// writing its own (on a file system where the lock did not hold), so those are left alone.
    static func removeStaleTemporaryFiles(of target: URL) {
        let directory = target.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names {
            guard let maker = maker(ofTemporaryFile: name, of: target.lastPathComponent) else { continue }
            let url = directory.appendingPathComponent(name)
            switch maker {
            case .earlierVersion:
                break
            case .process(let pid):
                let isGone = kill(pid, 0) != 0 && errno == ESRCH
                guard isGone || isOlderThanAnHour(url) else { continue }
            }
            try? FileManager.default.removeItem(at: url)
        }
    }

    private static func isOlderThanAnHour(_ url: URL) -> Bool {
        guard let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
        else { return false }
        return Date().timeIntervalSince(modified) > 3600
    }

    /// Renames the corrupt file at `target` to `<name>.corrupt-<timestamp>` next to it; the new URL.
    static func moveAside(_ target: URL) throws(DataError) -> URL {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stamp = formatter.string(from: Date())
        let directory = target.deletingLastPathComponent()
        var destination = directory.appendingPathComponent("\(target.lastPathComponent).corrupt-\(stamp)")
        var attempt = 1
        while FileManager.default.fileExists(atPath: destination.path) {
            attempt += 1
            destination = directory.appendingPathComponent("\(target.lastPathComponent).corrupt-\(stamp)-\(attempt)")
        }
        do {
            try FileManager.default.moveItem(at: target, to: destination)
        } catch {
            throw DataError(
                code: .storageFailed,
                message:
                    "cannot move the corrupt \(target.lastPathComponent) aside to \(destination.lastPathComponent)",
                underlying: error
            )
        }
        return destination
    }
}
