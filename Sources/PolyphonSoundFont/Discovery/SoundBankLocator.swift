import PolyphonSoundFontCore
import Foundation

/// Finds the sound bank to play when the user did not hand one over explicitly, in the order a
/// user expects: the command-line flag, then `POLYPHON_SOUNDFONT`, then `SOUNDFONT`, then the
/// user's own banks, then the system's, then the bank built into Polyphon.
///
/// ```swift
/// switch try SoundBankLocator().locate(explicitPath: options.soundfont) {
/// case .file(let path, _): bank = try SoundFont(contentsOfAnyBank: path)
/// case .builtIn: bank = SoundFont.builtInGeneralMIDI
/// }
/// ```
///
/// The environment, the home directory and the root of the system paths are injectable so tests
/// can build a fake file system in a temporary directory.
public struct SoundBankLocator: Sendable {
    /// Where a located bank came from, in search order.
    public enum Origin: Hashable, Sendable, CustomStringConvertible {
        /// The `--soundfont` flag (or any path the caller passes explicitly).
        case commandLine
        /// An environment variable (`POLYPHON_SOUNDFONT` or `SOUNDFONT`).
        case environment(String)
        /// A bank in one of the user's sound font directories.
        case userDirectory(String)
        /// A system-wide bank installed by a package.
        case system

        /// Human-readable origin for messages, such as `environment variable SOUNDFONT`.
        public var description: String {
            switch self {
            case .commandLine: return "the --soundfont option"
            case .environment(let name): return "environment variable \(name)"
            case .userDirectory(let dir): return "user directory \(dir)"
            case .system: return "system sound banks"
            }
        }
    }

    /// The outcome of a search.
    public enum Location: Hashable, Sendable {
        /// A bank file, and where it was found.
        case file(path: String, origin: Origin)
        /// No bank was found anywhere: use `SoundFont.builtInGeneralMIDI`.
        case builtIn
    }

    /// Environment variables consulted, in order.
    public static let environmentVariables = ["POLYPHON_SOUNDFONT", "SOUNDFONT"]

    /// System banks tried one by one, before the directory scans in ``systemDirectories``.
    public static let systemFiles = [
        "/usr/share/sounds/sf2/default-GM.sf2",
        "/usr/share/soundfonts/default.sf2",
        "/usr/share/sounds/sf3/default-GM.sf3",
    ]

    /// System directories scanned after ``systemFiles``, with the extension a file must have
    /// (nil: any file whose content is a bank), files taken in name order.
    public static let systemDirectories: [(path: String, pathExtension: String?)] = [
        ("/usr/share/soundfonts", "sf2"),
        ("/usr/share/sounds/sf2", nil),
    ]

    /// The environment consulted for ``environmentVariables`` and `XDG_DATA_HOME`.
    public var environment: [String: String]
    /// The user's home directory.
    public var homeDirectory: String
    /// Prefix for the system paths ("" for the real ones; a temporary directory in tests).
    public var systemRoot: String

    /// A locator for this process (its environment and home directory), or for injected ones.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                homeDirectory: String = NSHomeDirectory(), systemRoot: String = "") {
        self.environment = environment
        self.homeDirectory = homeDirectory
        self.systemRoot = systemRoot
    }

    /// The user's sound font directories, in search order: `$XDG_DATA_HOME/soundfonts` (default
    /// `~/.local/share/soundfonts`), then `~/.soundfonts`.
    public var userDirectories: [String] {
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (homeDirectory as NSString).appendingPathComponent(".local/share")
        return [(dataHome as NSString).appendingPathComponent("soundfonts"),
                (homeDirectory as NSString).appendingPathComponent(".soundfonts")]
    }

    /// The bank to use.
    ///
    /// A path the user named (`explicitPath`, or an environment variable that is set and not
    /// empty) must exist: a typo is reported instead of silently playing another bank. Banks
    /// found by scanning must also be recognisable by content (``SoundBankKind/sniff(path:)``).
    /// - Throws: ``SoundBankError`` of kind ``SoundBankError/Kind/notFound(origin:)``.
    public func locate(explicitPath: String? = nil) throws -> Location {
        if let explicitPath, !explicitPath.isEmpty {
            return try named(explicitPath, origin: .commandLine)
        }
        for name in Self.environmentVariables {
            if let value = environment[name], !value.isEmpty {
                return try named(value, origin: .environment(name))
            }
        }
        for directory in userDirectories {
            if let path = firstBank(in: directory, pathExtension: nil) {
                return .file(path: path, origin: .userDirectory(directory))
            }
        }
        for file in Self.systemFiles where isBank(systemRoot + file) {
            return .file(path: systemRoot + file, origin: .system)
        }
        for (directory, pathExtension) in Self.systemDirectories {
            if let path = firstBank(in: systemRoot + directory, pathExtension: pathExtension) {
                return .file(path: path, origin: .system)
            }
        }
        return .builtIn
    }

    private func named(_ path: String, origin: Origin) throws -> Location {
        let expanded = (path as NSString).expandingTildeInPath
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: expanded, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw SoundBankError(path: path, kind: .notFound(origin: origin.description))
        }
        return .file(path: expanded, origin: origin)
    }

    /// The first file of `directory` in name order that is a bank, preferring names that start
    /// with "default" (a user's chosen default among several banks).
    private func firstBank(in directory: String, pathExtension: String?) -> String? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        let candidates = names
            .filter { pathExtension == nil || ($0 as NSString).pathExtension.lowercased() == pathExtension }
            .sorted { a, b in
                let da = a.lowercased().hasPrefix("default"), db = b.lowercased().hasPrefix("default")
                return da != db ? da : a < b
            }
        for name in candidates {
            let path = (directory as NSString).appendingPathComponent(name)
            if isBank(path) { return path }
        }
        return nil
    }

    private func isBank(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return false
        }
        return (try? SoundBankKind.sniff(path: path)) != nil
    }
}
