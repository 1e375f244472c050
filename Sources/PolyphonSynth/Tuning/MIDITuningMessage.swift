/// A MIDI Tuning Standard message (universal system exclusive, sub-ID #1 `08`; MMA CA-020 and
/// CA-021), read from its bytes.
///
/// Every form of the standard is read: bulk dump requests (`00`, `03`), bulk dumps of 128 keys
/// (`01`, `04`), scale/octave dumps (`05`, `06`), single-note tuning changes with and without
/// a bank (`02`, `07`), and scale/octave tunings for the channels of a bitmap (`08`, `09`).
/// Each comes in the real-time (`7F`) or the non-real-time (`7E`) universal area: a real-time
/// change retunes notes already sounding, a non-real-time one only notes started after it.
///
/// The key data lives in fixed storage, so reading a message allocates nothing (the synthesizer
/// reads them on its render thread).
public struct MIDITuningMessage: Equatable, Sendable {
    /// What the message asks for.
    public enum Form: Equatable, Sendable {
        /// Send back tuning program `program` of `bank` (bank 0 when the request names none).
        case dumpRequest(bank: UInt8?, program: UInt8)
        /// The pitch of every key for a tuning program
        /// (``MIDITuningMessage/forEachChangedKey(_:)`` gives those not marked "no change").
        case keyDump(bank: UInt8?, program: UInt8)
        /// Twelve pitch-class offsets (``MIDITuningMessage/pitchClassOffsets``) for a tuning program.
        case scaleOctaveDump(bank: UInt8, program: UInt8)
        /// New pitches for some keys (``MIDITuningMessage/forEachChangedKey(_:)``) of a tuning program.
        case noteChange(bank: UInt8?, program: UInt8)
        /// Twelve pitch-class offsets for the channels whose bits are set (bit 0: channel 1).
        case scaleOctave(channels: UInt16)
    }

    public var form: Form
    /// True for the real-time form (`F0 7F …`), which retunes sounding notes.
    public var isRealTime: Bool
    /// The device the message is for; `7F` addresses every device.
    public var deviceID: UInt8
    /// The tuning's name, for dumps: 16 ASCII characters (spaces elsewhere).
    public var nameBytes: SIMD16<UInt8> = SIMD16(repeating: 0x20)
    /// For dumps: whether the checksum byte matches the message (XOR of every byte from the
    /// universal ID to the last data byte); nil for forms without one. Receivers apply a dump
    /// whatever its checksum, as most do; `polyphon info` reports a mismatch.
    public var checksumMatches: Bool?
    /// For scale/octave forms: the offset of each pitch class, C first, in cents (12 used).
    public var pitchClassOffsets = SIMD16<Double>(repeating: 0)
    /// For the two-byte scale/octave forms: true (±100 cents in 16384 steps); one-byte
    /// forms move −64…+63 whole cents.
    public var isTwoByteForm = false

    /// Key pitches in cents above 8.176 Hz, for keys whose bit is set in the masks.
    private var lowKeys = SIMD64<Double>(repeating: 0), highKeys = SIMD64<Double>(repeating: 0)
    private var lowMask: UInt64 = 0, highMask: UInt64 = 0

    /// The universal IDs and sub-ID #1 that make a message a tuning message.
    static let nonRealTime: UInt8 = 0x7E, realTime: UInt8 = 0x7F, subID: UInt8 = 0x08
    /// The device ID that addresses every device.
    public static let allDevices: UInt8 = 0x7F

