import PolyphonMath
import PolyphonSoundFont

extension SoundFont {
    /// A complete General MIDI bank synthesized in code: no SoundFont file needed.
    ///
    /// All 128 GM melodic programs (bank 0, with the GM names) and the standard drum kit (bank 128,
    /// program 0 "Standard", keys 35–81). Every sample is made here from first principles —
    /// additive and PADsynth spectra by inverse FFT, Karplus-Strong strings, two-operator FM,
    /// filtered noise and time-domain drum models — with seamless loops, SF2 envelopes, filters,
    /// LFOs and several key ranges per instrument. No third-party data is involved.
    ///
    /// Built on first use (a few hundred milliseconds at most, a few megabytes of samples) and
    /// then shared; the bytes are the same on every run and platform, so
    /// `SoundFont.builtInGeneralMIDI.serialized()` is a reproducible `.sf2`.
    public static var builtInGeneralMIDI: SoundFont { GeneralMIDIBank.shared }
}

/// Assembles the built-in bank: renders each timbre and drum once, then writes one instrument
/// and one preset per program, plus the drum kit.
enum GeneralMIDIBank {
    /// Built once, thread-safely (Swift initialises a `static let` exactly once).
    static let shared: SoundFont = make()

    /// First-second RMS every sample is levelled to before the program's own trim.
    private static let referenceRMS = 0.25
    /// Attenuation every program starts from, so quiet programs can be trimmed up.
    private static let headroomDB = 4.0

    /// A stored sample and the attenuation that levels it.
    private struct Stored {
        var index: Int
        var levelDB: Double
        var looped: Bool
    }

    /// Renders everything and returns a new bank (``shared`` caches one).
    static func make() -> SoundFont {
        var builder = SoundFont.Builder(name: "Polyphon General MIDI")
        builder.info.engineers = "Polyphon"
        builder.info.software = "Polyphon"
        builder.info.comments = "General MIDI bank synthesized in code by Polyphon: additive and PADsynth spectra, "
            + "Karplus-Strong strings, FM and noise models. No recorded samples."
        // Transforms are built once and shared read-only by the concurrent renders.
        var transforms: [Int: FourierTransform] = [:]
        for size in [4096, 8192, 16384, 65536] { transforms[size] = FourierTransform(size: size) }

        // Timbres, rendered once each (concurrently; each from its own seed) and shared by
        // every program that names them. Samples are stored in timbre order.
        let used = Set(GeneralMIDIPrograms.all.map(\.timbre))
        let names = TimbreName.allCases.filter { used.contains($0) }
        let shared = transforms
        // Each worker converts its samples to 16 bits before returning, so the floating-point
        // points are freed while other timbres render (less memory, fewer page faults).
        let rendered = ParallelRendering.map(names.count) { i in
            names[i].timbre.render(seed: UInt64(names[i].rawValue + 1) &* 0x9E37_79B9, transforms: shared)
                .map { $0.map(prepare) }
        }
        var timbreSamples: [TimbreName: [[Stored]]] = [:]
        for (name, samples) in zip(names, rendered) {
            let roots = name.timbre.roots
            timbreSamples[name] = samples.enumerated().map { i, channels in
                channels.enumerated().map { c, sample in
                    let label = String(String(describing: name).prefix(14)) + " \(roots[i])" + (channels.count > 1 ? (c == 0 ? "L" : "R") : "")
                    return store(sample, name: label, in: &builder)
                }
            }
        }

        for (program, patch) in GeneralMIDIPrograms.all.enumerated() {
            let timbre = patch.timbre.timbre
            let samples = timbreSamples[patch.timbre]!
            var zones: [Zone] = []
            for (i, channels) in samples.enumerated() {
                let range = keyRange(of: i, roots: timbre.roots)
                let layers: [(sample: Stored, pan: Double, cents: Int)]
                if channels.count == 2 {
                    layers = [(channels[0], -patch.width, -patch.detune), (channels[1], patch.width, patch.detune)]
                } else if patch.detune != 0 {
                    layers = [(channels[0], -patch.width, -patch.detune), (channels[0], patch.width, patch.detune)]
                } else {
                    layers = [(channels[0], 0, 0)]
                }
                for layer in layers {
                    // Two decorrelated layers add 3 dB of power over one centred voice.
                    let trim = patch.gain + GeneralMIDIPrograms.loudnessTrim[program]
                    let db = layer.sample.levelDB + headroomDB - trim + (layers.count > 1 ? 3 : 0)
                    let (copies, attenuationDB) = stacked(db)
                    var g = [Generator.range(.keyRange, range)]
                    if layer.pan != 0 { g.append(Generator(.pan, Int16((500 * layer.pan).rounded()))) }
                    if layer.cents != 0 { g.append(Generator(.fineTune, Int16(layer.cents))) }
                    g.append(Generator(.initialAttenuation, attenuation(attenuationDB)))
                    g.append(Generator(.sampleModes, layer.sample.looped ? 1 : 0))
                    g.append(Generator(.sampleID, Int16(layer.sample.index)))
                    zones += [Zone](repeating: Zone(generators: g), count: copies)
                }
            }
            let (global, modulators) = globalGenerators(patch)
            let instrument = builder.addInstrument(patch.name, globalZone: Zone(generators: global, modulators: modulators), zones: zones)
            builder.addPreset(patch.name, bank: 0, program: UInt16(program),
                              zones: [Zone(generators: [Generator(.instrument, Int16(instrument))])])
        }

        addDrumKit(to: &builder)
        return builder.build()
    }

