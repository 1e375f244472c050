/// Path arithmetic for SFZ files, without Foundation: `/`-separated paths as SFZ libraries write
/// them (after `\` has become `/`).
public enum SFZPath {
    /// `path` with `\` turned into `/`, repeated and trailing separators removed, `.` components
    /// dropped and `name/..` pairs folded (a leading `..` stays: it leaves the root directory).
    public static func normalized(_ path: String) -> String {
        let isAbsolute = path.utf8.first == UInt8(ascii: "/") || path.utf8.first == UInt8(ascii: "\\")
        var parts: [Substring] = []
        for part in path.split(whereSeparator: { $0 == "/" || $0 == "\\" }) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == "..", isAbsolute, parts.isEmpty { continue }  // "/.." is "/"
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return isAbsolute ? "/" + joined : joined
    }

    /// Whether `path` starts at the root of the file system.
    public static func isAbsolute(_ path: String) -> Bool {
        path.utf8.first == UInt8(ascii: "/")
    }

    /// The directory part of `path` (everything before the last `/`), "" when there is none.
    public static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        if slash == path.utf8.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The last component of `path`.
    public static func lastComponent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// `relative` resolved against `directory` (returned unchanged when absolute), normalized.
    public static func join(_ directory: String, _ relative: String) -> String {
        let cleaned = normalized(relative)
        if isAbsolute(cleaned) || directory.isEmpty { return cleaned }
        return normalized(directory + "/" + cleaned)
    }

    /// `path` with ASCII letters in lower case: the key under which paths that differ only in
    /// case meet. (Non-ASCII letters are compared as written.)
    public static func caseFolded(_ path: String) -> String {
        var bytes = Array(path.utf8)
        for i in bytes.indices where bytes[i] >= UInt8(ascii: "A") && bytes[i] <= UInt8(ascii: "Z") {
            bytes[i] += 32
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
