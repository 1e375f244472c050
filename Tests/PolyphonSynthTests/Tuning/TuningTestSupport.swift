import Foundation
import PolyphonAudio
import PolyphonMIDI
import PolyphonSoundFont
import Testing
@testable import PolyphonSynth

/// MIDI Tuning Standard messages written byte by byte from the standard (MMA CA-020/021), so
/// the engine's reading is checked against the text rather than against its own writer.
enum MTS {
    /// Frequency data for a pitch in cents: the equal-tempered key at or below it, then the
    /// rest in 16384ths of a semitone.
    static func frequency(_ cents: Double) -> [UInt8] {
        let semitone = Int((cents / 100).rounded(.down))
        let fraction = Int(((cents - Double(semitone) * 100) * 16384 / 100).rounded())
        return [UInt8(semitone), UInt8(fraction >> 7), UInt8(fraction & 0x7F)]
    }

    /// Single-note tuning change: form 02 (real-time, no bank) or 07 (with a bank).
    static func noteChange(program: UInt8, bank: UInt8? = nil, realTime: Bool = true,
                           _ keys: [(key: UInt8, cents: Double)]) -> [UInt8] {
        var m: [UInt8] = [0xF0, realTime ? 0x7F : 0x7E, 0x7F, 0x08, bank == nil ? 0x02 : 0x07]
        if let bank { m.append(bank) }
        m += [program, UInt8(keys.count)]
        for k in keys { m += [k.key] + frequency(k.cents) }
        return m + [0xF7]
    }

    /// Scale/octave tuning, one-byte form (08): offsets −64…+63 cents, C first.
    static func scaleOctave(channels: UInt16, offsets: [Int], realTime: Bool = true) -> [UInt8] {
        [0xF0, realTime ? 0x7F : 0x7E, 0x7F, 0x08, 0x08, UInt8(channels >> 14 & 3), UInt8(channels >> 7 & 0x7F),
         UInt8(channels & 0x7F)] + offsets.map { UInt8($0 + 64) } + [0xF7]
    }

    /// Scale/octave tuning, two-byte form (09): offsets ±100 cents in 16384 steps.
    static func scaleOctave(channels: UInt16, preciseOffsets offsets: [Double], realTime: Bool = true) -> [UInt8] {
        var m: [UInt8] = [0xF0, realTime ? 0x7F : 0x7E, 0x7F, 0x08, 0x09, UInt8(channels >> 14 & 3),
                          UInt8(channels >> 7 & 0x7F), UInt8(channels & 0x7F)]
        for o in offsets {
            let v = Int((o / 200 * 16384).rounded()) + 8192
            m += [UInt8(v >> 7), UInt8(v & 0x7F)]
        }
        return m + [0xF7]
    }

    /// Bulk tuning dump: form 01 (bank 0) or 04 (with a bank); `cents(key)` nil sends "no change".
    static func bulkDump(program: UInt8, bank: UInt8? = nil, name: String = "test",
                         _ cents: (Int) -> Double?) -> [UInt8] {
        var body: [UInt8] = [0x7E, 0x7F, 0x08, bank == nil ? 0x01 : 0x04]
        if let bank { body.append(bank) }
        body.append(program)
        body += Array((name + String(repeating: " ", count: 16)).utf8.prefix(16))
        for key in 0..<128 { body += cents(key).map(frequency) ?? [0x7F, 0x7F, 0x7F] }
        body.append(body.reduce(0, ^) & 0x7F)
        return [0xF0] + body + [0xF7]
    }

    /// RPN 4 (tuning bank) then RPN 3 (tuning program) on a channel, then the RPN deselected.
    static func select(program: UInt8, bank: UInt8 = 0, channel: UInt8) -> [MIDIMessage] {
        [.controlChange(channel: channel, controller: 101, value: 0), .controlChange(channel: channel, controller: 100, value: 4),
         .controlChange(channel: channel, controller: 6, value: bank),
         .controlChange(channel: channel, controller: 101, value: 0), .controlChange(channel: channel, controller: 100, value: 3),
         .controlChange(channel: channel, controller: 6, value: program),
         .controlChange(channel: channel, controller: 101, value: 127), .controlChange(channel: channel, controller: 100, value: 127)]
    }