    private static func addDrumKit(to builder: inout SoundFont.Builder) {
        var stored: [DrumSound: Stored] = [:]
        let sounds = DrumSound.allCases
        let rendered = ParallelRendering.map(sounds.count) {
            prepare(sounds[$0].render(seed: 0xD7_0000 &+ UInt64(sounds[$0].rawValue) &* 7919))
        }
        for (sound, sample) in zip(sounds, rendered) {
            stored[sound] = store(sample, name: String(describing: sound).prefix(18) + " d", in: &builder)
        }
        let zones = GeneralMIDIDrumKit.drums.map { drum -> [Zone] in
            let s = stored[drum.sound]!
            let semitones = drum.tune.rounded(.towardZero)
            var g = [Generator.range(.keyRange, drum.key...drum.key),
                     Generator(.overridingRootKey, Int16(drum.key)),
                     Generator(.attackVolEnv, timecents(0.001))]
            if semitones != 0 { g.append(Generator(.coarseTune, Int16(semitones))) }
            let cents = Int16(((drum.tune - semitones) * 100).rounded())
            if cents != 0 { g.append(Generator(.fineTune, cents)) }
            if let decay = drum.decay {
                g.append(Generator(.decayVolEnv, timecents(decay)))
                g.append(Generator(.sustainVolEnv, 1440))
            }
            // Drum notes are often a few ticks long: the release falls as fast as the decay (or,
            // without one, slowly enough to let the sample ring out).
            g.append(Generator(.releaseVolEnv, timecents(drum.decay ?? 2.5)))
            if drum.pan != 0 { g.append(Generator(.pan, Int16((500 * drum.pan).rounded()))) }
            if drum.exclusiveClass != 0 { g.append(Generator(.exclusiveClass, Int16(drum.exclusiveClass))) }
            if let hz = drum.filter { g.append(Generator(.initialFilterFc, Int16(absoluteCents(hz).rounded()))) }
            g.append(Generator(.reverbEffectsSend, 150))
            let (copies, attenuationDB) = stacked(s.levelDB + headroomDB - drum.gain)
            g.append(Generator(.initialAttenuation, attenuation(attenuationDB)))
            g.append(Generator(.sampleModes, 0))
            g.append(Generator(.sampleID, Int16(s.index)))
            return [Zone](repeating: Zone(generators: g), count: copies)
        }.flatMap { $0 }
        let instrument = builder.addInstrument("Standard Kit", zones: zones)
        builder.addPreset("Standard", bank: 128, program: 0,
                          zones: [Zone(generators: [Generator(.instrument, Int16(instrument))])])
    }

    /// A sample converted for storage: peak-normalised 16-bit points and what the header and
    /// zones need.
    private struct PreparedSample: Sendable {
        var pcm: [Int16]
        /// The attenuation (negative: gain) that brings the RMS of the sample's first second to
        /// ``referenceRMS``; zones clamp their sums at 0.
        var levelDB: Double
        var loop: Range<Int>?
        var key: UInt8
        var cents: Int8
    }

    private static func prepare(_ sample: GeneratedSample) -> PreparedSample {
        let peak = max(sample.peak, 1e-12)
        let rms = sample.playbackRMS / peak * 0.97
        let scale = 0.97 * 32767 / peak
        // Round half away from zero by hand: the same result as `rounded()`, without a libm call
        // per point.
        let pcm = [Int16](unsafeUninitializedCapacity: sample.points.count) { buffer, count in
            for (i, x) in sample.points.enumerated() {
                let v = x * scale
                buffer[i] = Int16(truncatingIfNeeded: v >= 0 ? Int(v + 0.5) : -Int(-v + 0.5))
            }
            count = sample.points.count
        }
        let levelDB = 20 * PortableMath.log(max(rms, 1e-6) / referenceRMS) / PortableMath.log(10)
        let (key, cents) = sample.rootKeyAndCorrection
        return PreparedSample(pcm: pcm, levelDB: levelDB, loop: sample.loop, key: key, cents: cents)
    }

    /// Adds a prepared sample to the bank.
    private static func store(_ sample: PreparedSample, name: String, in builder: inout SoundFont.Builder) -> Stored {
        let index = builder.addSample(sample.pcm, name: name, sampleRate: UInt32(GeneratedSample.rate),
                                      originalPitch: sample.key, pitchCorrection: sample.cents, loop: sample.loop)
        return Stored(index: index, levelDB: sample.levelDB, looped: sample.loop != nil)
    }

