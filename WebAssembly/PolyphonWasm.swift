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

/// As ``polyphonCreate(_:_:_:_:)`` for several SF2 banks played as one (``SoundFont/merging(_:)``:
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
/// it (``SoundFont/merging(_:)``), which copies the sample pool once into memory of its own —
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
