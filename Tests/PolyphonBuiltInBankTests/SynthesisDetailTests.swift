import Foundation
import Testing
import PolyphonMath
import PolyphonTestSupport
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore
@testable import PolyphonBuiltInBank
@testable import PolyphonSynth

/// The pieces the bank is made from: portable math that matches libm, samples tuned at every
/// root, and velocity that changes both level and brightness.
@Suite("Built-in GM bank: synthesis details") struct SynthesisDetailTests {
    typealias B = BuiltInBankSupport

    /// The polynomial functions agree with the platform's libm far below 16-bit resolution.
    @Test func portableMathMatchesLibm() {
        var random = SeededRandom(seed: 42)
        for _ in 0..<10_000 {
            let x = random.bipolar() * 100
            #expect(abs(PortableMath.sin(x) - sin(x)) < 1e-12)
            #expect(abs(PortableMath.cos(x) - cos(x)) < 1e-12)
            let y = random.bipolar() * 30
            #expect(abs(PortableMath.exp(y) - exp(y)) <= 1e-13 * exp(y))
            #expect(abs(PortableMath.tanh(y / 10) - tanh(y / 10)) < 1e-13)
            let z = random.unit() * 1e6 + 1e-6
            #expect(abs(PortableMath.log(z) - log(z)) < 1e-12)
            #expect(abs(PortableMath.log2(z) - log2(z)) < 1e-12)
            #expect(abs(PortableMath.exp2(y) - exp2(y)) <= 1e-13 * exp2(y))
            #expect(abs(PortableMath.pow(z, y / 10) - pow(z, y / 10)) <= 1e-12 * pow(z, y / 10))
        }
        // The edges, where libm's answers are exact.
        #expect(PortableMath.sin(.infinity).isNaN && PortableMath.exp(.nan).isNaN)
        #expect(PortableMath.exp(-746) == 0 && PortableMath.exp(710) == .infinity)
        #expect(PortableMath.exp(-740) > 0, "a subnormal, as libm's")
        #expect(PortableMath.log(0) == -.infinity && PortableMath.log(-1).isNaN && PortableMath.log(.infinity) == .infinity)
        #expect(PortableMath.pow(-2, 3) == -8 && PortableMath.pow(0, 2) == 0 && PortableMath.pow(5, 0) == 1)
        for i in 0..<5000 {
            let phase = Double(i) / 1000.37
            #expect(abs(SineTable.value(cycles: phase) - sin(2 * Double.pi * phase)) < 1e-6)
            #expect(abs(DecayTable.value(phase / 125) - exp(-phase / 125)) < 1e-5)
        }
    }

    /// Every sample of the drawbar organ (pure harmonics) plays in tune at the keys around its
    /// root: the pitch correction stored with each sample is right.
    @Test(arguments: [30, 45, 52, 60, 69, 78, 90, 100]) func organIsInTuneAcrossTheKeyboard(key: Int) throws {
        let x = B.mono(try B.note(program: 16, key: UInt8(key), hold: 1, tail: 0))
        let m = SpectrumAnalysis.magnitudes(x[4410..<4410 + 32768])
        let w = SpectrumAnalysis.binHz(m, rate: 44100)
        let f0 = Measure.midiFrequency(Double(key))
        let lo = Int(f0 * 0.97 / w), hi = Int(f0 * 1.03 / w) + 1
        let k = (lo...hi).max { m[$0] < m[$1] }!
        let a = m[k - 1], b = m[k], c = m[k + 1]
        let f = (Double(k) + 0.5 * (a - c) / (a - 2 * b + c)) * w
        // Below key 45 the bins are coarse against the cents measured: allow a little more.
        #expect(abs(Measure.cents(f, f0)) < (key < 45 ? 5 : 3), "key \(key) sounds at \(f) Hz, \(Measure.cents(f, f0)) cents off")
    }

    /// Harder notes are louder and, on the piano and brass, brighter: a larger share of their
    /// power lies above 1.5 kHz.
    @Test(arguments: [0, 56, 61]) func velocityChangesLevelAndBrightness(program: Int) throws {
        func measure(_ velocity: UInt8) throws -> (level: Double, upper: Double) {
            let x = B.mono(try B.note(program: program, velocity: velocity, hold: 0.6, tail: 0))
            let upper = SpectrumAnalysis.bandShare(SpectrumAnalysis.magnitudes(x[4410..<4410 + 16384]), rate: 44100, 1500, 20000)
            return (B.rmsDB(x, from: 0, to: 0.5), upper)
        }
        let soft = try measure(40), hard = try measure(120)
        #expect(hard.level - soft.level > 10, "level \(soft.level) → \(hard.level) dB")
        #expect(hard.upper > soft.upper * 1.2, "share above 1.5 kHz \(soft.upper) → \(hard.upper)")
    }

    /// Bowed strings and flutes get vibrato after a delay: the partials of a held violin note
    /// smear wider late in the note than early.
    @Test func violinVibratoStartsAfterADelay() throws {
        let x = B.mono(try B.note(program: 40, key: 69, hold: 2, tail: 0))
        func peakWidth(_ from: Double) -> Int {
            let start = Int(from * 44100)
            let m = SpectrumAnalysis.magnitudes(x[start..<start + 16384])
            let w = SpectrumAnalysis.binHz(m, rate: 44100)
            let lo = Int(400 / w), hi = Int(480 / w)
            let peak = m[lo...hi].max()!
            // Bins within 12 dB of the fundamental's peak.
            return m[lo...hi].filter { $0 > peak / 4 }.count
        }
        let early = peakWidth(0.02), late = peakWidth(1.2)
        #expect(late > early, "fundamental spans \(early) bins early, \(late) bins late")
    }
}
