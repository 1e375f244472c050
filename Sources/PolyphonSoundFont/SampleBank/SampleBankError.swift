import PolyphonSoundFontCore

/// A SoundBankPlayer sample bank that cannot be loaded: names the property list, the entry
/// (index in its root array) where reading stopped, and why.
public struct SampleBankError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The file could not be read.
        case cannotOpen(String)
        /// The file is not a property list whose root is an array of strings.
        case notAPropertyList(String)
        /// The array does not hold a sample rate followed by (name, last note, root note) triples.
        case badLayout(count: Int)
        /// An entry is not the number it must be, or is out of range (the text says which).
        case badValue(String)
        /// A sample's last note does not lie above the previous sample's.
        case notesNotAscending(last: Int, previous: Int)
        /// No audio file with a supported extension sits beside the property list.
        case missingAudio(name: String, tried: [String])
        /// The audio loader failed or returned something unusable.
        case badAudio(path: String, reason: String)
    }

    /// The property list's path.
    public var file: String
    /// Index in the root array of the entry concerned, when there is one.
    public var entry: Int?
    /// What went wrong.
    public var kind: Kind

    /// An error about `entry` of `file`.
    public init(file: String, entry: Int? = nil, kind: Kind) {
        self.file = file
        self.entry = entry
        self.kind = kind
    }

    /// One line: `file: entry N: what`.
    public var description: String {
        let prefix = entry.map { "\(file): entry \($0): " } ?? "\(file): "
        switch kind {
        case .cannotOpen(let why): return prefix + "cannot open file (\(why))"
        case .notAPropertyList(let why): return prefix + "not a SoundBankPlayer property list (\(why))"
        case .badLayout(let count):
            return prefix + "\(count) entries; expected a sample rate then (file name, last note, root note) triples"
        case .badValue(let text): return prefix + text
        case .notesNotAscending(let last, let previous):
            return prefix + "last note \(last) is not above the previous sample's last note \(previous)"
        case .missingAudio(let name, let tried):
            return prefix + "no audio file for '\(name)' (tried \(tried.joined(separator: ", ")))"
        case .badAudio(let path, let reason): return prefix + "\(path): \(reason)"
        }
    }
}
