import Foundation

/// What tells one version of a file from another without reading it.
struct FileIdentity: Equatable {
    let inode: UInt64
    let size: UInt64
    let modified: Date

    /// The file's identity; `nil` if there is no file. A file that exists but cannot be examined is an error, not
    /// an empty collection: treating it as empty would overwrite it on the next write.
    init?(_ url: URL) throws(DataError) {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw DataError(
                code: .storageFailed,
                message: "cannot examine \(url.lastPathComponent)",
                underlying: error,
                fileURL: url
            )
        }
        guard let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value,
            let size = (attributes[.size] as? NSNumber)?.uint64Value,
            let modified = attributes[.modificationDate] as? Date
        else { throw DataError(code: .storageFailed, message: "cannot examine \(url.lastPathComponent)", fileURL: url) }
        self.inode = inode
        self.size = size
        self.modified = modified
    }
}
