import Foundation
import PolyphonSoundFont
import Testing
@_spi(Testing) @testable import PolyphonSynth

@Suite("Voices, pedals and timing")
struct VoiceManagementTests {
    @Test func eventsLandOnTheirExactFrame() throws {
        // Instant attack (−32768 tc = 0 s) and delay: the note's first non-zero sample is its frame.
        let bank = TestBank.sine(generators: [Generator(.delayVolEnv, -32768), Generator(.attackVolEnv, -32768)])
        for frame in [0, 1, 63, 64, 65, 1000, 4097] {
            let s = try Synthesizer(soundBank: bank)
            s.startNote(69, withVelocity: 127, onChannel: 0, atFrame: frame)
            let out = s.renderSeconds(0.2, block: 300)
            let first = out.left.firstIndex { $0 != 0 } ?? -1
            // The sine's first point is 0; the second is the first non-zero.
            #expect(first == frame + 1, "scheduled at \(frame), sounded at \(first)")
        }
    }

    @Test func renderingInAnyBlockSizeGivesTheSameAudio() throws {
        let bank = TestBank.sine(generators: [Generator(.attackVolEnv, -3000), Generator(.decayVolEnv, -1000),
                                              Generator(.sustainVolEnv, 200), Generator(.freqVibLFO, 0),
                                              Generator(.vibLfoToPitch, 50), Generator(.initialFilterFc, 7000),
                                              Generator(.modEnvToFilterFc, 3000)])
        func run(_ block: Int) throws -> [Float] {
            let s = try Synthesizer(soundBank: bank)
            s.startNote(60, withVelocity: 100, onChannel: 0, atFrame: 100)
            s.startNote(64, withVelocity: 90, onChannel: 0, atFrame: 777)
            s.sendController(7, withValue: 80, onChannel: 0, atFrame: 5000)
            s.sendPitchBend(10000, onChannel: 0, atFrame: 9000)
            s.stopNote(60, onChannel: 0, atFrame: 12_345)
            s.stopNote(64, onChannel: 0, atFrame: 20_000)
            return s.renderSeconds(1.0, block: block).left
        }
        let reference = try run(4096)
        for b in [1, 17, 64] {
            #expect(try run(b) == reference, "block \(b) differs")
        }
    }

    @Test func loopSeamIsClickFree() throws {
        let s = try Synthesizer(soundBank: TestBank.sine())
        s.startNote(69, withVelocity: 127, onChannel: 0)
        let out = s.renderSeconds(1.0)
        // A 440 Hz sine of peak p changes by at most p·2π·440/44100 per sample.
        let x = Array(out.left[out.frame(0.1)...])
        let p = Measure.peak(x[...])
        var maxStep = 0.0
        for i in 1..<x.count { maxStep = max(maxStep, Double(abs(x[i] - x[i - 1]))) }
        #expect(maxStep <= p * 2 * Double.pi * 440 / 44100 * 1.01)
    }

    @Test func loopModeThreePlaysToTheEndAfterRelease() throws {
        // With mode 3, releasing stops the loop: the voice ends when the sample ends (2000 points
        // at 44 kHz ≈ 45 ms) even with a long release.
        let bank = TestBank.sine(generators: [Generator(.releaseVolEnv, 1200)], loopMode: 3)
        let s = try Synthesizer(soundBank: bank)
        s.startNote(69, withVelocity: 127, onChannel: 0)
        s.stopNote(69, onChannel: 0, atFrame: 4410)
        _ = s.renderSeconds(0.2)
        #expect(s.activeVoiceCount == 0)
        let looped = try Synthesizer(soundBank: TestBank.sine(generators: [Generator(.releaseVolEnv, 1200)]))
        looped.startNote(69, withVelocity: 127, onChannel: 0)
        looped.stopNote(69, onChannel: 0, atFrame: 4410)
        _ = looped.renderSeconds(0.2)
        #expect(looped.activeVoiceCount == 1)
    }

    @Test func unloopedSampleEndsTheVoice() throws {
        let s = try Synthesizer(soundBank: TestBank.sine(loopMode: 0))
        s.startNote(69, withVelocity: 127, onChannel: 0)
        let out = s.renderSeconds(0.2)
        #expect(s.activeVoiceCount == 0)
        #expect(out.left[out.frame(0.1)...].allSatisfy { $0 == 0 })
    }

