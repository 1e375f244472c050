import PolyphonSoundFont

/// How one built-in program plays its timbre: the SF2 envelopes, filter, LFOs, layering and
/// level, in musical units (seconds, Hz, dB, cents) that ``GeneralMIDIBank`` turns into generators.
struct ProgramPatch: Sendable {
    /// A volume envelope in seconds and dB. `decay` is the SF2 decay time: how long the level
    /// takes to fall the full 96 dB (so a sustain of −12 dB is reached after an eighth of it).
    struct Envelope: Sendable {
        var attack = 0.002, hold = 0.0, decay = 0.0, sustainDB = 0.0, release = 0.25

        /// Sustains at full level: organs, winds, leads.
        static func held(_ attack: Double = 0.005, release: Double = 0.15) -> Envelope {
            Envelope(attack: attack, release: release)
        }
        /// Dies away while held: pianos, plucks, mallets, drums.
        static func decaying(_ decay: Double, attack: Double = 0.001, release: Double = 0.3) -> Envelope {
            Envelope(attack: attack, decay: decay, sustainDB: 144, release: release)
        }
        /// Attack, then a fall to a sustain level: brass, bowed strings, synths.
        static func swell(_ attack: Double, decay: Double, sustainDB: Double, release: Double) -> Envelope {
            Envelope(attack: attack, decay: decay, sustainDB: sustainDB, release: release)
        }
    }

    /// The modulation envelope driving the filter (and pitch, for drums): shape and depth.
    struct Sweep: Sendable {
        var attack = 0.0, decay = 0.3, sustain = 0.0, release = 0.3
        /// Depth on the filter cutoff in cents.
        var filterCents = 0
        /// Depth on the pitch in cents.
        var pitchCents = 0
    }

    var name: String
    var timbre: TimbreName
    var envelope: Envelope
    /// keynumToVolEnvDecay: higher keys decay faster (timecents per key).
    var keyToDecay = 0
    /// Low-pass cutoff in Hz (nil = open) and resonance in dB.
    var filter: Double? = nil
    var resonance = 0.0
    var sweep: Sweep? = nil
    /// Vibrato LFO: rate Hz, depth cents, delay seconds.
    var vibrato: (rate: Double, cents: Int, delay: Double)? = nil
    /// Modulation LFO on volume: rate Hz, depth dB.
    var tremolo: (rate: Double, dB: Double)? = nil
    /// Two layers detuned by ± this many cents and panned apart (chorus, honky-tonk, musette).
    var detune = 0
    /// Pan spread of stereo timbres and detuned layers, 0…1.
    var width = 0.6
    /// Cutoff added at full velocity (cents): harder notes are brighter.
    var velocityToFilter = 0
    /// Transposition in semitones (guitar harmonics sound an octave up).
    var transpose = 0
    /// Level trim in dB, tuned so every program sounds equally loud.
    var gain = 0.0
    /// Reverb and chorus sends in 0.1 %.
    var reverb = 100, chorus = 0

    init(_ name: String, _ timbre: TimbreName, _ envelope: Envelope, keyToDecay: Int = 0,
         filter: Double? = nil, resonance: Double = 0, sweep: Sweep? = nil,
         vibrato: (rate: Double, cents: Int, delay: Double)? = nil, tremolo: (rate: Double, dB: Double)? = nil,
         detune: Int = 0, width: Double = 0.6, velocityToFilter: Int = 0, transpose: Int = 0, gain: Double = 0,
         reverb: Int = 100, chorus: Int = 0) {
        self.name = name; self.timbre = timbre; self.envelope = envelope; self.keyToDecay = keyToDecay
        self.filter = filter; self.resonance = resonance; self.sweep = sweep; self.vibrato = vibrato
        self.tremolo = tremolo; self.detune = detune; self.width = width; self.velocityToFilter = velocityToFilter
        self.transpose = transpose; self.gain = gain; self.reverb = reverb; self.chorus = chorus
    }
}
