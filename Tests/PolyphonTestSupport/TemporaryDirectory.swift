import Foundation

/// A fresh directory for one test's files, removed when the value is dropped.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    public init(prefix: String = "polyphon-test") throws {
        path = FileManager.default.temporaryDirectory.path + "/" + prefix + "-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

extension TemporaryDirectory {
    /// A directory shared by the whole test process (named after its process ID) and removed
    /// when the process exits: for fixtures made once per run, such as a bank file or the
    /// WebAssembly module, which would otherwise pile up in the temporary folder run after run.
    public static func forThisProcess(prefix: String) -> String {
        let path = NSTemporaryDirectory() + prefix + "-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        ProcessDirectories.remember(path)
        return path
    }
}

/// The per-process directories, removed by an `atexit` handler.
private enum ProcessDirectories {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: Set<String> = []

    static func remember(_ path: String) {
        lock.withLock {
            if paths.isEmpty { atexit { ProcessDirectories.removeAll() } }
            paths.insert(path)
        }
    }

    private static func removeAll() {
        for path in lock.withLock({ paths }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
