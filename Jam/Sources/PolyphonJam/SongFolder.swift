import Foundation

/// The MIDI files `polyphon jam --midi DIR` offers: `.mid`, `.midi`, `.kar` and `.rmi` files in
/// the folder and its subfolders, each under an id derived from its path. Listings name files
/// by their file name only and files are served by id, so no path leaves the server.
struct SongFolder: Sendable {
    struct Entry: Codable, Sendable, Hashable {
        var id: String
        /// The file's name without its folders.
        var name: String
        var size: Int
        /// Where it is; never sent.
        var path: String?
    }

    /// Why the folder cannot be offered, in one line.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let extensions: Set<String> = ["mid", "midi", "kar", "rmi"]

    var entries: [Entry] = []
    /// Largest file offered (the page reads at most this much).
    var maxFileBytes = 16 << 20

    init(entries: [Entry] = []) { self.entries = entries }

    /// The MIDI files under `folder`, sorted by their path; at most `limit` of them (the first
    /// in path order), files larger than `maxFileBytes` left out.
    static func scan(_ folder: String, limit: Int = 10_000, maxFileBytes: Int = 16 << 20) throws(Failure) -> SongFolder {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue,
              let walker = FileManager.default.enumerator(atPath: folder) else {
            throw Failure(description: "\(folder): not a folder (--midi names a folder of MIDI files)")
        }
        var found: [String] = []
        for case let relative as String in walker where extensions.contains((relative as NSString).pathExtension.lowercased()) {
            found.append(relative)
        }
        var songs = SongFolder()
        songs.maxFileBytes = maxFileBytes
        for relative in found.sorted() where songs.entries.count < limit {
            let path = folder + "/" + relative
            guard let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int, size <= maxFileBytes else { continue }
            songs.entries.append(Entry(id: id(relative), name: (relative as NSString).lastPathComponent, size: size, path: path))
        }
        return songs
    }

    /// A stable id for a relative path: 64-bit FNV-1a in hex.
    static func id(_ relative: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in relative.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The listing sent to the page: ids, names and sizes.
    var listing: [Entry] { entries.map { var e = $0; e.path = nil; return e } }

    /// The bytes of the file with `id`; nil when there is none (or it has since grown too large).
    func bytes(_ id: String) -> Data? {
        guard let path = entries.first(where: { $0.id == id })?.path,
              let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int, size <= maxFileBytes else { return nil }
        return FileManager.default.contents(atPath: path)
    }
}