    /// The keys played by root `i`: from halfway to the previous root to halfway to the next.
    private static func keyRange(of i: Int, roots: [Int]) -> ClosedRange<UInt8> {
        let low = i == 0 ? 0 : (roots[i - 1] + roots[i]) / 2 + 1
        let high = i == roots.count - 1 ? 127 : (roots[i] + roots[i + 1]) / 2
        return UInt8(low)...UInt8(high)
    }

    /// The instrument's global zone: envelopes, filter, LFOs, sends, and the velocity → cutoff
    /// modulator that makes harder notes brighter.
    private static func globalGenerators(_ p: ProgramPatch) -> ([Generator], [Modulator]) {
        var g: [Generator] = []
        let e = p.envelope
        g.append(Generator(.attackVolEnv, timecents(e.attack)))
        if e.hold > 0 { g.append(Generator(.holdVolEnv, timecents(e.hold))) }
        if e.decay > 0 {
            g.append(Generator(.decayVolEnv, timecents(e.decay)))
            g.append(Generator(.sustainVolEnv, Int16(min(1440, (e.sustainDB * 10).rounded()))))
        }
        g.append(Generator(.releaseVolEnv, timecents(e.release)))
        if p.keyToDecay != 0 { g.append(Generator(.keynumToVolEnvDecay, Int16(p.keyToDecay))) }
        var modulators: [Modulator] = []
        if let hz = p.filter {
            let cents = absoluteCents(hz) - Double(p.velocityToFilter)
            g.append(Generator(.initialFilterFc, Int16(min(13500, max(1500, cents.rounded())))))
            if p.resonance > 0 { g.append(Generator(.initialFilterQ, Int16((p.resonance * 10).rounded()))) }
            if p.velocityToFilter > 0 {
                modulators.append(Modulator(source: ModulatorSource(.noteOnVelocity), destination: .initialFilterFc,
                                            amount: Int16(p.velocityToFilter)))
            }
        }
        if let s = p.sweep {
            if s.attack > 0 { g.append(Generator(.attackModEnv, timecents(s.attack))) }
            g.append(Generator(.decayModEnv, timecents(s.decay)))
            g.append(Generator(.sustainModEnv, Int16(((1 - s.sustain) * 1000).rounded())))
            g.append(Generator(.releaseModEnv, timecents(s.release)))
            if s.filterCents != 0, p.filter != nil { g.append(Generator(.modEnvToFilterFc, Int16(s.filterCents))) }
            if s.pitchCents != 0 { g.append(Generator(.modEnvToPitch, Int16(s.pitchCents))) }
        }
        if let v = p.vibrato {
            g.append(Generator(.freqVibLFO, Int16(absoluteCents(v.rate).rounded())))
            g.append(Generator(.vibLfoToPitch, Int16(v.cents)))
            if v.delay > 0 { g.append(Generator(.delayVibLFO, timecents(v.delay))) }
        }
        if let t = p.tremolo {
            g.append(Generator(.freqModLFO, Int16(absoluteCents(t.rate).rounded())))
            g.append(Generator(.modLfoToVolume, Int16((t.dB * 10).rounded())))
        }
        if p.transpose != 0 { g.append(Generator(.coarseTune, Int16(p.transpose))) }
        if p.reverb > 0 { g.append(Generator(.reverbEffectsSend, Int16(p.reverb))) }
        if p.chorus > 0 { g.append(Generator(.chorusEffectsSend, Int16(p.chorus))) }
        return (g, modulators)
    }

    /// Seconds → timecents (≤ 1 ms is the spec's "instant").
    static func timecents(_ seconds: Double) -> Int16 {
        guard seconds > 0.001 else { return -12000 }
        return Int16(min(8000, (1200 * PortableMath.log2(seconds)).rounded()))
    }

    /// Hz → absolute cents (8.176 Hz = 0).
    static func absoluteCents(_ hz: Double) -> Double { 1200 * PortableMath.log2(hz / 8.175_798_915_643_707) }

    /// A zone cannot amplify: SoundFont 2.04 clamps a voice's total attenuation to 0–1440 cB,
    /// and FluidSynth does too, so a negative initialAttenuation (or a modulator's) gains nothing
    /// and the exported .sf2 must play the same there. A sound that must play louder than its
    /// sample at full scale — FluidR3_GM's gunshot, tuba, bowed pad — stacks identical copies of
    /// its zone, which sound in phase, 6 dB per doubling, at most four (+12 dB, four voices a
    /// note). Returns the copies and the attenuation in dB each then needs.
    static func stacked(_ db: Double) -> (copies: Int, attenuationDB: Double) {
        guard db < 0 else { return (1, db) }
        let copies = db < -6.02 ? 4 : 2
        return (copies, db + 20 * PortableMath.log(Double(copies)) / PortableMath.log(10))
    }

    /// dB of real attenuation → the initialAttenuation amount, which synthesizers following the
    /// EMU convention (FluidSynth, Polyphon) scale by 0.4.
    static func attenuation(_ db: Double) -> Int16 { Int16(min(1440, max(0, (db * 25).rounded()))) }
}
