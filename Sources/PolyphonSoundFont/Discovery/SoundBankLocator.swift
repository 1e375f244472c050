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

    /// The bank to use: the first of ``candidates(explicitPath:)``.
    ///
    /// A path the user named (`explicitPath`, or an environment variable that is set and not
    /// empty) must exist: a typo is reported instead of silently playing another bank. Banks
    /// found by scanning must also be recognisable by content (``SoundBankKind/sniff(path:)``).
    /// This only looks at names and first bytes; ``open(explicitPath:opening:builtIn:skipped:)``
    /// also moves past a discovered bank that turns out to be broken.
    /// - Throws: ``SoundBankError`` of kind ``SoundBankError/Kind/notFound(origin:)``.
    public func locate(explicitPath: String? = nil) throws -> Location {
        try candidates(explicitPath: explicitPath)[0]
    }

    /// Every bank the search would play, in search order, ending with ``Location/builtIn``; or,
    /// when the user named a path (`explicitPath` or an environment variable), just that one.
    ///
    /// A discovered file is a candidate when its content says bank and its name is not that of
    /// a half-written or left-over file (``isTransientName(_:)``: `*.dpkg-new`, `*~`, `.part`
    /// and the like), so a bank caught while a package manager or a download is writing it is
    /// never picked. The same file reached twice (a `default-GM.sf2` link and the file it points
    /// to) is listed once.
    /// - Throws: ``SoundBankError`` when a named path does not exist.
    public func candidates(explicitPath: String? = nil) throws -> [Location] {
        if let explicitPath, !explicitPath.isEmpty {
            return [try named(explicitPath, origin: .commandLine)]
        }
        for name in Self.environmentVariables {
            if let value = environment[name], !value.isEmpty {
                return [try named(value, origin: .environment(name))]
            }
        }
        var found: [Location] = []
        var seen = Set<String>()
        func add(_ path: String, _ origin: Origin) {
            if seen.insert(Self.resolved(path)).inserted { found.append(.file(path: path, origin: origin)) }
        }
        for directory in userDirectories {
            for path in banks(in: directory, pathExtension: nil) { add(path, .userDirectory(directory)) }
        }
        for file in Self.systemFiles where isBank(systemRoot + file) {
            add(systemRoot + file, .system)
        }
        for (directory, pathExtension) in Self.systemDirectories {
            for path in banks(in: systemRoot + directory, pathExtension: pathExtension) { add(path, .system) }
        }
        found.append(.builtIn)
        return found
    }

    /// Opens the bank to play: the named one, or the first discovered bank that opens.
    ///
    /// A bank the user named (flag or environment variable) that cannot be opened is an error.
    /// A discovered bank that cannot be opened (truncated, corrupt) is passed over with one line
    /// to `skipped` naming it and the reason, and the next candidate is tried, down to
    /// `builtIn()`.
    /// - Parameters:
    ///   - explicitPath: a bank the user named (`--soundfont`), tried before anything else.
    ///   - opening: opens a bank file (e.g. `SoundFont(contentsOfAnyBank:)`).
    ///   - builtIn: the bank to use when no file opens.
    ///   - skipped: receives one line per discovered bank passed over.
    /// - Returns: the bank and where it came from.
    /// - Throws: ``SoundBankError`` for a named path that does not exist; whatever `opening`
    ///   throws for a named bank that cannot be opened.
    public func open<Bank>(explicitPath: String? = nil, opening: (String) throws -> Bank,
                           builtIn: () -> Bank, skipped: (String) -> Void) throws -> (bank: Bank, location: Location) {
        let locations = try candidates(explicitPath: explicitPath)
        for location in locations {
            guard case .file(let path, let origin) = location else { return (builtIn(), .builtIn) }
            switch origin {
            case .commandLine, .environment:
                return (try opening(path), location)
            case .userDirectory, .system:
                do {
                    return (try opening(path), location)
                } catch {
                    skipped("polyphon: skipping bank \(path) (from \(origin)): \(Self.reason(error, path: path))")
                }
            }
        }
        return (builtIn(), .builtIn)
    }

    /// Whether `name` is that of a file being written or left behind by a package manager, a
    /// download or an editor — never a bank to play, whatever its content: `*.dpkg-new`,
    /// `*.dpkg-tmp`, `*.dpkg-old`, `*.dpkg-dist`, `*.dpkg-bak`, `*.ucf-*`, `*.rpmnew`,
    /// `*.rpmsave`, `*.part`, `*.partial`, `*.crdownload`, `*.download`, `*.tmp`, `*.temp`,
    /// `*.swp`, `*.bak`, `*.orig`, `*~`, and hidden files (`.name`, such as `.#bank.sf2`).
    public static func isTransientName(_ name: String) -> Bool {
        if name.hasPrefix(".") || name.hasSuffix("~") { return true }
        let lower = name.lowercased()
        guard let dot = lower.lastIndex(of: ".") else { return false }
        let ext = lower[lower.index(after: dot)...]
        if ext.hasPrefix("dpkg-") || ext.hasPrefix("ucf-") { return true }
        return ["rpmnew", "rpmsave", "part", "partial", "crdownload", "download", "tmp", "temp", "swp", "bak", "orig"]
            .contains(String(ext))
    }

    /// The error's one-line text without the path repeated at its front.
    private static func reason(_ error: any Error, path: String) -> String {
        let text = String(describing: error)
        for prefix in [path + ": ", (path as NSString).lastPathComponent + ": "] where text.hasPrefix(prefix) {
            return String(text.dropFirst(prefix.count))
        }
        return text
    }

    /// `path` with symbolic links resolved, so a file reached twice is recognised.
    private static func resolved(_ path: String) -> String {
        (path as NSString).resolvingSymlinksInPath
    }

    private func named(_ path: String, origin: Origin) throws -> Location {
        let expanded = (path as NSString).expandingTildeInPath
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: expanded, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw SoundBankError(path: path, kind: .notFound(origin: origin.description))
        }
        return .file(path: expanded, origin: origin)
    }

    /// The files of `directory` that are banks, in name order, names that start with "default"
    /// (a user's chosen default among several banks) first; half-written and left-over files
    /// (``isTransientName(_:)``) never.
    private func banks(in directory: String, pathExtension: String?) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names
            .filter { !Self.isTransientName($0) }
            .filter { pathExtension == nil || ($0 as NSString).pathExtension.lowercased() == pathExtension }
            .sorted { a, b in
                let da = a.lowercased().hasPrefix("default"), db = b.lowercased().hasPrefix("default")
                return da != db ? da : a < b
            }
            .map { (directory as NSString).appendingPathComponent($0) }
            .filter(isBank)
    }

    private func isBank(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return false
        }
        return (try? SoundBankKind.sniff(path: path)) != nil
    }
}
