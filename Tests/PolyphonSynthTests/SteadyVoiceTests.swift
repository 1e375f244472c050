import Foundation
import Testing
import PolyphonSoundFont
@testable import PolyphonSynth

/// A held note at its sustain level, with nothing moving its pitch, cutoff or gain, is steady:
/// its control points would only count time, so the oscillator runs on through them. That must
/// give exactly the bits of a control point every 64 frames — through note-offs (also under
/// the pedal), pitch bends, volume and pan changes, samples that end, shared filters and
/// stereo pairs — and must actually happen.
@Suite struct SteadyVoiceTests {
    /// Four kinds of held note:
    /// - keys 0–47: a modulation envelope that bends the pitch and settles in its sustain (in
    ///   use, steady), with a resonant filter too low to share;
    /// - keys 48–59: a modulation envelope that settles the cutoff (a shared filter once still);
    /// - keys 60–71: a sample that does not loop and ends while the note is held;
    /// - keys 72–127: vibrato (never steady).
    static let bank = TestBank.multiZone([
        (0...47, [Generator(.initialFilterFc, 6000), Generator(.initialFilterQ, 60), Generator(.modEnvToPitch, 50),
                  Generator(.decayModEnv, -3000), Generator(.sustainModEnv, 500), Generator(.releaseModEnv, -1200),
                  Generator(.releaseVolEnv, -1200)]),
        (48...59, [Generator(.initialFilterFc, 9500), Generator(.modEnvToFilterFc, -600), Generator(.decayModEnv, -2400),
                   Generator(.sustainModEnv, 300), Generator(.releaseVolEnv, -2400)]),
        (60...71, [Generator(.initialFilterFc, 10500), Generator(.sampleModes, 0)]),
        (72...127, [Generator(.vibLfoToPitch, 30), Generator(.freqVibLFO, 0), Generator(.initialFilterFc, 11500)]),
    ])

    /// Notes on three channels started at odd frames, then: a pitch bend, a note-off under the
    /// sustain pedal and the pedal's release, a volume change, a pan change (members of shared
    /// filters leave) and plain note-offs. `probe` runs after the first 0.3 s.
    static func play(steady: Bool, sharing: Bool = true, block: Int, probe: ((Synthesizer) -> Void)? = nil) throws -> Rendered {
        var config = SynthesizerConfiguration()
        config.reverbEnabled = true
        config.chorusEnabled = false
        let s = try Synthesizer(soundBank: bank, configuration: config)
        s.skipsSteadyControlPoints = steady
        s.sharesFilters = sharing
        s.sendController(91, withValue: 80, onChannel: 1)
        for (k, key) in [36, 43, 50, 55, 62, 67, 76, 40, 57, 64].enumerated() {
            s.startNote(UInt8(key), withVelocity: UInt8(70 + 5 * k), onChannel: UInt8(k % 3), atFrame: 29 * k + 3)
        }
        s.sendPitchBend(9000, onChannel: 0, atFrame: 16_001)
        s.sendController(64, withValue: 127, onChannel: 1, atFrame: 17_000)
        s.stopNote(43, onChannel: 1, atFrame: 18_333)
        s.sendController(7, withValue: 90, onChannel: 2, atFrame: 21_111)
        s.sendController(10, withValue: 30, onChannel: 1, atFrame: 24_000)
        s.sendController(64, withValue: 0, onChannel: 1, atFrame: 27_777)
        s.stopNote(36, onChannel: 0, atFrame: 30_500)
        s.stopNote(50, onChannel: 2, atFrame: 33_000)
        var first = s.renderSeconds(0.3, block: block)
        probe?(s)
        let rest = s.renderSeconds(0.7, block: block)
        first.left += rest.left
        first.right += rest.right
        return first
    }

    @Test func steadyVoicesSoundExactlyAsWithEveryControlPoint() throws {
        for sharing in [true, false] {
            let reference = try Self.play(steady: false, sharing: sharing, block: 512)
            #expect(Measure.rms(reference.left[...]) > 0.01 && Measure.rms(reference.right[...]) > 0.01)
            for block in [1, 17, 64, 512, 4096] {
                var steadyVoices = 0
                let out = try Self.play(steady: true, sharing: sharing, block: block) { steadyVoices = $0.steadyVoiceCount }
                // At 0.3 s: the seven looped notes without vibrato (the one-shot ones have ended).
                #expect(steadyVoices >= 5, "block \(block), sharing \(sharing): \(steadyVoices) steady voices")
                #expect(out.left == reference.left && out.right == reference.right,
                        "block \(block), sharing \(sharing) differs")
            }
        }
    }

    /// A voice with vibrato, a gliding cutoff or a falling level is never steady.
    @Test func movingVoicesAreNotSteady() throws {
        let vibrato = TestBank.sine(generators: [Generator(.vibLfoToPitch, 20)])
        let decaying = TestBank.sine(generators: [Generator(.decayVolEnv, 2400), Generator(.sustainVolEnv, 600)])
        let held = TestBank.sine()
        for (bank, expected) in [(vibrato, 0), (decaying, 0), (held, 1)] {
            let s = try Synthesizer(soundBank: bank)
            s.startNote(69, withVelocity: 100, onChannel: 0)
            _ = s.renderSeconds(0.2)
            #expect(s.steadyVoiceCount == expected)
        }
    }

    /// The two halves of a stereo pair rendered with one phase stream run on through their
    /// steady points together, bit for bit as they do alone.
    @Test func stereoPairsStaySteadyTogether() throws {
        let bank = TestBank.stereoPair(generators: [Generator(.sampleModes, 1), Generator(.initialFilterFc, 8000),
                                                    Generator(.releaseVolEnv, -3000)])
        func play(steady: Bool, pairing: Bool, block: Int) throws -> (Rendered, Int, Int) {
            let s = try Synthesizer(soundBank: bank)
            s.skipsSteadyControlPoints = steady
            s.pairsStereoTwins = pairing
            for (k, key) in [60, 64, 67].enumerated() {
                s.startNote(UInt8(key), withVelocity: 100, onChannel: 0, atFrame: 77 * k)
                s.stopNote(UInt8(key), onChannel: 0, atFrame: 25_000 + 4001 * k)
            }
            var out = s.renderSeconds(0.25, block: block)
            let steadyVoices = s.steadyVoiceCount
            let rest = s.renderSeconds(0.5, block: block)
            out.left += rest.left
            out.right += rest.right
            return (out, steadyVoices, s.stereoTwinFrames)
        }
        let (alone, _, _) = try play(steady: false, pairing: false, block: 512)
        for block in [1, 17, 512] {
            let (out, steadyVoices, twinFrames) = try play(steady: true, pairing: true, block: block)
            #expect(steadyVoices == 6, "block \(block): \(steadyVoices) steady voices")
            #expect(twinFrames > 3 * 20_000, "block \(block): \(twinFrames) frames in pairs")
            #expect(out.left == alone.left && out.right == alone.right, "block \(block) differs")
        }
    }
}
