import Foundation
import PolyphonAudio
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSFZCore
import PolyphonSoundFont
import PolyphonSynth

/// One parser under fuzzing: what it does with one input, and the rules that input must not
/// break. A broken rule stops the process (`fatalError`), which libFuzzer records as a crash
/// with the input that caused it; so do traps, out-of-bounds accesses (AddressSanitizer),
/// leaks, runaway allocations (`-rss_limit_mb`, `-malloc_limit_mb`) and hangs (`-timeout`).
enum FuzzTarget: String, CaseIterable, Sendable {
    /// The Standard MIDI File reader; what parses must write and read back to the same events.
    case midiFile = "midi-file"
    /// The SF2/SF3 reader, region resolution, and a short render of every preset found.
    case soundFont = "soundfont"
    /// The DLS Level 1/2 reader and region resolution of what it builds.
    case dls
    /// The SoundBankPlayer property list.
    case sampleBank = "sample-bank"
    /// The live MIDI byte-stream parser.
    case midiStream = "midi-stream"
    /// The WAV, AIFF and CAF readers.
    case audioFile = "audio-file"
    /// The SFZ reader: text, #define/#include (the input includes itself), inheritance, opcode
    /// values, sample resolution, and each region's playback settled against a sample.
    case sfz
    /// The SFZ engine mapping: the instrument an input reads as, with small decoded samples
    /// (mono, stereo, 24-bit, and one that fails), compiled into an `SFZSoundBank` and played
    /// briefly on several keys.
    case sfzEngine = "sfz-engine"

    /// Whether one input also renders audio (a slower target, with a smaller campaign).
    var renders: Bool { self == .soundFont || self == .sfzEngine }

    /// Runs one input.
    func run(_ bytes: [UInt8]) {
        switch self {
        case .midiFile: Self.midiFile(bytes)
        case .soundFont: Self.soundFont(bytes)
        case .dls: Self.dls(bytes)
        case .sampleBank: _ = try? SampleBankDescription(propertyList: Data(bytes), file: "fuzz.plist")
        case .midiStream: Self.midiStream(bytes)
        case .audioFile: Self.audioFile(bytes)
        case .sfz: Self.sfz(bytes)
        case .sfzEngine: Self.sfzMapped(bytes)
        }
    }

    private static func midiFile(_ bytes: [UInt8]) {
        guard let file = try? MIDIFile(bytes: bytes, name: "fuzz.mid") else { return }
        _ = file.timedEvents()
        _ = file.duration
        _ = try? DurationLimit().check(file)
        _ = Timeline(file: file, sampleRate: 44_100)
        let written = file.serialized()
        let again: MIDIFile
        do {
            again = try MIDIFile(bytes: written, name: "rewritten.mid")
        } catch {
            fatalError("a file that was read could not be read back after writing: \(error)")
        }
        // The writer ends every track with exactly one end of track, at its last event's tick
        // (the reader accepts tracks without one); every other event must come back unchanged.
        func withoutEnd(_ track: MIDITrack) -> [MIDIEvent] { track.events.filter { !$0.message.isEndOfTrack } }
        guard again.tracks.count == file.tracks.count, again.division == file.division,
              zip(again.tracks, file.tracks).allSatisfy({ withoutEnd($0) == withoutEnd($1) }),
              again.tracks.allSatisfy({ $0.events.last?.message.isEndOfTrack == true
                                        && $0.events.dropLast().allSatisfy { !$0.message.isEndOfTrack } }) else {
            fatalError("write → read changed the events")
        }
    }

