import PolyphonSoundFontCore

/// The values a voice of an SFZ zone works out at its note-on (``NoteStartShape``): sfizz's
/// amplitude envelope moved by the velocity and the controllers, the start moved into the
/// sample, and the delay before it sounds. Written over the zone's generators once, so the
/// voice then plays exactly as any other.
extension Voice {
    /// Applies `shape` to a voice just started on `ch`, with `draws` (numbers in [0, 1): the
    /// delay's, the offset's and the pitch's random parts). Returns the frames the voice waits
    /// before sounding (0: at once).
    mutating func applyNoteStart(_ shape: NoteStartShape, channel ch: Channel,
                                 draws: (delay: Float, offset: Float, pitch: Float), context: RenderContext) -> Int {
        let velocity = note.velocity
        func value(_ v: NoteStartValue, _ draw: Float = 0) -> Float {
            v.value(velocity: velocity, draw: draw) { ch.controllers[$0] }
        }
        // Whole frames, as sfizz's integer positions; the oscillator clamps to the sample. An
        // SFZ may give any finite depth: bounded so the frame count stays an integer.
        func frames(_ v: NoteStartValue, _ draw: Float = 0, _ range: ClosedRange<Float>) -> Float {
            Self.bounded(value(v, draw), range).rounded(.towardZero)
        }
        var moved = false
        if let offset = shape.offset {
            generators[Int(GeneratorType.startAddrsOffset.rawValue)] += frames(offset, draws.offset, 0...2_000_000_000)
            moved = true
        }
        // sfizz clamps the end to the region's own (it only comes earlier), the loop's ends
        // within the sample; a billion frames keep the sums within a 32-bit Int (wasm32).
        if let end = shape.end {
            generators[Int(GeneratorType.endAddrsOffset.rawValue)] += frames(end, 0, -1e9...0)
            moved = true
        }
        if let loopStart = shape.loopStart {
            generators[Int(GeneratorType.startloopAddrsOffset.rawValue)] += frames(loopStart, 0, -1e9...1e9)
            moved = true
        }
        if let loopEnd = shape.loopEnd {
            generators[Int(GeneratorType.endloopAddrsOffset.rawValue)] += frames(loopEnd, 0, -1e9...1e9)
            moved = true
        }
        if moved { setUpOscillator() }
        if let repeats = shape.loopRepeats { oscillator.loopsLeft = max(repeats, 0) }
        if let pitch = shape.pitch {
            movePitch(by: pitch.cents(velocity: velocity, draw: draws.pitch) { ch.controllers[$0] }, channel: ch,
                      context: context)
        }
        if let envelope = shape.volumeEnvelope {
            writeVolumeEnvelope(envelope, channel: ch)
            startEnvelopesAndLFOs(context, startLevel: Self.bounded(value(envelope.start), 0...1))
        }
        guard let delay = shape.delay else { return 0 }
        // sfizz bounds the delay to 0…100 s.
        let seconds = Self.bounded(value(delay, draws.delay), 0...100)
        return Int(Double(seconds) * context.outputRate)
    }

    /// Adds `cents` to the note's tuning generators (whole semitones to the coarse tune, the
    /// rest to the fine), where every later pitch update reads them; sfizz bounds nothing, the
    /// coarse tune's ±120 semitones bound the sum here.
    mutating func movePitch(by cents: Float, channel ch: Channel, context: RenderContext) {
        guard cents != 0, !cents.isNaN else { return }
        let coarse = Int(GeneratorType.coarseTune.rawValue), fine = Int(GeneratorType.fineTune.rawValue)
        let total = Self.bounded(100 * generators[coarse] + generators[fine] + cents, -12_000...12_000)
        let semitones = (total / 100).rounded(.towardZero)
        generators[coarse] = semitones
        generators[fine] = total - 100 * semitones
        updateParameters(ch, context)
    }

    /// Writes sfizz's amplitude envelope stages for this note, at `ch`'s controllers, over the
    /// voice's volume-envelope generators.
    mutating func writeVolumeEnvelope(_ envelope: VolumeEnvelopeShape, channel ch: Channel) {
        let velocity = note.velocity
        func value(_ v: NoteStartValue) -> Float { v.value(velocity: velocity, draw: 0) { ch.controllers[$0] } }
        func set(_ type: GeneratorType, _ timecents: Float) { generators[Int(type.rawValue)] = timecents }
        let stretch = SFZZoneMapping.envelopeTimeStretch
        set(.delayVolEnv, Self.timecents(value(envelope.delay), zero: -32768))
        set(.attackVolEnv, Self.timecents(value(envelope.attack), zero: -32768))
        set(.holdVolEnv, Self.timecents(value(envelope.hold), zero: -32768))
        set(.decayVolEnv, Self.timecents(value(envelope.decay) * stretch, zero: -12000))
        set(.releaseVolEnv, Self.timecents(value(envelope.release) * stretch, zero: -12000))
        let sustain = Self.bounded(value(envelope.sustain), 0...1)
        set(.sustainVolEnv, sustain > 0 ? min(-200 * Float(Math.log10(Double(sustain))), 1440) : 1440)
    }

    /// `x` within `range`; NaN (∞ − ∞ from absurd depths) as the lower end.
    static func bounded(_ x: Float, _ range: ClosedRange<Float>) -> Float {
        x.isNaN ? range.lowerBound : min(max(x, range.lowerBound), range.upperBound)
    }

    /// Seconds as timecents (exact, unrounded); 0 s or less as `zero`.
    static func timecents(_ seconds: Float, zero: Float) -> Float {
        seconds > 0 ? max(Float(1200 * Math.log2(Double(seconds))), -12000) : zero
    }
}
