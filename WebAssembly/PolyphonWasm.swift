// The C ABI of Polyphon's WebAssembly module: the portable core (a bank read from SF2 bytes,
// the synthesizer and its effects) behind a handful of functions a JavaScript wrapper calls.
// Memory is handed out by polyphon_alloc/polyphon_free; a synthesizer is a small integer
// handle. Built as Embedded Swift (Scripts/build-wasm.sh); no libc (runtime.c brings what the
// core needs).
import PolyphonMIDICore
import PolyphonSoundFontCore
import PolyphonSynth

/// Live synthesizers by handle; a freed slot is reused.
nonisolated(unsafe) private var synthesizers: [Synthesizer?] = []

private func synthesizer(_ handle: Int32) -> Synthesizer? {
    handle >= 0 && Int(handle) < synthesizers.count ? synthesizers[Int(handle)] : nil
}

/// `size` bytes of the module's memory, 16-byte aligned; 0 when none is left.
@_cdecl("polyphon_alloc")
public func polyphonAlloc(_ size: Int32) -> UnsafeMutableRawPointer? {
    guard size >= 0 else { return nil }
    return UnsafeMutableRawPointer.allocate(byteCount: max(1, Int(size)), alignment: 16)
}

/// Returns memory from ``polyphonAlloc(_:)``.
@_cdecl("polyphon_free")
public func polyphonFree(_ pointer: UnsafeMutableRawPointer?) {
    pointer?.deallocate()
}

/// `options` bit for ``polyphonCreate(_:_:_:_:)``: no reverb.
let optionNoReverb: Int32 = 1
/// `options` bit: no chorus.
let optionNoChorus: Int32 = 2

/// A synthesizer at `sampleRate` playing the SF2 bank whose `count` bytes lie at `bytes`
/// (its samples copied; the caller may free the bytes). Settings as `polyphon render`: gain 0.2, cubic
/// interpolation, 256 voices, reverb and chorus on unless `options` turns them off (bit 1: no
/// reverb, bit 2: no chorus). Returns a handle ≥ 0, or −1 when the bytes are not a SoundFont 2
/// bank, −2 when the synthesizer cannot be made.
@_cdecl("polyphon_create")
public func polyphonCreate(_ sampleRate: Double, _ bytes: UnsafePointer<UInt8>?, _ count: Int32, _ options: Int32) -> Int32 {
    guard let bank = readBank(bytes, count).flatMap({ SoundFont.merging([$0]) }) else { return -1 }
    return makeSynthesizer(sampleRate, bank, options)
}

/// As ``polyphonCreate(_:_:_:_:)`` for several SF2 banks played as one (``SoundFont/merging(_:copyingSamples:)``:
/// the earlier bank's preset wins where two hold the same bank and program). `table` holds
/// `count` pairs of 32-bit words: each bank's address and byte count. Returns −1 when one of
/// them is not a SoundFont 2 bank or they cannot be merged.
@_cdecl("polyphon_create_merged")
public func polyphonCreateMerged(_ sampleRate: Double, _ table: UnsafePointer<Int32>?, _ count: Int32, _ options: Int32) -> Int32 {
    guard let table, count > 0 else { return -1 }
    var banks: [SoundFont] = []
    for i in 0..<Int(count) {
        let address = UInt(UInt32(bitPattern: table[2 * i]))
        guard let bank = readBank(UnsafePointer(bitPattern: address), table[2 * i + 1]) else { return -1 }
        banks.append(bank)
    }
    guard let bank = SoundFont.merging(banks) else { return -1 }
    return makeSynthesizer(sampleRate, bank, options)
}

/// Stands in for the owner of memory the caller keeps until the call returns.
private final class CallersMemory {}

/// A bank read in place from the caller's bytes: valid only during the call, so callers merge
/// it (``SoundFont/merging(_:copyingSamples:)``), which copies the sample pool once into memory of its own —
/// one pass over the megabytes instead of four, on a browser's audio thread.
private func readBank(_ bytes: UnsafePointer<UInt8>?, _ count: Int32) -> SoundFont? {
    guard let bytes, count > 0 else { return nil }
    return try? SoundFont(bytes: UnsafeRawBufferPointer(start: bytes, count: Int(count)), owner: CallersMemory(),
                          name: "bank.sf2", sampleDecoder: nil)
}

private func makeSynthesizer(_ sampleRate: Double, _ bank: SoundFont, _ options: Int32) -> Int32 {
    var configuration = SynthesizerConfiguration()
    configuration.reverbEnabled = options & optionNoReverb == 0
    configuration.chorusEnabled = options & optionNoChorus == 0
    guard let synth = try? Synthesizer(soundBank: bank, sampleRate: sampleRate, configuration: configuration) else { return -2 }
    if let free = synthesizers.firstIndex(where: { $0 == nil }) {
        synthesizers[free] = synth
        return Int32(free)
    }
    synthesizers.append(synth)
    return Int32(synthesizers.count - 1)
}

