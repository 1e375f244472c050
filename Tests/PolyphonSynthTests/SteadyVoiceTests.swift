import Foundation
import Testing
import PolyphonSoundFont
@_spi(Testing) @testable import PolyphonSynth

/// A held note at its sustain level, with nothing moving its pitch, cutoff or gain, is steady:
/// its control points would only count time, so the oscillator runs on through them. That must
/// give exactly the bits of a control point every 64 frames — through note-offs (also under
/// the pedal), pitch bends, volume and pan changes, samples that end, shared filters and
/// stereo pairs — and must actually happen. Also where every control point flushes the
/// filters' tiny state (as on WebAssembly and ARM, see `DenormalMode`): steady points flush too.
@Suite struct SteadyVoiceTests {
    /// Four kinds of held note:
    /// - keys 0–47: a modulation envelope that bends the pitch and settles in its sustain (in
    ///   use, steady), with a resonant filter too low to share;
    /// - keys 48–59: a modulation envelope that settles the cutoff, with a slow release, so
    ///   the voices end up in shared filters;
    /// - keys 60–71: a sample that does not loop and ends while the note is held;
    /// - keys 72–127: vibrato (never steady).
    static let bank = TestBank.multiZone([
        (0...47, [Generator(.initialFilterFc, 6000), Generator(.initialFilterQ, 60), Generator(.modEnvToPitch, 50),
                  Generator(.decayModEnv, -3000), Generator(.sustainModEnv, 500), Generator(.releaseModEnv, -1200),
                  Generator(.releaseVolEnv, -1200)]),
        (48...59, [Generator(.initialFilterFc, 9500), Generator(.modEnvToFilterFc, -600), Generator(.decayModEnv, -2400),
                   Generator(.sustainModEnv, 300), Generator(.releaseModEnv, 2400), Generator(.releaseVolEnv, -2400)]),
        (60...71, [Generator(.initialFilterFc, 10500), Generator(.sampleModes, 0)]),
        (72...127, [Generator(.vibLfoToPitch, 30), Generator(.freqVibLFO, 0), Generator(.initialFilterFc, 11500)]),
    ])

    /// Ten notes on three channels started at odd frames (keys 50, 55 and 57 join shared
    /// filters at about 0.28 s), then: a pitch bend, a note-off under the sustain pedal and the
    /// pedal's release, a volume change, a pan change and a reverb send change on channels
    /// whose steady voices are in shared filters (they leave), the mod wheel (vibrato through
    /// the default modulator, on voices steady until then) and plain note-offs. Renders one
    /// second in blocks of `block`; `probe` runs after the first 0.3 s, and `sharingOffCalls`
    /// switches sharing off for those render calls; `flushing` flushes filter state at every
    /// control point.
    static func play(steady: Bool, sharing: Bool = true, block: Int, sharingOffCalls: Set<Int> = [],
                     flushing: Bool = false, probe: ((Synthesizer) -> Void)? = nil) throws -> (Rendered, Synthesizer) {
        var config = SynthesizerConfiguration()
        config.reverbEnabled = true
        config.chorusEnabled = false
        let s = try Synthesizer(soundBank: bank, configuration: config)
        s.skipsSteadyControlPoints = steady
        s.sharesFilters = sharing
        s.flushesFilterStateAtControlPoints = flushing
        s.sendController(91, withValue: 80, onChannel: 1)
        for (k, key) in [36, 43, 50, 55, 62, 67, 76, 40, 57, 64].enumerated() {
            s.startNote(UInt8(key), withVelocity: UInt8(70 + 5 * k), onChannel: UInt8(k % 3), atFrame: 29 * k + 3)
        }
        s.sendPitchBend(9000, onChannel: 0, atFrame: 16_001)
        s.sendController(64, withValue: 127, onChannel: 1, atFrame: 17_000)
        s.stopNote(43, onChannel: 1, atFrame: 18_333)
        s.sendController(7, withValue: 90, onChannel: 2, atFrame: 21_111)
        s.sendController(10, withValue: 30, onChannel: 2, atFrame: 24_000)
        s.sendController(91, withValue: 40, onChannel: 0, atFrame: 26_000)
        s.sendController(64, withValue: 0, onChannel: 1, atFrame: 27_777)
        s.sendController(1, withValue: 100, onChannel: 0, atFrame: 28_500)
        s.stopNote(36, onChannel: 0, atFrame: 30_500)
        s.stopNote(50, onChannel: 2, atFrame: 33_000)
        let total = 44_100
        var out = Rendered(left: [Float](repeating: 0, count: total), right: [Float](repeating: 0, count: total), rate: 44_100)
        var done = 0, call = 0
        while done < total {
            let n = min(block, total - done)
            s.sharesFilters = sharing && !sharingOffCalls.contains(call)
            out.left.withUnsafeMutableBufferPointer { l in
                out.right.withUnsafeMutableBufferPointer { r in
                    s.render(left: l.baseAddress! + done, right: r.baseAddress! + done, frameCount: n)
                }
            }
            if done < 13_230 && done + n >= 13_230 { probe?(s) }
            done += n
            call += 1
        }
        return (out, s)
    }