    @Test func exclusiveClassCutsTheOtherNote() throws {
        let bank = TestBank.sine(generators: [Generator(.exclusiveClass, 1), Generator(.releaseVolEnv, 2400)])
        let s = try Synthesizer(soundBank: bank)
        s.startNote(60, withVelocity: 127, onChannel: 0)
        s.startNote(72, withVelocity: 127, onChannel: 0, atFrame: 4410)
        let out = s.renderSeconds(1.0)
        // After 0.5 s only key 72 (523 Hz) remains audible: key 60 fell > 40 dB (−2000 tc release).
        let f = Measure.frequency(out.left[out.frame(0.6)...], rate: 44100)
        #expect(abs(Measure.cents(f, Measure.midiFrequency(72))) < 2)
        let other = try Synthesizer(soundBank: TestBank.sine(generators: [Generator(.releaseVolEnv, 2400)]))
        other.startNote(60, withVelocity: 127, onChannel: 0)
        other.startNote(72, withVelocity: 127, onChannel: 0, atFrame: 4410)
        _ = other.renderSeconds(1.0)
        #expect(other.activeVoiceCount == 2)
        #expect(s.activeVoiceCount == 1)
    }

    @Test func sustainPedalHoldsReleasedNotes() throws {
        let bank = TestBank.sine(generators: [Generator(.releaseVolEnv, -2400)])  // 0.25 s
        let s = try Synthesizer(soundBank: bank)
        s.sendController(64, withValue: 127, onChannel: 0)
        s.startNote(69, withVelocity: 127, onChannel: 0)
        s.stopNote(69, onChannel: 0, atFrame: 4410)
        let held = s.renderSeconds(0.5)
        #expect(Measure.db(Measure.rms(held.left[held.frame(0.4)...]) / Measure.rms(held.left[held.frame(0.05)..<held.frame(0.1)])) > -0.5)
        s.sendController(64, withValue: 0, onChannel: 0)
        _ = s.renderSeconds(0.5)
        #expect(s.activeVoiceCount == 0)
    }

    @Test func sostenutoHoldsOnlyNotesDownWhenPressed() throws {
        let bank = TestBank.sine(generators: [Generator(.releaseVolEnv, -2400)])
        let s = try Synthesizer(soundBank: bank)
        s.startNote(60, withVelocity: 127, onChannel: 0)
        s.sendController(66, withValue: 127, onChannel: 0, atFrame: 100)
        s.startNote(72, withVelocity: 127, onChannel: 0, atFrame: 200)
        s.stopNote(60, onChannel: 0, atFrame: 300)
        s.stopNote(72, onChannel: 0, atFrame: 300)
        let out = s.renderSeconds(0.6)
        #expect(s.activeVoiceCount == 1)
        let f = Measure.frequency(out.left[out.frame(0.4)...], rate: 44100)
        #expect(abs(Measure.cents(f, Measure.midiFrequency(60))) < 2)
        s.sendController(66, withValue: 0, onChannel: 0)
        _ = s.renderSeconds(0.6)
        #expect(s.activeVoiceCount == 0)
    }

    @Test func stealingTakesReleasedVoicesFirstAndNeverSameInstant() throws {
        var config = SynthesizerConfiguration()
        config.polyphony = 3
        let bank = TestBank.sine(generators: [Generator(.releaseVolEnv, 1200)])
        let s = try Synthesizer(soundBank: bank, configuration: config)
        s.startNote(60, withVelocity: 127, onChannel: 0)
        s.startNote(62, withVelocity: 127, onChannel: 0, atFrame: 10)
        s.startNote(64, withVelocity: 127, onChannel: 0, atFrame: 20)
        s.stopNote(62, onChannel: 0, atFrame: 1000)
        s.startNote(67, withVelocity: 127, onChannel: 0, atFrame: 2000)
        _ = s.renderSeconds(0.1)
        // 62 was released: it is the one replaced by 67.
        let out = s.renderSeconds(0.5)
        #expect(s.activeVoiceCount == 3)
        let spectrumHas62 = Measure.rms(out.left[...]) > 0
        #expect(spectrumHas62)
        // Four notes at the same instant with room for three: the fourth steals none of them.
        let t = try Synthesizer(soundBank: bank, configuration: config)
        for k: UInt8 in [60, 64, 67, 72] { t.startNote(k, withVelocity: 127, onChannel: 0) }
        let chord = t.renderSeconds(0.3)
        #expect(t.activeVoiceCount == 3)
        let f = Measure.frequency(chord.left[chord.frame(0.1)...], rate: 44100)
        #expect(f > 0)
    }