/// Sends one complete MIDI message (`count` bytes: a channel voice message, or a SysEx from F0
/// to F7, as Web MIDI delivers them) to sound `frameOffset` frames into the next render call.
/// Returns 0, or −1 when the bytes are not one such message (``MIDIMessage/init(bytes:)``).
@_cdecl("polyphon_send")
public func polyphonSend(_ handle: Int32, _ bytes: UnsafePointer<UInt8>?, _ count: Int32, _ frameOffset: Int32) -> Int32 {
    guard let synth = synthesizer(handle), let bytes, count > 0,
          let message = try? MIDIMessage(bytes: UnsafeBufferPointer(start: bytes, count: Int(count))) else { return -1 }
    synth.send(message, atFrame: Int(max(0, frameOffset)))
    return 0
}

/// Renders `frames` frames into two float buffers (each `frames` long).
@_cdecl("polyphon_render")
public func polyphonRender(_ handle: Int32, _ left: UnsafeMutablePointer<Float>?, _ right: UnsafeMutablePointer<Float>?,
                           _ frames: Int32) {
    guard let synth = synthesizer(handle), let left, let right, frames > 0 else { return }
    synth.render(left: left, right: right, frameCount: Int(frames))
}

/// Voices sounding now.
@_cdecl("polyphon_active_voices")
public func polyphonActiveVoices(_ handle: Int32) -> Int32 {
    Int32(synthesizer(handle)?.activeVoiceCount ?? 0)
}

/// Turns per-channel level metering on (`on` ≠ 0) or off (``Synthesizer/channelLevelMetering``).
@_cdecl("polyphon_set_channel_metering")
public func polyphonSetChannelMetering(_ handle: Int32, _ on: Int32) {
    synthesizer(handle)?.channelLevelMetering = on != 0
}

/// Writes the levels of channels 0 ..< `count` in dBFS (−∞ when silent) into `levels`.
@_cdecl("polyphon_channel_levels")
public func polyphonChannelLevels(_ handle: Int32, _ levels: UnsafeMutablePointer<Float>?, _ count: Int32) {
    guard let synth = synthesizer(handle), let levels else { return }
    for c in 0..<Int(max(0, count)) { levels[c] = synth.channelLevel(c) }
}

/// Every voice stops and every channel returns to its defaults.
@_cdecl("polyphon_reset")
public func polyphonReset(_ handle: Int32) {
    synthesizer(handle)?.reset()
}

/// Frees a synthesizer and its bank.
@_cdecl("polyphon_destroy")
public func polyphonDestroy(_ handle: Int32) {
    if synthesizer(handle) != nil { synthesizers[Int(handle)] = nil }
}

// MARK: MIDI files

/// Record kinds of ``polyphonMIDIRead(_:_:_:_:)``'s answer.
private enum MIDIRecordKind: UInt8 {
    /// Bytes for the synthesizer: a channel message, or a SysEx starting with F0.
    case message = 0
    /// A tempo: microseconds per quarter note, 4 bytes little-endian.
    case tempo = 1
    /// A time signature: the meta event's 4 bytes (numerator, denominator exponent, clocks, 32nds).
    case timeSignature = 2
    /// A text meta event: its type byte (1 text, 3 track name, 4 instrument, 5 lyric, 6 marker…),
    /// then the text's bytes as written.
    case text = 3
    /// A port meta event: the port number.
    case port = 4
}

/// Little-endian bytes, appended to.
private struct ByteWriter {
    var bytes: [UInt8] = []
    mutating func int32(_ value: Int32) {
        let bits = UInt32(bitPattern: value)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(shift))) }
    }
    mutating func float64(_ value: Double) {
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }
    /// A record: seconds, tick, track, kind, then the payload's length and bytes, padded to 4.
    mutating func record(_ event: TimedMIDIEvent, _ kind: MIDIRecordKind, _ payload: [UInt8]) {
        float64(event.seconds)
        int32(Int32(clamping: event.tick))
        int32(Int32(clamping: event.trackIndex))
        int32(Int32(kind.rawValue))
        int32(Int32(payload.count))
        bytes.append(contentsOf: payload)
        while bytes.count % 4 != 0 { bytes.append(0) }
    }
}

