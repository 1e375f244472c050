/// What a voice of a zone built in code works out once, at its note-on (SFZ instruments, as
/// sfizz does): its amplitude envelope's stages moved by the velocity and by controllers, how
/// long after the note it starts sounding, how far into the sample it starts, and how many
/// times its loop repeats.
public struct NoteStartShape: Hashable, Sendable {
    /// sfizz's amplitude envelope in place of the zone's SF2 volume-envelope generators; nil
    /// leaves those.
    public var volumeEnvelope: VolumeEnvelopeShape?
    /// Seconds between the note-on and the voice's first sound (SFZ `delay`, `delay_random`,
    /// `delay_onccN`); nothing of the voice moves before (sample, envelopes, LFOs).
    public var delay: NoteStartValue?
    /// Sample frames added to where the voice starts (SFZ `offset_random`, `offset_onccN`;
    /// the fixed `offset` stays in the zone's generators).
    public var offset: NoteStartValue?
    /// Times the sample's loop repeats before the voice plays on to the sample's end (SFZ
    /// `loop_count`, and `count` − 1 over a loop spanning the whole sample); nil: for as long
    /// as the loop mode says.
    public var loopRepeats: Int?
    /// Cents the note's pitch moves by its velocity and a random draw (SFZ `pitch_veltrack`,
    /// `pitch_veltrack_onccN`, `pitch_random`); nil: none.
    public var pitch: NoteStartPitch?
    /// Sample frames the controllers add to where the sample ends, at the note-on (SFZ
    /// `end_onccN`): as sfizz, the end never moves past the zone's own.
    public var end: NoteStartValue?
    /// Sample frames the controllers add to the loop's start and end at the note-on (SFZ
    /// `loop_start_onccN`, `loop_end_onccN`), each kept within the sample.
    public var loopStart: NoteStartValue?
    public var loopEnd: NoteStartValue?

    /// Nothing worked out at note-on.
    public init(volumeEnvelope: VolumeEnvelopeShape? = nil, delay: NoteStartValue? = nil,
                offset: NoteStartValue? = nil, loopRepeats: Int? = nil) {
        self.volumeEnvelope = volumeEnvelope
        self.delay = delay
        self.offset = offset
        self.loopRepeats = loopRepeats
    }
}

/// Cents a note's pitch moves, settled at its note-on as sfizz does (`basePitchVariation`):
/// velocity/127 × the velocity tracking — `pitch_veltrack` plus what each `pitch_veltrack_onccN`
/// controller adds through its curve at the note-on — plus `random` × a uniform draw in [0, 1)
/// (sfizz draws `pitch_random` in 0…`random`, one way only).
public struct NoteStartPitch: Hashable, Sendable {
    /// Cents at velocity 127 (``NoteStartValue/base``) and the controllers adding to them.
    public var velocityTracking: NoteStartValue
    /// The most cents the random draw adds.
    public var random: Float
    /// Numbers the zone's draws: zones of one stream (a stereo file's two sides) draw alike.
    public var randomStream: UInt32

    /// `velocityTracking` cents at full velocity and up to `random` cents drawn per note.
    public init(velocityTracking: NoteStartValue = NoteStartValue(0), random: Float = 0, randomStream: UInt32 = 0) {
        self.velocityTracking = velocityTracking
        self.random = random
        self.randomStream = randomStream
    }

    /// The cents for a note at `velocity` (0–127), with `draw` in [0, 1) and `controller`
    /// giving a controller's value (0–127).
    @inlinable
    public func cents(velocity: Int, draw: Float, controller: (Int) -> UInt8) -> Float {
        let tracking = velocityTracking.value(velocity: 0, draw: 0, controller: controller)
        return Float(velocity) / 127 * tracking + random * draw
    }
}

/// A number settled at note-on: `base`, plus `byVelocity` scaled by velocity/127, plus a
/// uniform random part in 0…`random`, plus what each MIDI controller (0–127) contributes
/// through its curve at the value it has at the note-on, as sfizz reads it.
public struct NoteStartValue: Hashable, Sendable {
    public var base: Float
    /// Added at velocity 127.
    public var byVelocity: Float
    /// The most a random draw adds.
    public var random: Float
    public var controllers: [ControllerDepth]

    /// A value of `base` moved by the given terms.
    public init(_ base: Float, byVelocity: Float = 0, random: Float = 0, controllers: [ControllerDepth] = []) {
        self.base = base
        self.byVelocity = byVelocity
        self.random = random
        self.controllers = controllers
    }

    /// The value for a note at `velocity` (0–127), with `draw` in [0, 1) and `controller`
    /// giving a controller's value (0–127).
    @inlinable
    public func value(velocity: Int, draw: Float, controller: (Int) -> UInt8) -> Float {
        var total = base + byVelocity * Float(velocity) / 127 + random * draw
        for term in controllers { total += term.contribution(at: controller(term.controller & 127)) }
        return total
    }

    /// Whether the value is the same for every note.
    public var isConstant: Bool { byVelocity == 0 && random == 0 && controllers.isEmpty }
}

/// sfizz's amplitude envelope (SFZ `ampeg_*`): after `delay` at the `start` level, a linear
/// attack from `start` to full that rises at 1/`attack` per second (so it takes
/// (1 − start) × attack), a hold, then a decay towards `sustain` and (after note-off) a
/// release that each fall by e⁻⁹ over their time. Times in seconds, levels 0…1.
public struct VolumeEnvelopeShape: Hashable, Sendable {
    public var delay = NoteStartValue(0)
    public var start = NoteStartValue(0)
    public var attack = NoteStartValue(0)
    public var hold = NoteStartValue(0)
    public var decay = NoteStartValue(0)
    public var sustain = NoteStartValue(1)
    public var release = NoteStartValue(0)
    /// True when the stages are read again whenever a controller moves while the note sounds
    /// (SFZ `ampeg_dynamic`); false reads them at note-on only.
    public var isDynamic = false

    /// An envelope at full level from the note-on (set the stages to shape it).
    public init() {}
}