    @Test func polyphonyLimitStealsQuietestOldest() throws {
        var config = SynthesizerConfiguration()
        config.polyphony = 2
        let s = try Synthesizer(soundBank: TestBank.sine(), configuration: config)
        s.startNote(60, withVelocity: 30, onChannel: 0)       // quiet
        s.startNote(64, withVelocity: 127, onChannel: 0, atFrame: 10)
        s.startNote(72, withVelocity: 127, onChannel: 0, atFrame: 4410)
        let out = s.renderSeconds(0.5)
        // Key 60 (quiet, oldest) is gone: what remains is 64 + 72; the lowest component is 64.
        // Check by rendering 64+72 alone and comparing.
        let ref = try Synthesizer(soundBank: TestBank.sine())
        ref.startNote(64, withVelocity: 127, onChannel: 0, atFrame: 10)
        ref.startNote(72, withVelocity: 127, onChannel: 0, atFrame: 4410)
        let expected = ref.renderSeconds(0.5)
        let a = out.left[out.frame(0.2)...], b = expected.left[expected.frame(0.2)...]
        #expect(zip(a, b).allSatisfy { abs($0 - $1) < 1e-6 })
    }

    @Test func voicesAreFreedOnceInaudible() throws {
        // Decay to −100 dB sustain: once below the noise floor the voice goes away even though
        // the key is still held.
        let bank = TestBank.sine(generators: [Generator(.decayVolEnv, -1200), Generator(.sustainVolEnv, 1440)])
        let s = try Synthesizer(soundBank: bank)
        s.startNote(69, withVelocity: 127, onChannel: 0)
        _ = s.renderSeconds(0.2)
        #expect(s.activeVoiceCount == 1)
        _ = s.renderSeconds(1.0)
        #expect(s.activeVoiceCount == 0)
    }

    @Test func percussionChannelPlaysBank128() throws {
        let bank = TestBank.sine(bank: 128, program: 0)
        let s = try Synthesizer(soundBank: bank)
        s.startNote(69, withVelocity: 127, onChannel: 9)
        s.startNote(69, withVelocity: 127, onChannel: 0)  // no melodic preset at all
        _ = s.renderSeconds(0.1)
        #expect(s.activeVoiceCount == 1)
    }

    @Test func missingProgramFallsBackToBankZero() throws {
        let bank = TestBank.sine(bank: 0, program: 5)
        let s = try Synthesizer(soundBank: bank)
        s.sendProgramChange(5, bankMSB: 8, bankLSB: 0, onChannel: 0)
        s.startNote(69, withVelocity: 127, onChannel: 0)
        _ = s.renderSeconds(0.1)
        #expect(s.activeVoiceCount == 1)
        #expect(s.presetName(onChannel: 0) == "Sine")
    }

    /// Filters run four voices at a time, one per SIMD lane: a voice must sound exactly the same
    /// whichever voices share its batch, and whichever pool slot and lane it lands in.
    @Test func aVoiceSoundsTheSameWhateverVoicesShareItsFilterBatch() throws {
        let bank = TestBank.sine(generators: [Generator(.initialFilterFc, 5000), Generator(.initialFilterQ, 60),
                                              Generator(.modEnvToFilterFc, 2400), Generator(.decayModEnv, -2000),
                                              Generator(.sustainModEnv, 500), Generator(.freqModLFO, 0),
                                              Generator(.modLfoToFilterFc, 300)])
        func channelZero(withOthers others: Int) throws -> [Float] {
            var config = SynthesizerConfiguration()
            config.channelOutputs = true
            let s = try Synthesizer(soundBank: bank, configuration: config)
            // The others start first, so channel 0's voice takes a different slot and lane each time.
            for k in 0..<others {
                s.startNote(UInt8(48 + k), withVelocity: 90, onChannel: UInt8(1 + k % 8), atFrame: 3 * k)
            }
            s.startNote(64, withVelocity: 100, onChannel: 0, atFrame: 101)
            for k in stride(from: 0, to: others, by: 2) {
                s.stopNote(UInt8(48 + k), onChannel: UInt8(1 + k % 8), atFrame: 2000 + 37 * k)
            }
            s.stopNote(64, onChannel: 0, atFrame: 30_000)
            let total = 44100, block = 300
            let buffers = (0..<config.channelCount).map { _ in
                StereoBuffer(left: .allocate(capacity: block), right: .allocate(capacity: block))
            }
            defer { for b in buffers { b.left.deallocate(); b.right.deallocate() } }
            var mixL = [Float](repeating: 0, count: block), mixR = mixL
            var out: [Float] = []
            var done = 0
            while done < total {
                let n = min(block, total - done)
                s.render(left: &mixL, right: &mixR, channels: buffers, frameCount: n)
                out += UnsafeBufferPointer(start: buffers[0].left, count: n)
                done += n
            }
            return out
        }
        let alone = try channelZero(withOthers: 0)
        #expect(Measure.rms(alone[...]) > 0.01)
        for others in [1, 3, 6, 11] {
            #expect(try channelZero(withOthers: others) == alone, "with \(others) other voices")
        }
    }