/// A message's bytes as a synthesizer takes them; nil for meta events and SysEx continuations.
private func synthesizerBytes(_ message: MIDIMessage) -> [UInt8]? {
    switch message {
    case .noteOff(let c, let k, let v): return [0x80 | c & 0x0F, k & 0x7F, v & 0x7F]
    case .noteOn(let c, let k, let v): return [0x90 | c & 0x0F, k & 0x7F, v & 0x7F]
    case .polyphonicKeyPressure(let c, let k, let p): return [0xA0 | c & 0x0F, k & 0x7F, p & 0x7F]
    case .controlChange(let c, let n, let v): return [0xB0 | c & 0x0F, n & 0x7F, v & 0x7F]
    case .programChange(let c, let p): return [0xC0 | c & 0x0F, p & 0x7F]
    case .channelPressure(let c, let p): return [0xD0 | c & 0x0F, p & 0x7F]
    case .pitchBend(let c, let v): return [0xE0 | c & 0x0F, UInt8(v & 0x7F), UInt8((v >> 7) & 0x7F)]
    case .systemExclusive(let body): return [0xF0] + body
    case .sysExContinuation, .meta: return nil
    }
}

/// Reads the Standard MIDI File (or RIFF RMID) whose `count` bytes lie at `bytes`, as
/// `polyphon render` reads it, into a buffer from ``polyphonAlloc(_:)`` the caller frees. Little
/// endian, 32-bit words: status (0: read, 1: not read), the buffer's byte count, then
///
/// - when not read: the error's length and its text (UTF-8: file name, track, byte offset and
///   the problem), named `name` (`nameCount` UTF-8 bytes);
/// - when read: the format, ticks per quarter note (0 for SMPTE), the track count, the record
///   count, the song's duration in seconds (a 64-bit float: its last event, end of track
///   included), then the records in the order a player sends them — each the time in seconds
///   (64-bit float), tick, track, kind (``MIDIRecordKind``), payload length, payload (padded to 4);
///   then the reader's warnings about a damaged file it could still read (at most 16): their
///   count, then each one's length and text (UTF-8: track, byte offset and the problem, padded
///   to 4).
///
/// Returns nil when no memory is left.
@_cdecl("polyphon_midi_read")
public func polyphonMIDIRead(_ bytes: UnsafePointer<UInt8>?, _ count: Int32, _ name: UnsafePointer<UInt8>?,
                             _ nameCount: Int32) -> UnsafeMutableRawPointer? {
    let input = bytes.map { Array(UnsafeBufferPointer(start: $0, count: Int(max(0, count)))) } ?? []
    let fileName = name.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(max(0, nameCount))), as: UTF8.self) }
        ?? "MIDI data"
    var out = ByteWriter()
    do throws(MIDIFileError) {
        let file = try MIDIFile(bytes: input, name: fileName)
        let timed = file.timedEvents()
        out.int32(0)
        out.int32(0)  // the byte count, set below
        out.int32(Int32(file.format.rawValue))
        out.int32(Int32(file.ticksPerQuarterNote ?? 0))
        out.int32(Int32(clamping: file.tracks.count))
        out.int32(0)  // the record count, set below
        out.float64(file.duration)
        var records: Int32 = 0
        for event in timed {
            switch event.message {
            case .meta(.tempo(let microseconds)):
                out.record(event, .tempo, [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: microseconds >> UInt32($0)) })
            case .meta(.timeSignature(let signature)):
                out.record(event, .timeSignature, MetaEvent.timeSignature(signature).data)
            case .meta(.text(let kind, let text)):
                out.record(event, .text, [kind.rawValue] + text.bytes)
            case .meta(.port(let port)):
                out.record(event, .port, [port])
            default:
                guard let message = synthesizerBytes(event.message) else { continue }
                out.record(event, .message, message)
            }
            records += 1
        }
        setWord(&out.bytes, 20, records)
        let warnings = file.warnings.prefix(16)
        out.int32(Int32(warnings.count))
        for warning in warnings {
            let text = Array(warning.description.utf8)
            out.int32(Int32(text.count))
            out.bytes.append(contentsOf: text)
            while out.bytes.count % 4 != 0 { out.bytes.append(0) }
        }
    } catch {
        let text = Array(error.description.utf8)
        out.int32(1)
        out.int32(0)
        out.int32(Int32(text.count))
        out.bytes.append(contentsOf: text)
    }
    setWord(&out.bytes, 4, Int32(clamping: out.bytes.count))
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: out.bytes.count, alignment: 16)
    out.bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    return buffer
}

private func setWord(_ bytes: inout [UInt8], _ offset: Int, _ value: Int32) {
    let bits = UInt32(bitPattern: value)
    for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: bits >> UInt32(8 * i)) }
}
