import PolyphonSoundFont
import PolyphonSynth

/// The seed's SoundBankPlayer, on the full engine: play notes by number with a gain, start
/// chords on the same sample, and get a voice limit that steals the oldest note — plus what the
/// seed lacked: note-off, sustain, several banks at once, stereo samples.
///
/// ```swift
/// let piano = try SoundFont(contentsOfAnyBank: "Piano.plist", audioLoader: loader)
/// let player = try SoundBankPlayer(soundBanks: [piano])
/// player.queueNote(60, gain: 0.8)
/// player.queueNote(64, gain: 0.8)
/// player.playQueuedNotes()          // both start on the same sample
/// player.render(left: l, right: r, frameCount: 512)
/// ```
/// Each bank plays on its own synthesizer (bank 0 program 0 of that bank); the outputs are mixed.
/// Use from one thread at a time; `render` allocates nothing.
public final class SoundBankPlayer {
    private let synthesizers: [Synthesizer]
    private var queued: [(bank: Int, note: UInt8, velocity: UInt8)] = []
    private let scratchLeft: UnsafeMutablePointer<Float>
    private let scratchRight: UnsafeMutablePointer<Float>
    private let scratchCapacity = 4096

    /// The most voices sounding at once per bank (the seed's 32 by default).
    public let maximumVoices: Int

    /// - Parameters:
    ///   - soundBanks: the banks to play; `bank:` in the note calls indexes this array.
    ///   - sampleRate: the output rate.
    ///   - maximumVoices: voice limit per bank; when all are busy the oldest note is stopped.
    ///   - gain: output gain with FluidSynth's meaning (0.2 = FluidSynth's level).
    ///   - reverb: whether the banks play through the reverb (the seed had none).
    public init(soundBanks: [SoundFont], sampleRate: Double = 44100, maximumVoices: Int = 32,
                gain: Float = 0.2, reverb: Bool = false) throws {
        precondition(!soundBanks.isEmpty, "SoundBankPlayer needs at least one bank")
        var config = SynthesizerConfiguration()
        config.polyphony = maximumVoices
        config.voiceStealing = .oldest
        config.gain = gain
        config.reverbEnabled = reverb
        config.chorusEnabled = false
        config.percussionChannels = []
        synthesizers = try soundBanks.map { try Synthesizer(soundBank: $0, sampleRate: sampleRate, configuration: config) }
        self.maximumVoices = maximumVoices
        scratchLeft = .allocate(capacity: scratchCapacity)
        scratchRight = .allocate(capacity: scratchCapacity)
        queued.reserveCapacity(128)
    }

    deinit {
        scratchLeft.deallocate()
        scratchRight.deallocate()
    }

    /// The velocity whose level is `gain` (0…1, linear amplitude) under the SF2 velocity curve:
    /// attenuation 40·log10(127/v) dB means amplitude (v/127)².
    static func velocity(forGain gain: Float) -> UInt8 {
        let g = min(max(gain, 0), 1)
        return UInt8(max(1, min(127, (127 * g.squareRoot()).rounded())))
    }

    /// Starts a note now.
    public func noteOn(_ note: UInt8, gain: Float, bank: Int = 0) {
        guard synthesizers.indices.contains(bank) else { return }
        synthesizers[bank].startNote(note, withVelocity: Self.velocity(forGain: gain), onChannel: 0)
    }

    /// Queues a note to start with the others at the next ``playQueuedNotes()``.
    public func queueNote(_ note: UInt8, gain: Float, bank: Int = 0) {
        guard synthesizers.indices.contains(bank) else { return }
        queued.append((bank, note, Self.velocity(forGain: gain)))
    }

    /// Starts every queued note on the same sample.
    public func playQueuedNotes() {
        for q in queued { synthesizers[q.bank].startNote(q.note, withVelocity: q.velocity, onChannel: 0) }
        queued.removeAll(keepingCapacity: true)
    }

    /// Releases a note (it fades with its release, or is held while sustain is on).
    public func noteOff(_ note: UInt8, bank: Int = 0) {
        guard synthesizers.indices.contains(bank) else { return }
        synthesizers[bank].stopNote(note, onChannel: 0)
    }

    /// Releases every note of every bank.
    public func allNotesOff() {
        for s in synthesizers { s.allNotesOff() }
    }

    /// The sustain pedal for all banks.
    public var sustain = false {
        didSet {
            for s in synthesizers { s.sendController(64, withValue: sustain ? 127 : 0, onChannel: 0) }
        }
    }

    /// Notes sounding across all banks.
    public var activeVoiceCount: Int { synthesizers.reduce(0) { $0 + $1.activeVoiceCount } }

    /// Renders the mix of all banks into two caller buffers (overwriting them).
    public func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frameCount: Int) {
        synthesizers[0].render(left: left, right: right, frameCount: frameCount)
        guard synthesizers.count > 1 else { return }
        var done = 0
        while done < frameCount {
            let n = min(scratchCapacity, frameCount - done)
            for s in synthesizers.dropFirst() {
                s.render(left: scratchLeft, right: scratchRight, frameCount: n)
                for i in 0..<n { left[done + i] += scratchLeft[i]; right[done + i] += scratchRight[i] }
            }
            done += n
        }
    }
}