    @Test(arguments: [false, true])
    func steadyVoicesSoundExactlyAsWithEveryControlPoint(flushing: Bool) throws {
        for sharing in [true, false] {
            let (reference, plain) = try Self.play(steady: false, sharing: sharing, block: 512, flushing: flushing)
            #expect(plain.steadyPointsPassed.all == 0)
            #expect(Measure.rms(reference.left[...]) > 0.01 && Measure.rms(reference.right[...]) > 0.01)
            if sharing { #expect(plain.sharedFilterFrames > 3 * 10_000) }
            for block in [1, 17, 64, 512, 4096] {
                var steadyVoices = 0
                let (out, s) = try Self.play(steady: true, sharing: sharing, block: block, flushing: flushing) {
                    steadyVoices = $0.steadyVoiceCount
                }
                // At 0.3 s: the six looped notes without vibrato (measured: 6).
                #expect(steadyVoices >= 5, "block \(block), sharing \(sharing): \(steadyVoices) steady voices")
                let (passed, runThrough) = s.steadyPointsPassed
                #expect(passed > 2_000, "block \(block), sharing \(sharing): \(passed) points passed")
                // A block shorter than two periods leaves nothing to run through.
                if block >= 512 {
                    #expect(runThrough > passed / 2, "block \(block), sharing \(sharing): \(runThrough) run through")
                } else {
                    #expect(runThrough == 0)
                }
                #expect(out.left == reference.left && out.right == reference.right,
                        "block \(block), sharing \(sharing) differs")
            }
        }
    }

    /// Sharing switched off for a few render calls and on again (the test switch): members
    /// leave and join again, and voices judged steady with one setting must not skip with the
    /// other.
    @Test(arguments: [false, true])
    func switchingSharingBetweenCallsChangesNothing(flushing: Bool) throws {
        for block in [17, 512, 4096] {
            let off = Set((0..<200).filter { ($0 * block / 4_000) % 3 == 1 })
            let (reference, _) = try Self.play(steady: false, block: block, sharingOffCalls: off, flushing: flushing)
            let (out, s) = try Self.play(steady: true, block: block, sharingOffCalls: off, flushing: flushing)
            #expect(s.steadyPointsPassed.all > 2_000)
            #expect(out.left == reference.left && out.right == reference.right, "block \(block) differs")
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
    @Test(arguments: [false, true])
    func stereoPairsStaySteadyTogether(flushing: Bool) throws {
        let bank = TestBank.stereoPair(generators: [Generator(.sampleModes, 1), Generator(.initialFilterFc, 8000),
                                                    Generator(.releaseVolEnv, -3000)])
        func play(steady: Bool, pairing: Bool, block: Int) throws -> (Rendered, Int, Int) {
            let s = try Synthesizer(soundBank: bank)
            s.skipsSteadyControlPoints = steady
            s.pairsStereoTwins = pairing
            s.flushesFilterStateAtControlPoints = flushing
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

    /// A steady voice whose loop is mostly silence: its filter rings down below 1e-20 in every
    /// loop, where a flush sets the state to 0. Where every control point flushes, the steady
    /// points run through must flush too, or the silence would not be the same.
    @Test func steadyPointsFlushTheFilterAsEveryControlPointDoes() throws {
        let burst = 200, n = 20_000
        var data = (0..<n).map { i in i < burst ? Int16((16_000 * sin(2 * Double.pi * Double(i) / 100)).rounded()) : 0 }
        data += [Int16](repeating: 0, count: 46)
        let header = SampleHeader(name: "burst", start: 0, end: UInt32(n), loopStart: 0, loopEnd: UInt32(n),
                                  sampleRate: 44_100, originalPitch: 60, pitchCorrection: 0)
        let zone = Zone(generators: [Generator(.sampleModes, 1), Generator(.initialFilterFc, 8000), Generator(.sampleID, 0)],
                        modulators: [])
        let bank = SoundFont(presets: [Preset(name: "Burst", program: 0, bank: 0, zones: [Zone(generators: [Generator(.instrument, 0)], modulators: [])])],
                             instruments: [Instrument(name: "burst", zones: [zone])], samples: [header],
                             sampleData: SampleData(copying: data))
        func play(steady: Bool, flushing: Bool) throws -> (Rendered, Int) {
            let s = try Synthesizer(soundBank: bank)
            s.skipsSteadyControlPoints = steady
            s.flushesFilterStateAtControlPoints = flushing
            s.sharesFilters = false  // the voice's own filter rings down
            s.startNote(60, withVelocity: 100, onChannel: 0)
            let out = s.renderSeconds(2, block: 4096)
            return (out, s.steadyPointsPassed.runThrough)
        }
        let (reference, _) = try play(steady: false, flushing: true)
        let (out, runThrough) = try play(steady: true, flushing: true)
        let (unflushed, _) = try play(steady: true, flushing: false)
        #expect(runThrough > 500)
        #expect(out.left == reference.left && out.right == reference.right)
        // The flushes matter here: without them the tails are not the same bits.
        #expect(unflushed.left != reference.left)
    }
}
