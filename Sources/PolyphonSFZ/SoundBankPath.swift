import Foundation

/// A bank as a command line names it: a path, and for an SFZ instrument the bank and program
/// that `X.sfz@B:P` places it on (`Piano.sfz@0:0`, a kit on `Drums.sfz@128:0`).
///
/// `@B:P` is read only at the end, with a bank of at most 16383 and a program of at most 127,
/// and never when a file is named exactly as written. Whether the file is an SFZ instrument is
/// for the caller to check: placing anything else is an error there.
public struct SoundBankPath: Hashable, Sendable {
    /// The value as given.
    public let text: String
    /// The file: ``text`` without its `@B:P`.
    public let path: String
    /// The bank and program `@B:P` names; nil when the value has none.
    public let preset: Preset?

    /// A bank and program an instrument is placed on.
    public struct Preset: Hashable, Sendable, Codable {
        /// The MIDI bank, 0…16383 (128 for kits).
        public let bank: UInt16
        /// The program, 0…127.
        public let program: UInt16
    }

    /// Reads a `--soundfont` value.
    public init(_ text: String) {
        self.text = text
        if let at = text.lastIndex(of: "@"), !FileManager.default.fileExists(atPath: text) {
            let numbers = text[text.index(after: at)...].split(separator: ":", omittingEmptySubsequences: false)
            if numbers.count == 2, let bank = UInt16(numbers[0]), let program = UInt16(numbers[1]), bank <= 16383, program <= 127 {
                path = String(text[..<at])
                preset = Preset(bank: bank, program: program)
                return
            }
        }
        path = text
        preset = nil
    }
}