    /// With one output bus, filter batches mix their voices' dry signal eight at a time into a
    /// bus of their own, and effects run only while something is sent or a tail rings. Every
    /// voice must still be heard once, with its pan and sends, and nothing may depend on how
    /// render calls are sliced: batches are made afresh for every call, voices that end inside
    /// a call leave their filter ringing in the batch's buffer, and effects start and stop at
    /// call boundaries.
    @Test(arguments: [false, true])
    func batchMixedVoicesAndEffectsSoundTheSameWhateverTheSlicing(effects: Bool) throws {
        // Keys below 60 are filtered (a sweep from the modulation envelope), the others are not.
        let bank = TestBank.multiZone([
            (0...59, [Generator(.initialFilterFc, 6000), Generator(.initialFilterQ, 40),
                      Generator(.modEnvToFilterFc, 2400), Generator(.decayModEnv, -3000),
                      Generator(.releaseVolEnv, -4000), Generator(.reverbEffectsSend, 300),
                      Generator(.chorusEffectsSend, 200)]),
            (60...127, [Generator(.releaseVolEnv, -4000), Generator(.reverbEffectsSend, 200)]),
        ])
        let total = 200_000
        func play(block: Int, channelOutputs: Bool) throws -> Rendered {
            var config = SynthesizerConfiguration()
            config.reverbEnabled = effects
            config.chorusEnabled = effects
            config.channelOutputs = channelOutputs
            let s = try Synthesizer(soundBank: bank, configuration: config)
            for ch in 0..<8 { s.sendController(10, withValue: UInt8(ch * 18), onChannel: UInt8(ch)) }
            // 70 voices: three windows of 32, four in five filtered, eight channels, starting
            // and ending at frames no block size lines up with; the last ends near frame 25 000,
            // so the effect tails also end (and start again with a last note) inside the render.
            for k in 0..<70 {
                let key = UInt8(k % 5 == 0 ? 60 + k % 60 : 10 + k % 50)
                let ch = UInt8(k % 8)
                s.startNote(key, withVelocity: UInt8(40 + k), onChannel: ch, atFrame: 7 * k)
                s.stopNote(key, onChannel: ch, atFrame: 2000 + 331 * k)
            }
            s.startNote(30, withVelocity: 100, onChannel: 0, atFrame: 190_003)
            if !channelOutputs { return s.renderSeconds(Double(total) / s.sampleRate, block: block) }
            let buffers = (0..<config.channelCount).map { _ in
                StereoBuffer(left: .allocate(capacity: block), right: .allocate(capacity: block))
            }
            defer { for b in buffers { b.left.deallocate(); b.right.deallocate() } }
            var l = [Float](repeating: 0, count: block), r = l
            var out = Rendered(left: [], right: [], rate: s.sampleRate)
            var done = 0
            while done < total {
                let n = min(block, total - done)
                s.render(left: &l, right: &r, channels: buffers, frameCount: n)
                out.left += l[..<n]
                out.right += r[..<n]
                done += n
            }
            return out
        }
        let reference = try play(block: 4096, channelOutputs: false)
        #expect(Measure.rms(reference.left[...]) > 0.01 && Measure.rms(reference.right[...]) > 0.01)
        if effects {
            // The tails did end before the last note: silence in between.
            #expect(Measure.peak(reference.left[185_000..<190_000]) == 0)
        }
        for block in [1, 3, 17, 300] {
            let x = try play(block: block, channelOutputs: false)
            #expect(x.left == reference.left && x.right == reference.right, "block \(block) differs")
        }
        // Separate channel buses mix one voice at a time (the batches mix only into a shared
        // bus) and run their own effects, started and stopped together on the summed output:
        // the same signal, summed in another order.
        let perChannel = try play(block: 300, channelOutputs: true)
        var worst: Float = 0
        for i in reference.left.indices {
            worst = max(worst, abs(perChannel.left[i] - reference.left[i]), abs(perChannel.right[i] - reference.right[i]))
        }
        #expect(worst < 1e-6, "largest difference \(worst)")
    }