    static let gmSystemOn: [UInt8] = [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]
}

extension TestBank {
    /// The sine in two regions: keys 0–69 as recorded, keys 70–127 tuned 20 cents sharp (fine
    /// tune +20), as if from another sample, so a render shows which region a note played.
    static func sineSplitAtKey70() -> SoundFont {
        let n = UInt32(sinePeriod * 20)
        let header = SampleHeader(name: "sine", start: 0, end: n, loopStart: UInt32(sinePeriod), loopEnd: n,
                                  sampleRate: sineRate, originalPitch: 69, pitchCorrection: 0)
        let low = Zone(generators: [Generator.range(.keyRange, 0...69), Generator(.sampleModes, 1), Generator(.sampleID, 0)])
        let high = Zone(generators: [Generator.range(.keyRange, 70...127), Generator(.fineTune, 20), Generator(.sampleModes, 1),
                                     Generator(.sampleID, 0)])
        let inst = Instrument(name: "split sine", zones: [low, high])
        let pzone = Zone(generators: [Generator(.instrument, 0)])
        let presets = [Preset(name: "Split", program: 0, bank: 0, zones: [pzone]),
                       Preset(name: "Split kit", program: 0, bank: 128, zones: [pzone])]
        return SoundFont(presets: presets, instruments: [inst], samples: [header],
                         sampleData: SampleData(copying: sineSamples()))
    }
}

/// A short piece as timed messages, rendered by Polyphon and by FluidSynth, and pitch measured
/// on both renders.
struct TuningScore {
    var events: [(seconds: Double, message: MIDIMessage)] = []
    /// The notes played, for measuring: channel, key, start and end in seconds.
    var notes: [(channel: UInt8, key: UInt8, start: Double, end: Double)] = []
    static let rate = 44_100.0

    mutating func send(_ message: MIDIMessage, at seconds: Double) { events.append((seconds, message)) }
    mutating func send(_ messages: [MIDIMessage], at seconds: Double) { for m in messages { send(m, at: seconds) } }
    mutating func sysEx(_ bytes: [UInt8], at seconds: Double) { send(.systemExclusive(Array(bytes.dropFirst())), at: seconds) }

    /// A note from `start` for `length` seconds; returns its index in ``notes``.
    @discardableResult
    mutating func note(_ key: UInt8, channel: UInt8 = 0, at start: Double, length: Double = 0.6) -> Int {
        send(.noteOn(channel: channel, note: key, velocity: 100), at: start)
        send(.noteOff(channel: channel, note: key, velocity: 0), at: start + length)
        notes.append((channel, key, start, start + length))
        return notes.count - 1
    }

    var duration: Double { (events.map(\.seconds).max() ?? 0) + 0.5 }

    /// This score with its SysEx messages replaced by `other`'s events.
    func replacingSystemExclusive(with other: TuningScore) -> TuningScore {
        var score = self
        score.events.removeAll {
            if case .systemExclusive = $0.message { true } else { false }
        }
        score.events.insert(contentsOf: other.events, at: 0)
        return score
    }

    /// Polyphon's render (left channel), every event on its exact frame.
    func renderPolyphon(_ bank: SoundFont, fluidSynthCompatible: Bool = false,
                        configure: (inout SynthesizerConfiguration) -> Void = { _ in }) throws -> [Float] {
        var configuration = SynthesizerConfiguration.dry
        configuration.fluidSynthCompatible = fluidSynthCompatible
        configure(&configuration)
        let synth = try Synthesizer(soundBank: bank, sampleRate: Self.rate, configuration: configuration)
        for e in events.sorted(by: { $0.seconds < $1.seconds }) {
            synth.send(e.message, atFrame: Int((e.seconds * Self.rate).rounded()))
        }
        return synth.renderSeconds(duration).left
    }

