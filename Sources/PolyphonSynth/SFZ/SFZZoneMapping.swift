import PolyphonSFZCore
import PolyphonSoundFontCore

/// One SFZ region as the generators and modulators of an SF2 instrument zone, in the units the
/// voice already plays: the conversions sfizz's arithmetic needs to come out of the SF2 voice
/// unchanged.
///
/// - pitch: `(key − pitch_keycenter) × pitch_keytrack + transpose × 100 + tune` cents is SF2's
///   `scaleTuning × (key − overridingRootKey) + coarseTune × 100 + fineTune`;
/// - level: `volume` (+ the `global_`/`master_`/`group_` volumes) and `amplitude` (and theirs)
///   as dB of attenuation; the engine scales the attenuation generator by FluidSynth's 0.4, so
///   the generator holds cB ÷ 0.4 (a gain above 0 dB travels in the zone's `AmplitudeShape`).
///   SF2's default velocity modulator gives 40·log10(v/127) dB, which is sfizz's default
///   `amp_veltrack=100` curve (v/127)²; other velocity tracking cancels it for sfizz's curve;
/// - envelope: seconds as timecents; sfizz's decay and release fall by exp(−9) (78.17 dB) per
///   stated time where SF2's fall 96 dB, so those two times are stretched by 96/78.17 and the
///   slopes agree; sustain % as cB of attenuation;
/// - playback: SFZ's inclusive `end` and `loop_end` become SF2's exclusive ends (+1), as
///   offsets from the sample's own start, end and loop (the whole sample).
struct SFZZoneMapping {
    /// dB SF2 falls over a decay or release time, over dB sfizz falls (20·log10(e⁹)).
    static let envelopeTimeStretch: Float = 96 / (9 * 20 / 2.302585092994046)

    /// The SF2 default modulators the SFZ voice has no counterpart of, cancelled (an identical
    /// instrument modulator of amount 0 replaces a default): velocity → cutoff, pressure and
    /// modulation wheel → vibrato, the reverb and chorus sends.
    static let cancelledDefaults: [Modulator] = Modulator.defaults.compactMap { modulator in
        let generator = modulator.destinationGenerator
        let cancelled = generator == .initialFilterFc || generator == .vibLfoToPitch
            || generator == .reverbEffectsSend || generator == .chorusEffectsSend
        guard cancelled else { return nil }
        var zero = modulator
        zero.amount = 0
        return zero
    }