    /// Reads a message from its body (the bytes after `F0`; a trailing `F7` is allowed). Returns
    /// nil when the bytes are not a MIDI Tuning Standard message; throws when they are one but
    /// malformed: a wrong length, a byte above 127, an unknown form.
    public init?(_ body: UnsafeBufferPointer<UInt8>) throws(MIDITuningError) {
        var length = body.count
        if length > 0 && body[length - 1] == 0xF7 { length -= 1 }
        guard length >= 4, body[0] == Self.nonRealTime || body[0] == Self.realTime, body[2] == Self.subID else {
            return nil
        }
        let bytes = UnsafeBufferPointer(rebasing: body[0..<length])
        let form = bytes[3]
        for (offset, byte) in bytes.enumerated() where byte > 0x7F {
            throw MIDITuningError.dataByteOutOfRange(form: form, offset: offset, value: byte)
        }
        isRealTime = bytes[0] == Self.realTime
        deviceID = bytes[1]
        func expect(_ expected: Int) throws(MIDITuningError) {
            guard length == expected else { throw MIDITuningError.wrongLength(form: form, expected: expected, found: length) }
        }
        func readName(at offset: Int) {
            for i in 0..<16 { nameBytes[i] = bytes[offset + i] }
        }
        func readChecksum() {
            var sum: UInt8 = 0
            for i in 0..<(length - 1) { sum ^= bytes[i] }
            checksumMatches = (sum & 0x7F) == bytes[length - 1]
        }
        switch form {
        case 0x00:
            try expect(5)
            self.form = .dumpRequest(bank: nil, program: bytes[4])
        case 0x03:
            try expect(6)
            self.form = .dumpRequest(bank: bytes[4], program: bytes[5])
        case 0x01, 0x04:
            let hasBank = form == 0x04
            let header = hasBank ? 6 : 5
            try expect(header + 16 + 3 * 128 + 1)
            self.form = .keyDump(bank: hasBank ? bytes[4] : nil, program: bytes[header - 1])
            readName(at: header)
            for key in 0..<128 { setKey(key, from: bytes, at: header + 16 + 3 * key) }
            readChecksum()
        case 0x05, 0x06:
            isTwoByteForm = form == 0x06
            try expect(6 + 16 + (isTwoByteForm ? 24 : 12) + 1)
            self.form = .scaleOctaveDump(bank: bytes[4], program: bytes[5])
            readName(at: 6)
            readOffsets(from: bytes, at: 22)
            readChecksum()
        case 0x02, 0x07:
            let hasBank = form == 0x07
            let header = hasBank ? 7 : 6
            guard length >= header else { throw MIDITuningError.wrongLength(form: form, expected: header, found: length) }
            let count = Int(bytes[header - 1])
            try expect(header + 4 * count)
            self.form = .noteChange(bank: hasBank ? bytes[4] : nil, program: bytes[header - 2])
            for i in 0..<count {
                let at = header + 4 * i
                setKey(Int(bytes[at]), from: bytes, at: at + 1)
            }
        case 0x08, 0x09:
            isTwoByteForm = form == 0x09
            try expect(7 + (isTwoByteForm ? 24 : 12))
            let channels = UInt16(bytes[4] & 0x03) << 14 | UInt16(bytes[5]) << 7 | UInt16(bytes[6])
            self.form = .scaleOctave(channels: channels)
            readOffsets(from: bytes, at: 7)
        default:
            throw MIDITuningError.unknownForm(form)
        }
    }

    /// Reads a message from its body held in an array.
    public init?(_ body: [UInt8]) throws(MIDITuningError) {
        let result = body.withUnsafeBufferPointer { bytes -> Result<MIDITuningMessage?, MIDITuningError> in
            do throws(MIDITuningError) { return .success(try MIDITuningMessage(bytes)) } catch { return .failure(error) }
        }
        switch result {
        case .success(let message?): self = message
        case .success(nil): return nil
        case .failure(let error): throw error
        }
    }

