import PolyphonSFZCore
import PolyphonSoundFontCore

extension SFZZoneMapping {
    /// ``shaping(_:curves:)`` with what the region's voices work out at note-on
    /// (``noteStart(_:)``); nil when neither.
    static func shapingAndNoteStart(_ region: SFZRegion, curves: SFZCurveSet = SFZCurveSet(),
                                    stream: UInt32 = 0) -> VoiceShaping? {
        guard let noteStart = noteStart(region, curves: curves, stream: stream) else {
            return shaping(region, curves: curves, stream: stream)
        }
        var shaping = shaping(region, curves: curves, stream: stream) ?? VoiceShaping()
        shaping.noteStart = noteStart
        return shaping
    }

    /// What the region's voices work out at note-on, as sfizz does: the amplitude envelope when
    /// `ampeg_start`, a `ampeg_vel2*` or an `ampeg_*_onccN` moves it; `delay` with
    /// `delay_random` and `delay_onccN`; `offset_random` and `offset_onccN`; `count` and
    /// `loop_count`; `pitch_veltrack` (with `pitch_veltrack_onccN`) and `pitch_random`. Nil
    /// when none. `curves` are the instrument's, for `*_curveccN`; `stream` numbers the
    /// region's random draws.
    static func noteStart(_ region: SFZRegion, curves: SFZCurveSet = SFZCurveSet(),
                          stream: UInt32 = 0) -> NoteStartShape? {
        var shape = NoteStartShape()
        let envelope = region.amplitudeEnvelope
        // A flex envelope in its place (`egN_ampeg`) leaves the amplitude envelope held at full.
        if !playsFlexAmplitudeEnvelope(region) && (envelope.start != 0 || !envelope.velocityModifiers.isEmpty
            || envelope.controllerModifiers.contains(where: { isPlayedAtNoteOn($0.input) })) {
            shape.volumeEnvelope = volumeEnvelopeShape(envelope, curves: curves)
            // Controllers are all a dynamic envelope follows: without one it stays as it started.
            shape.volumeEnvelope?.isDynamic = envelope.isDynamic
                && envelope.controllerModifiers.contains(where: { isPlayedAtNoteOn($0.input) })
        }
        let playback = region.playback
        let delayTerms = terms(playback.delay.controllers)
        if playback.delay.value != 0 || playback.delayRandom > 0 || !delayTerms.isEmpty {
            shape.delay = NoteStartValue(playback.delay.value, random: max(playback.delayRandom, 0),
                                         controllers: delayTerms)
        }
        let offsetTerms = terms(playback.offsetControllers)
        if playback.offsetRandom > 0 || !offsetTerms.isEmpty {
            // A draw in [0, 1) times n + 1, truncated: sfizz's whole frames 0…n, equally likely.
            shape.offset = NoteStartValue(0, random: Float(playback.offsetRandom) + 1, controllers: offsetTerms)
        }
        shape.loopRepeats = sampleRepeats(region) ?? playback.loopCount
        // sfizz's `sampleEnd`, `loopStart`, `loopEnd`: frames added by CC/127 × depth at note-on.
        func frames(_ inputs: [SFZControllerInput]) -> NoteStartValue? {
            let terms = terms(inputs)
            return terms.isEmpty ? nil : NoteStartValue(0, controllers: terms)
        }
        shape.end = frames(playback.endControllers)
        shape.loopStart = frames(playback.loopStartControllers)
        shape.loopEnd = frames(playback.loopEndControllers)
        let pitch = region.pitch
        let trackingTerms = terms(pitch.velocityTracking.controllers, curves)
        if pitch.velocityTracking.value != 0 || !trackingTerms.isEmpty || pitch.random != 0 {
            shape.pitch = NoteStartPitch(velocityTracking: NoteStartValue(pitch.velocityTracking.value,
                                                                          controllers: trackingTerms),
                                         random: pitch.random, randomStream: pitchStream(stream))
        }
        return shape == NoteStartShape() ? nil : shape
    }

    /// The stream of a region's `pitch_random` draws, apart from its `amp_random` and
    /// `fil_random` ones.
    static func pitchStream(_ region: UInt32) -> UInt32 { region ^ 0x8000_0000 }

    /// The times a region's sample repeats after its first play (`count` − 1), nil when it
    /// plays once: sfizz repeats a sample only when the region does not loop
    /// (`Voice::Impl::fillWithData`).
    static func sampleRepeats(_ region: SFZRegion) -> Int? {
        let playback = region.playback
        guard let count = playback.count, count >= 2, playback.loopMode != .continuous,
              playback.loopMode != .sustain else { return nil }
        return count - 1
    }

    /// `ampeg_*` in the voice's terms: percents as 0…1, each stage with its velocity and
    /// controller terms.
    static func volumeEnvelopeShape(_ envelope: SFZEnvelope, curves: SFZCurveSet = SFZCurveSet()) -> VolumeEnvelopeShape {
        var shape = VolumeEnvelopeShape()
        func value(_ stage: SFZEnvelopeStage, _ base: Float, scale: Float = 1) -> NoteStartValue {
            let inputs = envelope.controllerModifiers.filter { $0.stage == stage }.map { $0.input }
            var value = NoteStartValue(base * scale, byVelocity: (envelope.velocityModifiers[stage] ?? 0) * scale,
                                       controllers: terms(inputs, curves))
            for i in value.controllers.indices { value.controllers[i].depth *= scale }
            return value
        }
        shape.delay = value(.delay, envelope.delay)
        // sfizz's start has no velocity term.
        shape.start = value(.start, envelope.start, scale: 0.01)
        shape.start.byVelocity = 0
        shape.attack = value(.attack, envelope.attack)
        shape.hold = value(.hold, envelope.hold)
        shape.decay = value(.decay, envelope.decay)
        shape.sustain = value(.sustain, envelope.sustain, scale: 0.01)
        shape.release = value(.release, envelope.release)
        return shape
    }

    /// Whether the voice reads a controller input at note-on as sfizz does: a MIDI controller
    /// (0–127), through its curve.
    static func isPlayedAtNoteOn(_ input: SFZControllerInput) -> Bool {
        (0..<128).contains(input.controller)
    }

    /// The inputs the voice reads at note-on, as terms of a ``NoteStartValue``, each through
    /// its curve among `curves` (none for the linear curve 0).
    static func terms(_ inputs: [SFZControllerInput], _ curves: SFZCurveSet = SFZCurveSet()) -> [ControllerDepth] {
        inputs.filter(isPlayedAtNoteOn).map { input in
            ControllerDepth(controller: input.controller, depth: input.depth,
                            curve: input.curve == 0 ? [] : curves.curve(at: input.curve).values)
        }
    }
}
