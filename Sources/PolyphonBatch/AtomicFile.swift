import Foundation

/// Files that appear under their final name only once complete: written under a temporary name
/// in the same directory (so the rename stays on one file system) and renamed into place, so a
/// process killed at any moment leaves either the old file, the new one, or a temporary one —
/// never a truncated file under the final name.
enum AtomicFile {
    /// The temporary name `path` is written under: hidden, beside it, recognisable. It depends
    /// on `path` alone, so a rerun after a kill overwrites what the killed run left.
    static func temporaryPath(for path: String) -> String {
        let dir = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return (dir.isEmpty ? "" : dir + "/") + "." + name + ".partial"
    }

    /// Renames the temporary file of `path` into place, its bytes on disk first and the rename
    /// after: after a power cut too, the final name holds a complete file or nothing (the
    /// rename alone only protects against the process being killed).
    static func commit(_ path: String) throws(BatchError) {
        let temp = temporaryPath(for: path)
        let fd = open(temp, O_RDONLY)
        if fd >= 0 {
            let synced = fsync(fd)
            close(fd)
            if synced != 0 {
                throw BatchError(path: temp, reason: "cannot flush to disk: \(String(cString: strerror(errno)))")
            }
        }
        if rename(temp, path) != 0 {
            throw BatchError(path: path, reason: "cannot move the finished file into place: \(String(cString: strerror(errno)))")
        }
        // The directory entry too, so the new name survives a power cut.
        let dir = (path as NSString).deletingLastPathComponent
        let dirFD = open(dir.isEmpty ? "." : dir, O_RDONLY)
        if dirFD >= 0 {
            _ = fsync(dirFD)
            close(dirFD)
        }
    }

    /// Removes the temporary file of `path`, if any.
    static func discard(_ path: String) {
        unlink(temporaryPath(for: path))
    }

    /// Writes `data` to `path` through its temporary name.
    static func write(_ data: Data, to path: String) throws(BatchError) {
        let temp = temporaryPath(for: path)
        do {
            try data.write(to: URL(fileURLWithPath: temp))
        } catch {
            throw BatchError(path: temp, reason: "cannot write: \(error.localizedDescription)")
        }
        try commit(path)
    }
}
