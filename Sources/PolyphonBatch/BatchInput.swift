import Foundation

/// One MIDI file of a batch and where its outputs go.
///
/// ``collect(from:manifest:)`` finds a corpus's inputs the way `polyphon batch` does; an input
/// made by hand names its file and its outputs' place below the output directory.
public struct BatchInput: Sendable, Hashable {
    /// The path as the user gave it or as found under a directory they gave: the report's key.
    public var path: String
    /// The output path without extension, relative to the output directory: the input's place
    /// under the inputs' common root, without its extension (kept when two inputs would
    /// otherwise share a name, e.g. `a.mid` and `a.kar` → `a.mid`, `a.kar`).
    public var outputStem: String

    /// An input read from `path` whose outputs are `outputStem` plus their extensions.
    public init(path: String, outputStem: String) {
        self.path = path
        self.outputStem = outputStem
    }

    /// Extensions of the MIDI files found in directories (compared without case).
    public static let fileExtensions: Set<String> = ["mid", "midi", "rmi", "kar"]

    /// Every input named by `paths` (files, or directories searched recursively for MIDI
    /// files) and by the lines of `manifest` (paths relative to the current directory; blank
    /// lines and lines starting with `#` skipped), sorted by path, each file once.
    ///
    /// A named file is taken whatever its extension; a missing one is kept, so that it is
    /// reported as failed. The list is the same for every shard, so ``BatchShard`` parts are
    /// disjoint and together cover it; outputs mirror the input tree below the inputs' common
    /// directory.
    ///
    /// - Throws: ``BatchError`` when the manifest cannot be read.
    public static func collect(from paths: [String], manifest: String? = nil) throws(BatchError) -> [BatchInput] {
        var named = paths
        if let manifest {
            let text: String
            do {
                text = try String(contentsOfFile: manifest, encoding: .utf8)
            } catch {
                throw BatchError(path: manifest, reason: "cannot read the manifest: \(error.localizedDescription)")
            }
            for line in text.split(whereSeparator: \.isNewline) {
                let entry = line.trimmingCharacters(in: .whitespaces)
                if !entry.isEmpty && !entry.hasPrefix("#") { named.append(entry) }
            }
        }
        var files: [String] = []
        var roots: [String] = []
        let fm = FileManager.default
        for name in named {
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: name, isDirectory: &isDirectory) && isDirectory.boolValue {
                roots.append(absolute(name))
                let base = name.hasSuffix("/") ? String(name.dropLast()) : name
                guard let walk = fm.enumerator(atPath: name) else { continue }
                while let relative = walk.nextObject() as? String {
                    guard fileExtensions.contains((relative as NSString).pathExtension.lowercased()) else { continue }
                    var sub: ObjCBool = false
                    let path = base + "/" + relative
                    if fm.fileExists(atPath: path, isDirectory: &sub) && !sub.boolValue { files.append(path) }
                }
            } else {
                roots.append((absolute(name) as NSString).deletingLastPathComponent)
                files.append(name)
            }
        }
        // The same file named twice is rendered once.
        var seen = Set<String>()
        let unique = files.sorted().filter { seen.insert(absolute($0)).inserted }
        let root = commonDirectory(roots)
        let stems = unique.map { path -> (String, String) in
            var relative = absolute(path)
            if root == "/" {
                relative.removeFirst()
            } else if relative.hasPrefix(root + "/") {
                relative.removeFirst(root.count + 1)
            }
            return (relative, (relative as NSString).deletingPathExtension)
        }
        // Inputs whose names differ only in extension keep it, so outputs never collide.
        var users: [String: Int] = [:]
        for (_, stem) in stems { users[stem.lowercased(), default: 0] += 1 }
        return zip(unique, stems).map { path, pair in
            BatchInput(path: path, outputStem: users[pair.1.lowercased()]! > 1 ? pair.0 : pair.1)
        }
    }

    /// `path` made absolute (against the current directory) and standardised.
    static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return (full as NSString).standardizingPath
    }

    /// The deepest directory containing every one of `directories` (absolute paths).
    static func commonDirectory(_ directories: [String]) -> String {
        guard var common = directories.first?.split(separator: "/", omittingEmptySubsequences: true) else { return "/" }
        for d in directories.dropFirst() {
            let parts = d.split(separator: "/", omittingEmptySubsequences: true)
            var n = 0
            while n < min(common.count, parts.count) && common[n] == parts[n] { n += 1 }
            common.removeLast(common.count - n)
        }
        return "/" + common.joined(separator: "/")
    }
}