    /// Reads the three bytes of a key's frequency data (`xx yy zz`: the equal-tempered key at or
    /// below the pitch, then 14 bits of a semitone); `7F 7F 7F` means "no change".
    private mutating func setKey(_ key: Int, from bytes: UnsafeBufferPointer<UInt8>, at offset: Int) {
        let semitone = Int(bytes[offset]), fraction = Int(bytes[offset + 1]) << 7 | Int(bytes[offset + 2])
        guard !(semitone == 0x7F && fraction == 0x3FFF) else { return }
        let cents = Double(semitone) * 100 + Double(fraction) * (100.0 / 16384)
        if key < 64 {
            lowKeys[key] = cents
            lowMask |= 1 << UInt64(key)
        } else {
            highKeys[key - 64] = cents
            highMask |= 1 << UInt64(key - 64)
        }
    }

    /// Reads twelve pitch-class offsets: one byte each (64 = 0 cents, whole cents) or two
    /// (8192 = 0, ±100 cents in 16384 steps).
    private mutating func readOffsets(from bytes: UnsafeBufferPointer<UInt8>, at offset: Int) {
        for i in 0..<12 {
            if isTwoByteForm {
                let value = Int(bytes[offset + 2 * i]) << 7 | Int(bytes[offset + 2 * i + 1])
                pitchClassOffsets[i] = Double(value - 8192) * (200.0 / 16384)
            } else {
                pitchClassOffsets[i] = Double(Int(bytes[offset + i]) - 64)
            }
        }
    }

    // MARK: - Reading the keys

    /// The new pitch of `key` in cents above 8.176 Hz, or nil when the message leaves it alone.
    public func cents(forKey key: Int) -> Double? {
        guard (0...127).contains(key) else { return nil }
        if key < 64 { return lowMask >> UInt64(key) & 1 != 0 ? lowKeys[key] : nil }
        return highMask >> UInt64(key - 64) & 1 != 0 ? highKeys[key - 64] : nil
    }

    /// How many keys the message retunes.
    public var changedKeyCount: Int { lowMask.nonzeroBitCount + highMask.nonzeroBitCount }

    /// Calls `body` with every key the message retunes and its pitch in cents.
    public func forEachChangedKey(_ body: (_ key: Int, _ cents: Double) -> Void) {
        var mask = lowMask
        while mask != 0 {
            let key = mask.trailingZeroBitCount
            body(key, lowKeys[key])
            mask &= mask - 1
        }
        mask = highMask
        while mask != 0 {
            let key = mask.trailingZeroBitCount
            body(64 + key, highKeys[key])
            mask &= mask - 1
        }
    }

    /// The channels (0…15) a scale/octave tuning applies to, in order.
    public var channels: [Int] {
        guard case .scaleOctave(let bits) = form else { return [] }
        return (0..<16).filter { bits >> UInt16($0) & 1 != 0 }
    }

    /// The tuning's name, trailing spaces removed.
    public var name: String {
        var bytes: [UInt8] = (0..<16).map { nameBytes[$0] }
        while let last = bytes.last, last == 0x20 || last == 0 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Why bytes that announce a MIDI Tuning Standard message cannot be read as one. Offsets count
/// from the byte after `F0`.
public enum MIDITuningError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The message is shorter or longer than its form (sub-ID #2 `form`) has it, in bytes after
    /// `F0` without the closing `F7` — a truncated or oversized message, or a note count that
    /// does not match the notes that follow.
    case wrongLength(form: UInt8, expected: Int, found: Int)
    /// A byte with its top bit set where only 7-bit data belongs.
    case dataByteOutOfRange(form: UInt8, offset: Int, value: UInt8)
    /// A sub-ID #2 the standard does not define.
    case unknownForm(UInt8)

    public var description: String {
        switch self {
        case .wrongLength(let form, let expected, let found):
            let hint = found < expected ? "truncated" : "oversized"
            return "tuning message (form \(hex(form))): \(hint), \(found) bytes where \(expected) belong"
        case .dataByteOutOfRange(let form, let offset, let value):
            return "tuning message (form \(hex(form))): byte \(offset) is \(hex(value)), above 7F"
        case .unknownForm(let form):
            return "tuning message: unknown form \(hex(form))"
        }
    }

    private func hex(_ byte: UInt8) -> String {
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
