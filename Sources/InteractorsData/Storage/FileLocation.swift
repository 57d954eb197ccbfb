import Foundation

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
        throw DataError(code: .storageFailed, message: "\(url.path) is a chain of more than 40 symbolic links")
    }

    /// Whether `name` is a temporary file a writer of `fileName` made: `<file name>.<unique>.tmp`, the unique
    /// part without a dot (so `notes.json.old.<unique>.tmp`, another file's, is not one).
    static func isTemporaryFile(_ name: String, of fileName: String) -> Bool {
        guard name.hasPrefix(fileName + "."), name.hasSuffix(".tmp") else { return false }
        let unique = name.dropFirst(fileName.count + 1).dropLast(".tmp".count)
        return !unique.isEmpty && !unique.contains(".")
    }

    /// Removes the temporary files a killed writer of `target` left. Called holding the lock, when no writer that
    /// takes it can be half-way.
    static func removeStaleTemporaryFiles(of target: URL) {
        let directory = target.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where isTemporaryFile(name, of: target.lastPathComponent) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
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
                message: "cannot move the corrupt \(target.path) aside to \(destination.lastPathComponent)",
                underlying: error
            )
        }
        return destination
    }
}
