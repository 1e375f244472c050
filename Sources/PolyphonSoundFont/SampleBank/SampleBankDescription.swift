import PolyphonSoundFontCore
import Foundation

/// The content of a SoundBankPlayer bank's property list: the bank's sample rate and, for each
/// sample, its file name and the notes it covers.
///
/// The root is an array of strings: first the sample rate, then for each sample three strings,
/// its file name without extension, the last MIDI note it covers and its root note. Sample `i`
/// covers the notes after sample `i − 1`'s last note (from 0 for the first) up to its own.
public struct SampleBankDescription: Hashable, Sendable {
    /// One sample of the bank.
    public struct Entry: Hashable, Sendable {
        /// The audio file's name without extension.
        public var name: String
        /// The notes this sample plays.
        public var keyRange: ClosedRange<UInt8>
        /// The note the sample was recorded at; other notes are pitch-shifted from it.
        public var rootKey: UInt8
    }

    /// The sample rate the property list declares (the audio files' own rate is what plays).
    public var sampleRate: Double
    /// The samples in note order.
    public var entries: [Entry]

    /// Parses a property list (XML or binary) held in `data`; `file` names it in errors.
    /// - Throws: ``SampleBankError``.
    public init(propertyList data: Data, file: String) throws {
        let root: PropertyListValue
        do {
            root = try PropertyListReader.read(Array(data))
        } catch {
            throw SampleBankError(file: file, kind: .notAPropertyList(error.description))
        }
        guard case .array(let array) = root else {
            throw SampleBankError(file: file, kind: .notAPropertyList("the root is not an array"))
        }
        // Strings as the seed writes them; numbers accepted too, as plist editors may convert.
        func text(_ i: Int) throws -> String {
            switch array[i] {
            case .string(let s): return s.trimmingCharacters(in: .whitespaces)
            case .integer(let n): return "\(n)"
            case .real(let x):
                return x.rounded() == x && abs(x) < 1e15 ? "\(Int64(x))" : "\(x)"
            default: throw SampleBankError(file: file, entry: i, kind: .badValue("not a string"))
            }
        }
        func note(_ i: Int, _ what: String) throws -> UInt8 {
            let value = try text(i)
            guard let n = Int(value), (0...127).contains(n) else {
                throw SampleBankError(file: file, entry: i, kind: .badValue("\(what) '\(value)' is not a MIDI note 0–127"))
            }
            return UInt8(n)
        }
        guard array.count >= 4, (array.count - 1) % 3 == 0 else {
            throw SampleBankError(file: file, kind: .badLayout(count: array.count))
        }
        let rateText = try text(0)
        guard let rate = Double(rateText), rate.isFinite, (1...10_000_000).contains(rate) else {
            throw SampleBankError(file: file, entry: 0, kind: .badValue("sample rate '\(rateText)' is not a plausible rate"))
        }
        sampleRate = rate
        entries = []
        var previousLast = -1
        for i in stride(from: 1, to: array.count, by: 3) {
            let name = try text(i)
            guard !name.isEmpty, !name.contains("/") else {
                throw SampleBankError(file: file, entry: i, kind: .badValue("file name '\(name)' is empty or has a '/'"))
            }
            let last = try note(i + 1, "last note"), root = try note(i + 2, "root note")
            guard Int(last) > previousLast else {
                throw SampleBankError(file: file, entry: i + 1, kind: .notesNotAscending(last: Int(last), previous: previousLast))
            }
            entries.append(Entry(name: name, keyRange: UInt8(previousLast + 1)...last, rootKey: root))
            previousLast = Int(last)
        }
    }
}
