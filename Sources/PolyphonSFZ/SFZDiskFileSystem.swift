import Foundation
import PolyphonSFZCore

/// The real file system, as SFZ libraries expect it: paths that name a file exactly are used as
/// they are; otherwise each component is matched without regard to letter case, because
/// libraries made on Windows (or macOS) name `Samples/Piano_C4.WAV` what lies on the disk as
/// `samples/piano_c4.wav`.
public final class SFZDiskFileSystem: SFZFileSystem, @unchecked Sendable {
    // @unchecked: the directory cache is only touched under `lock`.
    private let lock = NSLock()
    /// Directory listings made while resolving, by directory path.
    private var listings: [String: [String]] = [:]

    /// A file system on the process's disk.
    public init() {}

    public func resolve(_ path: String) -> String? {
        let wanted = SFZPath.normalized(path)
        if isRegularFile(wanted) { return wanted }
        return resolveIgnoringCase(wanted)
    }

    public func contents(of path: String, limit: Int) throws(SFZFileSystemError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SFZFileSystemError(FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw SFZFileSystemError("\(error.localizedDescription)")
        }
        guard data.count <= limit else { throw SFZFileSystemError("larger than \(limit) bytes") }
        return [UInt8](data)
    }

    private func isRegularFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// Walks `path` from its first component, replacing each that does not exist by the entry of
    /// its directory whose name differs only in letter case.
    private func resolveIgnoringCase(_ path: String) -> String? {
        let absolute = SFZPath.isAbsolute(path)
        var current = absolute ? "/" : "."
        let components = path.split(separator: "/").map(String.init)
        for (index, component) in components.enumerated() {
            let isLast = index == components.count - 1
            let direct = current == "." ? component : (current == "/" ? "/" + component : current + "/" + component)
            if component == ".." || FileManager.default.fileExists(atPath: direct) {
                current = direct
                continue
            }
            let folded = SFZPath.caseFolded(component)
            guard let match = listing(of: current).first(where: { SFZPath.caseFolded($0) == folded }) else { return nil }
            current = current == "." ? match : (current == "/" ? "/" + match : current + "/" + match)
            if isLast { break }
        }
        return isRegularFile(current) ? current : nil
    }

    private func listing(of directory: String) -> [String] {
        lock.lock()
        if let cached = listings[directory] {
            lock.unlock()
            return cached
        }
        lock.unlock()
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        lock.lock()
        listings[directory] = names
        lock.unlock()
        return names
    }
}
