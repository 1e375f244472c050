import Foundation
import PolyphonSoundFont
import Testing
@testable import PolyphonSynth

/// `fluidSynthCompatible` counts envelope stages in FluidSynth's 64-frame blocks and gives a
/// resonant filter's cutoff FluidSynth 2.6's lag; off, both follow the SoundFont text exactly.
@Suite("FluidSynth block timing")
struct FluidSynthBlockTimingTests {
    static func synth(_ bank: SoundFont, blocks: Bool) throws -> Synthesizer {
        var configuration = SynthesizerConfiguration.dry
        configuration.fluidSynthCompatible = blocks
        return try Synthesizer(soundBank: bank, sampleRate: 44_100, configuration: configuration)
    }

    /// A constant (DC) sample, so the output is the volume envelope itself: delay 2 ms (88.2
    /// frames), attack 3 ms (132.3 frames).
    static let dcBank = SoundFont.singleSample([Int16](repeating: 16_000, count: 2_000), loop: 100..<1_900,
                                               instrumentGenerators: [Generator(.delayVolEnv, -10_759),
                                                                      Generator(.attackVolEnv, -10_057)])

    /// The attack's level at control-period ends, as a share of the level it reaches: exact
    /// times against FluidSynth's (delay rounded down to one block, attack 1 + 2 blocks).
    @Test func envelopeStagesAreCountedInWholeBlocks() throws {
        func levels(blocks: Bool) throws -> [Double] {
            let out = try Self.synth(Self.dcBank, blocks: blocks)
            out.startNote(60, withVelocity: 127, onChannel: 0)
            let audio = out.renderSeconds(0.02)
            let full = Double(audio.left[audio.left.count - 1])
            return [64, 128, 192, 256].map { Double(audio.left[$0]) / full }
        }
        let exact = try levels(blocks: false), counted = try levels(blocks: true)
        let delay = 0.002 * 44_100, attack = 0.003 * 44_100
        for (i, frame) in [64.0, 128, 192, 256].enumerated() {
            let exactExpected = min(1, max(0, (frame - delay) / attack))
            let countedExpected = min(1, max(0, (frame - 64) / 192))
            #expect(abs(exact[i] - exactExpected) < 0.01, "exact, frame \(frame): \(exact[i]) against \(exactExpected)")
            #expect(abs(counted[i] - countedExpected) < 0.01, "blocks, frame \(frame): \(counted[i]) against \(countedExpected)")
        }
    }

    /// A 1046.5 Hz sine through a filter with 20 dB of resonance (a lag of 5 blocks) whose
    /// cutoff a modulation envelope drops from 8400 cents (1046.5 Hz) to 6000 (261.6 Hz) in its
    /// first 2 ms. Followed at once, the sine is two octaves above the cutoff within a few
    /// periods; with FluidSynth 2.6's lag the cutoff closes a fifth of the remaining way per
    /// period, so 5 ms in the sine is still far louder, and after 40 ms both agree.
    @Test func aResonantCutoffFollowsItsModulatorsWithFluidSynthsLag() throws {
        let bank = TestBank.sine(generators: [
            Generator(.initialFilterFc, 6_000), Generator(.initialFilterQ, 200), Generator(.modEnvToFilterFc, 2_400),
            Generator(.attackModEnv, -32_768), Generator(.holdModEnv, -32_768),
            Generator(.decayModEnv, -10_759), Generator(.sustainModEnv, 1_000),
        ])
        #expect(FluidSynthBlockTiming.cutoffLag(qCentibels: 200) == 5)
        #expect(FluidSynthBlockTiming.cutoffLag(qCentibels: 0) == 1)
        func sineLevel(blocks: Bool, at seconds: Double) throws -> Double {
            let out = try Self.synth(bank, blocks: blocks)
            out.startNote(84, withVelocity: 127, onChannel: 0)  // 440 Hz at key 69, 15 semitones up
            let audio = out.renderSeconds(seconds + 0.003)
            let window = audio.left[audio.frame(seconds)..<audio.frame(seconds + 0.003)]
            return Measure.db(Self.amplitude(window, hz: 1046.5, rate: 44_100))
        }
        let earlyAtOnce = try sineLevel(blocks: false, at: 0.005), earlyLagged = try sineLevel(blocks: true, at: 0.005)
        let lateAtOnce = try sineLevel(blocks: false, at: 0.04), lateLagged = try sineLevel(blocks: true, at: 0.04)
        #expect(earlyLagged - earlyAtOnce > 6, "5 ms: lagged \(earlyLagged) dB, at once \(earlyAtOnce) dB")
        #expect(abs(lateLagged - lateAtOnce) < 1, "40 ms: lagged \(lateLagged) dB, at once \(lateAtOnce) dB")
    }

    /// The amplitude of the `hz` component (Goertzel over the window).
    static func amplitude(_ x: ArraySlice<Float>, hz: Double, rate: Double) -> Double {
        let w = 2 * Double.pi * hz / rate
        var re = 0.0, im = 0.0
        for (n, v) in x.enumerated() {
            re += Double(v) * cos(w * Double(n))
            im -= Double(v) * sin(w * Double(n))
        }
        return 2 * (re * re + im * im).squareRoot() / Double(x.count)
    }
}
