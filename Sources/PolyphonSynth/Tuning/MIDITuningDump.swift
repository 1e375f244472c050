/// Writing tunings as MIDI Tuning Standard messages: the bulk dump a synthesizer sends back
/// when asked, and the messages an application puts into a MIDI file to carry a tuning.
public enum MIDITuningDump {
    /// Bytes of a key-based bulk dump: `F0 7E dd 08 01 tt` (no bank) or `F0 7E dd 08 04 bb tt`,
    /// 16 name bytes, three bytes per key, checksum, `F7`.
    public static func byteCount(hasBank: Bool) -> Int { 1 + (hasBank ? 6 : 5) + 16 + 3 * 128 + 1 + 1 }

    /// A bulk dump of a tuning as tuning program `program` of `bank` (form `04`), or of
    /// program `program` alone (form `01`, bank 0) when `bank` is nil; `F0` … `F7`.
    public static func keyDump(_ tuning: Tuning, program: UInt8, bank: UInt8? = nil,
                               deviceID: UInt8 = MIDITuningMessage.allDevices) -> [UInt8] {
        var name = [UInt8](repeating: 0x20, count: 16)
        for (i, byte) in tuning.name.utf8.prefix(16).enumerated() { name[i] = byte >= 0x20 && byte < 0x7F ? byte : 0x3F }
        var out = [UInt8](repeating: 0, count: byteCount(hasBank: bank != nil))
        out.withUnsafeMutableBufferPointer { buffer in
            name.withUnsafeBufferPointer { name in
                _ = writeKeyDump(program: program, bank: bank, deviceID: deviceID, name: name,
                                 pitch: { tuning.keyCents[$0] }, into: buffer.baseAddress!)
            }
        }
        return out
    }

    /// A single-note tuning change (form `02`, or `07` with a bank) retuning `keys` of tuning
    /// program `program` to their pitch in `tuning`; `F0` … `F7`. Real-time unless asked
    /// otherwise (the form without a bank exists only in real time).
    public static func noteChange(_ tuning: Tuning, keys: [Int], program: UInt8, bank: UInt8? = nil,
                                  realTime: Bool = true, deviceID: UInt8 = MIDITuningMessage.allDevices) -> [UInt8] {
        let keys = keys.filter { (0...127).contains($0) }.prefix(127)
        var out: [UInt8] = [0xF0, bank == nil || realTime ? 0x7F : 0x7E, deviceID & 0x7F, 0x08, bank == nil ? 0x02 : 0x07]
        if let bank { out.append(bank & 0x7F) }
        out += [program & 0x7F, UInt8(keys.count)]
        for key in keys {
            let data = frequencyData(tuning.keyCents[key])
            out += [UInt8(key), data.0, data.1, data.2]
        }
        out.append(0xF7)
        return out
    }

    /// The three frequency-data bytes of a pitch in cents: the equal-tempered key at or below
    /// it, then the rest in 16384ths of a semitone. Clamped to the standard's range, below
    /// `7F 7F 7F` (which means "no change").
    public static func frequencyData(_ cents: Double) -> (UInt8, UInt8, UInt8) {
        let clamped = min(max(cents.isFinite ? cents : 0, 0), 12_799.99)
        var semitone = Int((clamped / 100).rounded(.down))
        var fraction = Int(((clamped - Double(semitone) * 100) * 16384 / 100).rounded())
        if fraction >= 16384 { semitone += 1; fraction -= 16384 }
        if semitone >= 127 && fraction >= 16383 { semitone = 127; fraction = 16382 }
        return (UInt8(semitone), UInt8(fraction >> 7), UInt8(fraction & 0x7F))
    }

    /// Writes a key-based bulk dump into `out` (room for ``byteCount(hasBank:)`` bytes); returns
    /// its length. `pitch(key)` gives each key's pitch in cents. Allocates nothing.
    static func writeKeyDump(program: UInt8, bank: UInt8?, deviceID: UInt8, name: UnsafeBufferPointer<UInt8>,
                             pitch: (Int) -> Double, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        func put(_ byte: UInt8) { out[n] = byte; n += 1 }
        put(0xF0)
        put(MIDITuningMessage.nonRealTime)
        put(deviceID & 0x7F)
        put(MIDITuningMessage.subID)
        if let bank {
            put(0x04)
            put(bank & 0x7F)
        } else {
            put(0x01)
        }
        put(program & 0x7F)
        for i in 0..<16 { put(i < name.count ? name[i] & 0x7F : 0x20) }
        for key in 0..<128 {
            let data = frequencyData(pitch(key))
            put(data.0)
            put(data.1)
            put(data.2)
        }
        var sum: UInt8 = 0
        for i in 1..<n { sum ^= out[i] }
        put(sum & 0x7F)
        put(0xF7)
        return n
    }
}
