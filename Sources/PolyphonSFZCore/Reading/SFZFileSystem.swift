/// Where an SFZ instrument's files come from: the root `.sfz`, the files it `#include`s and the
/// sample files its regions name.
///
/// The reader is portable and never touches the disk itself; PolyphonSFZ supplies the real file
/// system (with case-insensitive lookup for libraries made on Windows), tests and the fuzzer an
/// ``SFZMemoryFileSystem``. Paths use `/`; the reader has already turned `\` into `/`.
public protocol SFZFileSystem: AnyObject, Sendable {
    /// The path of the regular file `path` names — itself when it exists as written, else the
    /// file whose path differs only in letter case — or nil when there is none.
    func resolve(_ path: String) -> String?

    /// The bytes of the file at `path` (a path ``resolve(_:)`` returned).
    /// - Throws: ``SFZFileSystemError`` when the file cannot be read or holds more than
    ///   `limit` bytes.
    func contents(of path: String, limit: Int) throws(SFZFileSystemError) -> [UInt8]
}

/// A file an ``SFZFileSystem`` could not read.
public struct SFZFileSystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why, in words (`errno` text, "larger than 64 MiB", …).
    public var reason: String

    /// An error saying `reason`.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}

/// Files held in memory, for instruments built in code (tests, the fuzzer, a host that keeps
/// its instruments somewhere other than a disk). Lookups ignore letter case when no file
/// matches exactly, as on the disk.
public final class SFZMemoryFileSystem: SFZFileSystem, @unchecked Sendable {
    // @unchecked: `files` is written only before the file system is handed to a reader.
    private var files: [String: [UInt8]]

    /// A file system holding `files`, keyed by path (`/` separated, `.` and `..` resolved).
    public init(files: [String: [UInt8]] = [:]) {
        self.files = [:]
        for (path, bytes) in files { self.files[SFZPath.normalized(path)] = bytes }
    }

    /// Adds or replaces the file at `path`.
    public func write(_ bytes: [UInt8], to path: String) {
        files[SFZPath.normalized(path)] = bytes
    }

    /// Adds or replaces the text file at `path`.
    public func write(_ text: String, to path: String) {
        write(Array(text.utf8), to: path)
    }

    public func resolve(_ path: String) -> String? {
        let wanted = SFZPath.normalized(path)
        if files[wanted] != nil { return wanted }
        let folded = SFZPath.caseFolded(wanted)
        var match: String?
        for candidate in files.keys where SFZPath.caseFolded(candidate) == folded {
            // Several files differing only in case: the first in code-unit order, so the
            // choice does not depend on dictionary order.
            if match == nil || candidate.utf8.lexicographicallyPrecedes(match!.utf8) { match = candidate }
        }
        return match
    }

    public func contents(of path: String, limit: Int) throws(SFZFileSystemError) -> [UInt8] {
        guard let bytes = files[SFZPath.normalized(path)] else { throw SFZFileSystemError("no such file") }
        guard bytes.count <= limit else { throw SFZFileSystemError("larger than \(limit) bytes") }
        return bytes
    }
}