    /// Effects start at the first frame anything is sent and judge their tails from there, so a
    /// song sounds the same bit for bit however much silence precedes it (as live playback, which
    /// starts rendering before the first note, must match an offline render), tails included.
    @Test func leadingSilenceDoesNotChangeTheSoundWithEffects() throws {
        let bank = TestBank.sine(generators: [Generator(.reverbEffectsSend, 400), Generator(.chorusEffectsSend, 300),
                                              Generator(.releaseVolEnv, -2000)])
        func play(after silence: Int) throws -> Rendered {
            let s = try Synthesizer(soundBank: bank)
            s.startNote(60, withVelocity: 100, onChannel: 0, atFrame: silence)
            s.startNote(67, withVelocity: 90, onChannel: 0, atFrame: silence + 2_000)
            s.stopNote(60, onChannel: 0, atFrame: silence + 10_000)
            s.stopNote(67, onChannel: 0, atFrame: silence + 12_000)
            // A second phrase after the tails have ended: the effects start again.
            s.startNote(64, withVelocity: 100, onChannel: 0, atFrame: silence + 250_000)
            var out = s.renderSeconds(Double(silence + 270_000) / s.sampleRate, block: 300)
            out.left.removeFirst(silence)
            out.right.removeFirst(silence)
            #expect(s.effectsAreSilent == false)
            return out
        }
        let reference = try play(after: 0)
        #expect(Measure.peak(reference.left[240_000..<250_000]) == 0, "the tails ended before the second phrase")
        #expect(Measure.rms(reference.left[250_000...]) > 0.01)
        for silence in [1, 777, 44_100] {
            let x = try play(after: silence)
            #expect(x.left == reference.left && x.right == reference.right, "after \(silence) frames of silence")
        }
    }

    /// The two halves of a stereo pair (same length, loop, rate and gain) are rendered with one
    /// phase stream while they stay in step. That must sound exactly like rendering them one by
    /// one — through vibrato, a filter sweep, loop wraps, release and the end of the voice —
    /// and the shared path must actually be taken, whichever half's voice comes first (the
    /// one whose sample lies later in the pool leads when the other comes first).
    @Test(arguments: [false, true])
    func stereoPairsInStepSoundExactlyAsRenderedAlone(rightZoneFirst: Bool) throws {
        let shared = [Generator(.sampleModes, 1), Generator(.initialFilterFc, 7000), Generator(.modEnvToFilterFc, 2400),
                      Generator(.decayModEnv, -2000), Generator(.freqVibLFO, 0), Generator(.vibLfoToPitch, 40),
                      Generator(.releaseVolEnv, -3000)]
        let bank = TestBank.stereoPair(generators: shared, rightZoneFirst: rightZoneFirst)
        func play(pairing: Bool, block: Int) throws -> (Rendered, Int) {
            let s = try Synthesizer(soundBank: bank)
            s.pairsStereoTwins = pairing
            for (k, key) in [60, 64, 67, 72].enumerated() {
                s.startNote(UInt8(key), withVelocity: 100, onChannel: 0, atFrame: 101 * k)
                s.stopNote(UInt8(key), onChannel: 0, atFrame: 20_000 + 3001 * k)
            }
            let out = s.renderSeconds(1.0, block: block)
            return (out, s.stereoTwinFrames)
        }
        let (alone, noTwins) = try play(pairing: false, block: 512)
        #expect(noTwins == 0)
        #expect(Measure.rms(alone.left[...]) > 0.01 && Measure.rms(alone.right[...]) > 0.01)
        for block in [1, 17, 512] {
            let (paired, twinFrames) = try play(pairing: true, block: block)
            // Four pairs sounding for about half a second or more each.
            #expect(twinFrames > 4 * 20_000, "block \(block): \(twinFrames) frames rendered in pairs")
            #expect(paired.left == alone.left && paired.right == alone.right, "block \(block) differs")
        }
    }
}