    private static func soundFont(_ bytes: [UInt8]) {
        guard let bank = try? SoundFont(bytes: bytes, name: "fuzz.sf2") else { return }
        for index in bank.presets.indices { _ = bank.regions(forPresetAt: index) }
        // Voice shapings (the zext list's izvs) come back exactly from the bytes they write.
        let shapings = bank.instruments.map { $0.zones.map(\.shaping) }
        if shapings.contains(where: { $0.contains { $0 != nil } }),
           let again = try? SoundFont(bytes: bank.serialized(), name: "rewritten.sf2"),
           again.instruments.map({ $0.zones.map(\.shaping) }) != shapings {
            fatalError("voice shapings changed when written and read back")
        }
        var configuration = SynthesizerConfiguration(polyphony: 32)
        configuration.reverbEnabled = true
        configuration.chorusEnabled = true
        guard let synth = try? Synthesizer(soundBank: bank, sampleRate: 22_050, configuration: configuration) else { return }
        let frames = 96
        let left = UnsafeMutablePointer<Float>.allocate(capacity: frames)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: frames)
        defer { left.deallocate(); right.deallocate() }
        // Every preset: chosen by bank and program, a note in its first region's key range
        // and one outside it, with a bend and a controller, rendered for a few control periods.
        for (index, preset) in bank.presets.enumerated() {
            let channel: UInt8 = preset.bank >= 128 ? 9 : 0
            synth.sendProgramChange(UInt8(preset.program & 0x7F), bankMSB: UInt8(min(preset.bank, 127)), bankLSB: 0,
                                    onChannel: channel)
            let key = bank.regions(forPresetAt: index).first.map { $0.keyRange.lowerBound } ?? 60
            synth.startNote(key, withVelocity: 100, onChannel: channel)
            synth.startNote(127 &- key, withVelocity: 1, onChannel: channel, atFrame: 7)
            synth.sendPitchBend(UInt16(index * 977 % 16_384), onChannel: channel, atFrame: 30)
            synth.sendController(1, withValue: 127, onChannel: channel, atFrame: 31)
            synth.render(left: left, right: right, frameCount: frames)
            synth.stopNote(key, onChannel: channel)
            synth.render(left: left, right: right, frameCount: frames)
            synth.allSoundOff()
        }
    }

    private static func dls(_ bytes: [UInt8]) {
        guard let bank = try? SoundFont(dlsBytes: bytes, name: "fuzz.dls") else { return }
        for index in bank.presets.indices { _ = bank.regions(forPresetAt: index) }
    }

    private static func midiStream(_ bytes: [UInt8]) {
        var parser = MIDIByteStreamParser(maximumSysExLength: 256)
        for byte in bytes {
            switch parser.parse(byte) {
            case .channelVoice(let message)?:
                if case .systemExclusive = message { fatalError("a channel message carried SysEx") }
            case .systemExclusive(let body)?:
                guard body.count <= 256, body.allSatisfy({ $0 < 0x80 }) else { fatalError("bad SysEx body") }
            case .systemCommon(let status, let d1, let d2)?:
                guard (0xF1...0xF6).contains(status), d1 < 0x80, d2 < 0x80 else { fatalError("bad system common") }
            case .realTime(let status)?:
                guard status >= 0xF8 else { fatalError("bad real-time byte") }
            case nil:
                break
            }
        }
    }

    private static func audioFile(_ bytes: [UInt8]) {
        guard let file = try? AudioFile(bytes: bytes, path: "fuzz.wav") else { return }
        guard let first = file.channels.first else { return }
        guard file.channels.allSatisfy({ $0.count == first.count }) else { fatalError("channels of unequal length") }
    }

    /// The files an SFZ input may reach: itself (as the root and as `part.sfzh`, so includes
    /// recurse) and a few samples.
    private static func sfz(_ bytes: [UInt8]) {
        let files = SFZMemoryFileSystem(files: [
            "/f/root.sfz": bytes, "/f/part.sfzh": bytes, "/f/a.wav": [0], "/f/Samples/B.wav": [0],
        ])
        let limits = SFZReadingLimits()
        guard let instrument = try? SFZInstrument(path: "/f/root.sfz", fileSystem: files, limits: limits) else { return }
        guard instrument.regions.count <= limits.maximumRegionCount,
              instrument.warnings.count <= limits.maximumWarningCount + 1 else { fatalError("limits not kept") }
        let sample = SFZSampleMetadata(frameCount: 1000, sampleRate: 44_100, channelCount: 2, loop: SFZRange(10, 900), rootKey: 61)
        for region in instrument.regions {
            if let index = region.sampleIndex, !instrument.samples.indices.contains(index) { fatalError("sample index out of range") }
            if case .generator = region.playback.sample, region.sampleIndex != nil { fatalError("a generator with a file") }
            for metadata in [sample, nil] {
                let playback = region.resolvedPlayback(sample: metadata)
                guard playback.end >= 0, playback.loop.lower >= 0, playback.loop.upper <= max(playback.end, 0) || metadata == nil else {
                    fatalError("playback outside the sample: \(playback)")
                }
            }
            guard region.filters.count <= limits.maximumOpcodeIndex, region.lfos.count <= limits.maximumOpcodeIndex,
                  region.flexEnvelopes.allSatisfy({ $0.points.count <= limits.maximumOpcodeIndex + 1 }) else {
                fatalError("numbered opcodes beyond the limit")
            }
        }
        _ = instrument.regionIndexes(key: 60, velocity: 100)
        _ = instrument.looksLikeDrumKit
    }
}