    /// FluidSynth's render of the same events as a Standard MIDI File (960 ticks a second).
    func renderFluidSynth(_ bank: SoundFont) throws -> [Float] {
        let dir = try TemporaryDirectory(prefix: "polyphon-tuning")
        try bank.write(to: dir.file("bank.sf2"))
        return try renderFluidSynth(bankFile: dir.file("bank.sf2"))
    }

    /// FluidSynth's render with the bank in `bankFile` (an installed bank such as FluidR3_GM).
    func renderFluidSynth(bankFile: String) throws -> [Float] {
        let fluidsynth = try #require(RealFiles.tool("fluidsynth"), "fluidsynth is required under CI")
        let dir = try TemporaryDirectory(prefix: "polyphon-tuning")
        var midi = events.sorted(by: { $0.seconds < $1.seconds }).map {
            MIDIEvent(tick: Int(($0.seconds * 960).rounded()), message: $0.message)
        }
        midi.append(MIDIEvent(tick: Int(duration * 960), message: .meta(.endOfTrack)))
        try MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDITrack(events: midi)])
            .write(to: URL(fileURLWithPath: dir.file("song.mid")))
        let r = try runProcess(fluidsynth, ["-ni", "-q", "-R", "0", "-C", "0", "-g", "0.2", "-r", "44100", "-O", "float",
                                            "-T", "wav", "-F", dir.file("out.wav"), bankFile, dir.file("song.mid")])
        try #require(r.status == 0, "\(r.stderr)")
        return try AudioFile(contentsOf: dir.file("out.wav")).channels[0]
    }

    /// The frequency of note `index` in a render, measured from 0.1 s after it starts to 0.05 s
    /// before it ends (past FluidSynth's late onsets).
    func frequency(ofNote index: Int, in render: [Float]) -> Double {
        let n = notes[index]
        return frequency(from: n.start + 0.1, to: n.end - 0.05, in: render)
    }

    func frequency(from start: Double, to end: Double, in render: [Float]) -> Double {
        let a = Int(start * Self.rate), b = min(render.count, Int(end * Self.rate))
        return Measure.frequency(render[a..<b], rate: Self.rate)
    }
}

extension Measure {
    /// The fundamental of a harmonic sound near `expected` Hz (within ±3 semitones): the lag of
    /// the strongest normalised autocorrelation in that range, refined between lags by a
    /// parabola. Zero crossings miscount on recorded instruments, whose overtones cross zero
    /// between the fundamental's crossings.
    static func fundamental(_ x: ArraySlice<Float>, rate: Double, near expected: Double) -> Double {
        let a = x.map(Double.init)
        let shortest = Int(rate / (expected * 1.19)), longest = Int(rate / (expected / 1.19)) + 1
        guard a.count > 2 * longest + 2, shortest > 1 else { return 0 }
        let n = a.count - longest - 1
        func r(_ lag: Int) -> Double {
            var product = 0.0, energyA = 0.0, energyB = 0.0
            for i in 0..<n {
                product += a[i] * a[i + lag]
                energyA += a[i] * a[i]
                energyB += a[i + lag] * a[i + lag]
            }
            return product / max(1e-30, (energyA * energyB).squareRoot())
        }
        let scores = (shortest - 1...longest + 1).map(r)
        var best = 1
        for i in 1..<(scores.count - 1) where scores[i] > scores[best] { best = i }
        let (l, c, h) = (scores[best - 1], scores[best], scores[best + 1])
        let offset = (l - h) / (2 * (l - 2 * c + h))
        return rate / (Double(shortest - 1 + best) + (offset.isFinite ? offset : 0))
    }

    /// The frequency of a pitch in cents above MIDI key 0 (8.176 Hz).
    static func hertz(cents: Double) -> Double { Tuning.keyZeroFrequency * pow(2, cents / 1200) }
}