    /// Generators of the zone playing `region` from sample header `sampleID` (which spans the
    /// whole decoded channel of `frameCount` frames, its loop the whole sample), panned to
    /// `pan` ‰ (−500 … 500; a stereo file's sides hard left and right, placed in the voice by
    /// their `StereoShape`).
    static func generators(_ region: SFZRegion, playback: SFZResolvedPlayback, sampleID: Int, frameCount: Int,
                           pan: Float) -> [Generator] {
        var generators: [Generator] = [
            .range(.keyRange, region.selection.keys.lower...region.selection.keys.upper),
            .range(.velRange, region.selection.velocities.lower...region.selection.velocities.upper),
        ]
        generators += addressOffsets(.startAddrsOffset, .startAddrsCoarseOffset, playback.offset)
        generators += addressOffsets(.endAddrsOffset, .endAddrsCoarseOffset, playback.end + 1 - frameCount)
        // `count`: the voice loops offset…end − 1 (sfizz jumps back end − offset frames) as
        // many times as the sample repeats (its note-start shape counts them), then ends.
        let repeatsSample = !playback.loops && sampleRepeats(region) != nil
        if playback.loops || repeatsSample {
            let loop = repeatsSample ? SFZRange(playback.offset, max(playback.end - 1, playback.offset)) : playback.loop
            generators += addressOffsets(.startloopAddrsOffset, .startloopAddrsCoarseOffset, loop.lower)
            generators += addressOffsets(.endloopAddrsOffset, .endloopAddrsCoarseOffset, loop.upper + 1 - frameCount)
        }
        let sampleModes: Int16 = switch playback.loopMode {
        case .continuous: 1
        case .sustain: 3
        case .noLoop, .oneShot: repeatsSample ? 1 : 0
        }
        generators.append(Generator(.sampleModes, sampleModes))

        // Pitch.
        generators.append(Generator(.overridingRootKey, Int16(playback.keycenter)))
        generators.append(Generator(.scaleTuning, clampedInt16(region.pitch.keytrack, 0...1200)))
        let cents = (region.pitch.transpose * 100 + region.pitch.tune.value).rounded()
        let coarse = (cents / 100).rounded(.towardZero)
        generators.append(Generator(.coarseTune, clampedInt16(coarse, -120...120)))
        generators.append(Generator(.fineTune, clampedInt16(cents - coarse * 100, -99...99)))

        // Level and pan.
        let attenuation = -gainDecibels(region.amplitude) * 10 / 0.4
        generators.append(Generator(.initialAttenuation, clampedInt16(attenuation.rounded(), 0...3600)))
        generators.append(Generator(.pan, clampedInt16(pan.rounded(), -500...500)))

        // Amplitude envelope (held at full level under a flex envelope that replaces it).
        let envelope = playsFlexAmplitudeEnvelope(region) ? SFZEnvelope() : region.amplitudeEnvelope
        generators.append(Generator(.delayVolEnv, timecents(envelope.delay)))
        generators.append(Generator(.attackVolEnv, timecents(envelope.attack)))
        generators.append(Generator(.holdVolEnv, timecents(envelope.hold)))
        generators.append(Generator(.decayVolEnv, timecents(envelope.decay * envelopeTimeStretch, zero: -12000)))
        generators.append(Generator(.sustainVolEnv, sustainCentibels(envelope.sustain)))
        // one_shot ignores note-off through its zone's play condition; the release acts when a
        // polyphony group cuts the voice.
        generators.append(Generator(.releaseVolEnv, timecents(envelope.release * envelopeTimeStretch, zero: -12000)))
        generators.append(Generator(.sampleID, Int16(clamping: sampleID)))
        return generators
    }

    /// The region's gain in dB: its volumes and amplitudes with those of its headers.
    static func gainDecibels(_ amplitude: SFZAmplitude) -> Float {
        let volume = amplitude.volume.value + amplitude.globalVolume + amplitude.masterVolume + amplitude.groupVolume
        let linear = Double(amplitude.amplitude.value / 100) * Double(amplitude.globalAmplitude / 100)
            * Double(amplitude.masterAmplitude / 100) * Double(amplitude.groupAmplitude / 100)
        guard linear > 0 else { return -.infinity }
        return volume + Float(20 * Math.log10(linear))
    }

    /// Seconds as timecents; 0 s (or less) as `zero` — −32768, which the voice reads as no
    /// time at all for delay, attack and hold.
    static func timecents(_ seconds: Float, zero: Int16 = -32768) -> Int16 {
        guard seconds > 0 else { return zero }
        return clampedInt16((1200 * Math.log2(Double(seconds))).rounded(), -12000...8000)
    }

    /// A sustain level in percent of full scale as cB of attenuation (0 % → 1440, silence).
    static func sustainCentibels(_ percent: Float) -> Int16 {
        guard percent > 0 else { return 1440 }
        return clampedInt16((-200 * Math.log10(Double(min(percent, 100)) / 100)).rounded(), 0...1440)
    }

    /// An address offset in frames as SF2's fine and coarse (× 32768) generators.
    static func addressOffsets(_ fine: GeneratorType, _ coarse: GeneratorType, _ frames: Int) -> [Generator] {
        guard frames != 0 else { return [] }
        let coarsePart = frames / 32768
        let finePart = frames - coarsePart * 32768
        var generators = [Generator(fine, Int16(finePart))]
        if coarsePart != 0 { generators.append(Generator(coarse, Int16(clamping: coarsePart))) }
        return generators
    }

    static func clampedInt16<T: BinaryFloatingPoint>(_ value: T, _ range: ClosedRange<Int16>) -> Int16 {
        guard !value.isNaN else { return range.lowerBound }
        return Int16(min(max(value, T(range.lowerBound)), T(range.upperBound)))
    }
}
