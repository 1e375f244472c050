import Foundation

/// One MIDI file of a batch and where its outputs go.
struct BatchInput: Sendable, Hashable {
    /// The path as the user gave it or as found under a directory they gave: the report's key.
    var path: String
    /// The output path without extension, relative to the output directory: the input's place
    /// under the inputs' common root, without its extension (kept when two inputs would
    /// otherwise share a name, e.g. `a.mid` and `a.kar` → `a.mid`, `a.kar`).
    var outputStem: String
}

/// Finds a batch's inputs: files, directories searched recursively for MIDI files, manifests.
///
/// The list is sorted by path and the same for every shard, so `--shard I/N` parts are disjoint
/// and together cover it; outputs mirror the input tree below the inputs' common root.
enum BatchInputs {
    /// Extensions of the MIDI files found in directories (compared without case).
    static let extensions: Set<String> = ["mid", "midi", "rmi", "kar"]

    /// Every input named by `arguments` (files or directories) and the manifest's lines
    /// (paths relative to the current directory; blank lines and lines starting with `#`
    /// skipped). A named file is taken whatever its extension; a missing one is kept, so it is
    /// reported as failed.
    static func collect(arguments: [String], manifest: String?) throws -> [BatchInput] {
        var named = arguments
        if let manifest {
            let text: String
            do {
                text = try String(contentsOfFile: manifest, encoding: .utf8)
            } catch {
                throw CLIError("\(manifest): cannot read the manifest: \(error.localizedDescription)")
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
                    guard extensions.contains((relative as NSString).pathExtension.lowercased()) else { continue }
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
        let full = path.hasPrefix("/") ? path : fm.currentDirectoryPath + "/" + path
        return (full as NSString).standardizingPath
    }

    private static var fm: FileManager { .default }

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
