import Foundation
import PolyphonSoundFont
import Testing
@testable import PolyphonSynth

/// Modulator source curves as the SF2 2.04 text (§8.4) gives them and FluidSynth 2.6 plays
/// them ("Refactor modulator mappings and fix bipolar, concave and convex"): a 7-bit source
/// counts in 128ths, so its top value is 127/128 in either direction; concave and convex
/// read their tables at 128 × that value. Expected figures are worked out from the spec's
/// curves, concave(i) = −(400/960)·log10((127 − i)/127) and convex(i) = 1 + (400/960)·log10(i/127).
@Suite("Modulator curves (SF2 2.04, FluidSynth 2.6)")
struct ModulatorCurveTests {
    /// The level drop (dB) of a sine when CC20, through `source`, drives initialAttenuation by
    /// `amount` cB, at each of `values`, against the same note without the modulator.
    static func attenuation(_ source: ModulatorSource, amount: Int16, at values: [UInt8]) throws -> [Double] {
        func level(_ bank: SoundFont, _ cc: UInt8) throws -> Double {
            let s = try Synthesizer(soundBank: bank)
            s.sendController(20, withValue: cc, onChannel: 0)
            s.startNote(69, withVelocity: 127, onChannel: 0)
            let out = s.renderSeconds(0.4)
            return Measure.db(Measure.rms(out.left[out.frame(0.2)...]))
        }
        let plain = try level(TestBank.sine(), 0)
        let bank = TestBank.sine(modulators: [Modulator(source: source, destination: .initialAttenuation, amount: amount)])
        return try values.map { plain - (try level(bank, $0)) }
    }

    /// The pitch (cents from 440 Hz) when CC20, through `source`, drives fineTune by `amount`.
    static func cents(_ source: ModulatorSource, amount: Int16, at value: UInt8) throws -> Double {
        let bank = TestBank.sine(modulators: [Modulator(source: source, destination: .fineTune, amount: amount)])
        let s = try Synthesizer(soundBank: bank)
        s.sendController(20, withValue: value, onChannel: 0)
        s.startNote(69, withVelocity: 100, onChannel: 0)
        let out = s.renderSeconds(0.6)
        return Measure.cents(Measure.frequency(out.left[out.frame(0.1)..<out.frame(0.6)], rate: 44_100), 440)
    }

    @Test func unipolarLinearRunsInHundredTwentyEighths() throws {
        // Positive: 127 → 127/128 of 48 dB = 47.625 dB; 64 → 24 dB.
        let up = try Self.attenuation(.cc(20), amount: 480, at: [127, 64])
        #expect(abs(up[0] - 47.625) < 0.02 && abs(up[1] - 24) < 0.02, "\(up)")
        // Negative: 0 → 127/128 (47.625 dB), 64 → 63/128 (23.625 dB), 127 → 0.
        let down = try Self.attenuation(.cc(20, isDecreasing: true), amount: 480, at: [0, 64, 127])
        #expect(abs(down[0] - 47.625) < 0.02 && abs(down[1] - 23.625) < 0.02 && abs(down[2]) < 0.01, "\(down)")
    }

    @Test func concaveAndConvexStopAtTheTopValue() throws {
        // Positive concave, 48 dB: 127 → 127/128 (47.625 dB; 1 would be 48), 64 → concave(64)
        // = 6.089 dB.
        let concave = try Self.attenuation(.cc(20, curve: .concave), amount: 480, at: [127, 64])
        #expect(abs(concave[0] - 47.625) < 0.02 && abs(concave[1] - 6.089) < 0.02, "\(concave)")
        // Negative convex, 48 dB: 32 → convex(95) = 45.48 dB.
        let convex = try Self.attenuation(.cc(20, isDecreasing: true, curve: .convex), amount: 480, at: [32])
        #expect(abs(convex[0] - 45.478) < 0.02, "\(convex)")
    }

    @Test func bipolarCurvesInCents() throws {
        // Positive bipolar concave, 100 cents: 96 → +concave(64) = +12.69, 32 → −12.69,
        // 127 → its top value kept, 127/128 → +99.22 (FluidSynth 2.3.1: concave(125), +75.1).
        // The pitch is exact by default (FluidSynth's whole cents only with fluidSynthCompatible).
        let concave = Self.cc20(isBipolar: true, curve: .concave)
        #expect(abs(try Self.cents(concave, amount: 100, at: 96) - 12.69) < 0.3)
        #expect(abs(try Self.cents(concave, amount: 100, at: 32) + 12.69) < 0.3)
        #expect(abs(try Self.cents(concave, amount: 100, at: 127) - 99.22) < 0.3)
        // Negative bipolar convex: 0 → 127/128 (+99.22); 64 is −1/64 before the curve, which
        // convex bends to −convex(2) = −24.88 cents (FluidSynth 2.3.1: 0); 96 → −convex(66)
        // = −88.16.
        let convex = Self.cc20(isDecreasing: true, isBipolar: true, curve: .convex)
        #expect(abs(try Self.cents(convex, amount: 100, at: 0) - 99.22) < 0.3)
        #expect(abs(try Self.cents(convex, amount: 100, at: 64) + 24.88) < 0.3)
        #expect(abs(try Self.cents(convex, amount: 100, at: 96) + 88.16) < 0.3)
    }

    @Test func aModulatorWithoutASourceIsAConstant() throws {
        // FluidSynth 2.6 ("Allow constant modulators"): no primary source reads as 1, so the
        // amount applies as it is (2.3.1 forced the output to 0).
        let constant = Modulator(source: ModulatorSource(rawValue: 0), destination: .fineTune, amount: 30)
        let s = try Synthesizer(soundBank: TestBank.sine(modulators: [constant]))
        s.startNote(69, withVelocity: 100, onChannel: 0)
        let out = s.renderSeconds(0.6)
        #expect(abs(Measure.cents(Measure.frequency(out.left[out.frame(0.1)..<out.frame(0.6)], rate: 44_100), 440) - 30) < 0.3)
    }

    static func cc20(isDecreasing: Bool = false, isBipolar: Bool = false, curve: ModulatorSource.Curve) -> ModulatorSource {
        .cc(20, isDecreasing: isDecreasing, isBipolar: isBipolar, curve: curve)
    }
}
