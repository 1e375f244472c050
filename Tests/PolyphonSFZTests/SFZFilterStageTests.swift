import Foundation
import PolyphonSynth
import PolyphonTestSupport
import Testing
@testable import PolyphonSFZ

/// SFZ's shelving, peaking, pink and state-variable filters, the second filter, the equaliser
/// bands and the controllers moving them through curves, steps and smoothing, measured in
/// sound: a sine's level in dB against the same sine unfiltered, compared with the responses of
/// the RBJ cookbook designs sfizz builds its filters from (computed here from the cookbook's
/// formulas), and over time in ms for the smoothing.
@Suite struct SFZFilterStageTests {
    static let rate = 44_100.0

    /// The cookbook biquad's gain in dB at `hertz`, designed at `f0` with quality `q` and shelf
    /// or peak gain `gain` dB.
    static func cookbookDecibels(_ type: String, f0: Double, q: Double, gain: Double = 0, at hertz: Double) -> Double {
        let w0 = 2 * Double.pi * f0 / rate, cosW = cos(w0), alpha = sin(w0) / (2 * q)
        let a = pow(10, gain / 40), r = 2 * a.squareRoot() * alpha
        let (b, d): ([Double], [Double]) = switch type {
        case "lpf": ([(1 - cosW) / 2, 1 - cosW, (1 - cosW) / 2], [1 + alpha, -2 * cosW, 1 - alpha])
        case "hpf": ([(1 + cosW) / 2, -1 - cosW, (1 + cosW) / 2], [1 + alpha, -2 * cosW, 1 - alpha])
        case "peq": ([1 + alpha * a, -2 * cosW, 1 - alpha * a], [1 + alpha / a, -2 * cosW, 1 - alpha / a])
        case "lsh": ([a * ((a + 1) - (a - 1) * cosW + r), 2 * a * ((a - 1) - (a + 1) * cosW),
                      a * ((a + 1) - (a - 1) * cosW - r)],
                     [(a + 1) + (a - 1) * cosW + r, -2 * ((a - 1) + (a + 1) * cosW), (a + 1) + (a - 1) * cosW - r])
        default: ([a * ((a + 1) + (a - 1) * cosW + r), -2 * a * ((a - 1) + (a + 1) * cosW),
                   a * ((a + 1) + (a - 1) * cosW - r)],
                  [(a + 1) - (a - 1) * cosW + r, 2 * ((a - 1) - (a + 1) * cosW), (a + 1) - (a - 1) * cosW - r])
        }
        let w = 2 * Double.pi * hertz / rate
        func magnitude(_ c: [Double]) -> Double {
            let re = c[0] + c[1] * cos(w) + c[2] * cos(2 * w), im = -c[1] * sin(w) - c[2] * sin(2 * w)
            return (re * re + im * im).squareRoot()
        }
        return 20 * log10(magnitude(b) / magnitude(d))
    }

    /// The Q of an equaliser band `octaves` wide at `f0` (the cookbook's bandwidth formula).
    static func bandQ(octaves: Double, f0: Double) -> Double {
        let w0 = 2 * Double.pi * f0 / rate
        return 1 / (2 * sinh(log(2) / 2 * octaves * w0 / sin(w0)))
    }

    @Test func shelvesPeaksPinkStateVariableSecondFilterAndEqualiserInDecibels() throws {
        let bank = try SFZPlayingTests.bank("""
            <group> sample=tone.wav pitch_keytrack=0
            <region> lokey=30 hikey=40
            <region> key=41 fil_type=lsh cutoff=4000 fil_gain=12
            <region> key=42 fil_type=hsh cutoff=250 fil_gain=-12 resonance=3
            <region> key=43 fil_type=peq cutoff=1000 fil_gain=9
            <region> key=44 fil_type=peq cutoff=1400 fil_gain=-10 resonance=6
            <region> key=45 fil_type=bpf_2p_sv cutoff=1000 resonance=6
            <region> key=46 fil_type=bpf_2p cutoff=1000 resonance=6
            <region> key=47 fil_type=lpf_2p_sv cutoff=1000 resonance=6
            <region> key=48 fil_type=lpf_2p cutoff=1000 fil2_type=hpf_2p cutoff2=1000 resonance2=6
            <region> key=49 fil_type=lpf_2p cutoff=4000 fil2_type=lpf_2p cutoff2=250 fil2_keytrack=100 fil2_keycenter=37
            <region> key=50 eq1_freq=1000 eq1_gain=6
            <region> key=51 eq2_freq=2000 eq2_bw=2 eq2_gain=-8 eq3_freq=1000 eq3_gain=0 eq3_vel2gain=12
            <region> key=52 eq1_type=lshelf eq1_freq=4000 eq1_gain=10
            <region> key=53 fil_type=pink
            <region> key=54 sample=quarter.wav fil_type=pink
            <region> key=55 sample=quarter.wav
            """, files: ["tone.wav": SFZPlayingTests.sine(1000), "quarter.wav": SFZPlayingTests.sine(250)])
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        func level(_ key: UInt8, velocity: UInt8 = 127) throws -> Double {
            SFZPlayingTests.level(try SFZPlayingTests.play(bank, key: key, velocity: velocity, seconds: 0.3),
                                  from: 0.1, to: 0.3)
        }
        let open = try level(40)
        let q3 = pow(10, 3.0 / 20), q6 = pow(10, 6.0 / 20)
        let expected: [(key: UInt8, db: Double, what: String)] = [
            (41, Self.cookbookDecibels("lsh", f0: 4000, q: 1, gain: 12, at: 1000), "lsh two octaves below its corner"),
            (42, Self.cookbookDecibels("hsh", f0: 250, q: q3, gain: -12, at: 1000), "hsh two octaves above"),
            (43, 9, "peq at its centre: its gain"),
            (44, Self.cookbookDecibels("peq", f0: 1400, q: q6, gain: -10, at: 1000), "peq half an octave off"),
            (45, 6, "bpf_2p_sv peaks at its Q"),
            (46, 0, "bpf_2p peaks at 0 dB"),
            (47, 6, "lpf_2p_sv at its cutoff: Q, as lpf_2p"),
            (48, 6, "lpf_2p then hpf_2p (Q 2) at their cutoff"),
            // fil2_keytrack: key 49 is 12 keys above 37, the second cutoff an octave up at 500 Hz.
            (49, Self.cookbookDecibels("lpf", f0: 4000, q: 1, at: 1000)
                + Self.cookbookDecibels("lpf", f0: 500, q: 1, at: 1000), "two low-passes in series"),
            (50, 6, "eq1 at its centre"),
            (51, Self.cookbookDecibels("peq", f0: 2000, q: Self.bandQ(octaves: 2, f0: 2000), gain: -8, at: 1000) + 12,
             "eq2 two octaves wide an octave off, eq3 boosted 12 dB by velocity"),
            (52, Self.cookbookDecibels("lsh", f0: 4000, q: Self.bandQ(octaves: 1, f0: 4000), gain: 10, at: 1000),
             "eq1 as a low shelf"),
        ]
        for e in expected {
            let db = try level(e.key) - open
            #expect(abs(db - e.db) < 0.1, "key \(e.key) (\(e.what)): \(db) dB, expected \(e.db)")
        }
        // eq3_vel2gain=12 at velocity 64: 12 × 64/127 dB at the band's centre.
        let soft = try level(51, velocity: 64) - level(40, velocity: 64)
        let softExpected = Self.cookbookDecibels("peq", f0: 2000, q: Self.bandQ(octaves: 2, f0: 2000), gain: -8, at: 1000)
            + 12 * 64 / 127
        #expect(abs(soft - softExpected) < 0.1, "eq3_vel2gain at velocity 64: \(soft) dB, expected \(softExpected)")
        // Pink: −3 dB per octave, so 6 dB more at 250 Hz than at 1 kHz.
        let slope = (try level(54) - level(55)) - (try level(53) - open)
        #expect(abs(slope - 6) < 0.5, "pink over two octaves: \(slope) dB")
    }

    @Test func controllersMoveFiltersAndBandsThroughCurvesStepsAndSmoothing() throws {
        let bank = try SFZPlayingTests.bank("""
            <curve> curve_index=7 v000=0 v064=1 v127=1
            <group> sample=tone.wav pitch_keytrack=0
            <region> key=60 fil_type=lpf_2p cutoff=250 cutoff_oncc74=2400 cutoff_curvecc74=4
            <region> key=61 eq1_freq=1000 eq1_gain_oncc20=12 eq1_gain_curvecc20=7
            <region> key=62 eq1_freq=1000 eq1_gain_oncc22=12 eq1_gain_stepcc22=4
            <region> key=63 fil_type=hpf_2p cutoff=250 fil2_type=hpf_2p cutoff2=4000 cutoff2_oncc23=-2400
            <region> key=64 fil_type=peq cutoff=1000 fil_gain_oncc24=-12 fil_gain_smoothcc24=100
            <region> lokey=65 hikey=127
            """, files: ["tone.wav": SFZPlayingTests.sine(1000)])
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        /// `key` with controllers set before it starts, 0.1…0.3 s of it.
        func level(_ key: UInt8, _ controllers: [(UInt8, UInt8)] = []) throws -> Double {
            let synthesizer = try Synthesizer(soundBank: bank.soundFont)
            for (controller, value) in controllers { synthesizer.sendController(controller, withValue: value, onChannel: 0) }
            synthesizer.startNote(key, withVelocity: 127, onChannel: 0)
            return SFZPlayingTests.level(synthesizer.renderSeconds(0.3), from: 0.1, to: 0.3)
        }
        let open = try level(65)
        // Curve 4 (x²): CC 74 at 64 moves the cutoff (64/127)² × 2400 cents.
        let cutoff = 250 * pow(2, pow(64.0 / 127, 2) * 2)
        let curved = try level(60, [(74, 64)]) - open
        let curvedExpected = Self.cookbookDecibels("lpf", f0: cutoff, q: 1, at: 1000)
        #expect(abs(curved - curvedExpected) < 0.1, "cutoff_curvecc74=4: \(curved) dB, expected \(curvedExpected)")
        // A <curve> at 1 from 64 on: CC 20 at 64 gives the band all of its 12 dB, at 32 half.
        let tabled = try level(61, [(20, 64)]) - open, halfTabled = try level(61, [(20, 32)]) - open
        #expect(abs(tabled - 12) < 0.1 && abs(halfTabled - 6) < 0.1, "<curve>: \(tabled), \(halfTabled) dB")
        // Steps of 4 dB: CC 22 at 100 is 12 × 100/127 = 9.45 dB, truncated to 8.
        let stepped = try level(62, [(22, 100)]) - open
        #expect(abs(stepped - 8) < 0.1, "eq1_gain_stepcc22=4: \(stepped) dB")
        // The second filter's cutoff moved two octaves down to the sine.
        let lowered = try level(63, [(23, 127)]) - open, high = try level(63) - open
        let loweredExpected = Self.cookbookDecibels("hpf", f0: 250, q: 1, at: 1000)
        let highExpected = loweredExpected + Self.cookbookDecibels("hpf", f0: 4000, q: 1, at: 1000)
        #expect(abs(lowered - loweredExpected) < 0.1 && abs(high - highExpected) < 0.2,
                "cutoff2_oncc23: \(lowered), \(high) dB; expected \(loweredExpected), \(highExpected)")

        // Smoothing: CC 24 to 127 at 0.1 s moves the peak's gain to −12 dB linearly over 100 ms.
        let synthesizer = try Synthesizer(soundBank: bank.soundFont)
        synthesizer.startNote(64, withVelocity: 127, onChannel: 0)
        let before = synthesizer.renderSeconds(0.1, block: 64)
        synthesizer.sendController(24, withValue: 127, onChannel: 0)
        let after = synthesizer.renderSeconds(0.2, block: 64)
        let reference = try SFZPlayingTests.play(bank, key: 65, seconds: 0.3)
        func gain(at t: Double) -> Double {
            SFZPlayingTests.level(after, from: t - 0.1 - 0.002, to: t - 0.1 + 0.002)
                - SFZPlayingTests.level(reference, from: t - 0.002, to: t + 0.002)
        }
        #expect(abs(SFZPlayingTests.level(before, from: 0.05, to: 0.1) - SFZPlayingTests.level(reference, from: 0.05, to: 0.1))
                < 0.05, "flat before the change")
        #expect(abs(gain(at: 0.15) + 6) < 0.6, "halfway through the smoothing: \(gain(at: 0.15)) dB")
        #expect(abs(gain(at: 0.25) + 12) < 0.1, "after the smoothing: \(gain(at: 0.25)) dB")
    }

    /// sfizz's `fil_random` (a draw in 0…depth cents per note, for `fil2_random` as for the
    /// first filter) and `fil_veltrack_onccN` (cents added to the velocity tracking through the
    /// controller's curve), as cutoffs read back from a 1 kHz sine's level through a low-pass.
    @Test func randomCutoffAndVelocityTrackingControllersMoveTheCutoffInCents() throws {
        let bank = try SFZPlayingTests.bank("""
            <group> sample=tone.wav pitch_keytrack=0
            <region> key=60 fil_type=lpf_2p cutoff=250 fil_random=1800
            <region> key=61 fil_type=lpf_2p cutoff=20000 fil2_type=lpf_2p cutoff2=250 fil2_random=1800
            <region> key=62 fil_type=lpf_2p cutoff=250 fil_veltrack_oncc20=1800
            <region> key=63 fil_type=lpf_2p cutoff=250 fil_veltrack=600 fil_veltrack_oncc21=1200 fil_veltrack_curvecc21=4
            <region> lokey=64 hikey=127
            """, files: ["tone.wav": SFZPlayingTests.sine(1000)])
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        let open = SFZPlayingTests.level(try SFZPlayingTests.play(bank, key: 64, seconds: 0.2), from: 0.1, to: 0.2)
        /// The cents above 250 Hz of the low-pass whose response at 1 kHz is `db` (bisection; the
        /// response rises with the cutoff below 1 kHz). `extra` is the response of a filter in series.
        func cents(_ db: Double, extra: Double = 0) -> Double {
            var (low, high) = (-1200.0, 2300.0)
            for _ in 0..<40 {
                let middle = (low + high) / 2
                let response = Self.cookbookDecibels("lpf", f0: 250 * pow(2, middle / 1200), q: 1, at: 1000) + extra
                if response < db { low = middle } else { high = middle }
            }
            return (low + high) / 2
        }
        /// Eight notes of each key, one after another on one synthesizer: each note's cutoff in cents.
        func draws() throws -> [[Double]] {
            let synthesizer = try Synthesizer(soundBank: bank.soundFont)
            var cutoffs: [[Double]] = [[], []]
            for _ in 0..<8 {
                for (i, key) in [UInt8(60), 61].enumerated() {
                    synthesizer.startNote(key, withVelocity: 127, onChannel: 0)
                    let db = SFZPlayingTests.level(synthesizer.renderSeconds(0.15), from: 0.08, to: 0.15) - open
                    let first = key == 61 ? Self.cookbookDecibels("lpf", f0: 20000, q: 1, at: 1000) : 0
                    cutoffs[i].append(cents(db, extra: first))
                    synthesizer.stopNote(key, onChannel: 0)
                    _ = synthesizer.renderSeconds(0.03)
                }
            }
            return cutoffs
        }
        let cutoffs = try draws()
        for (name, drawn) in zip(["fil_random", "fil2_random"], cutoffs) {
            #expect(drawn.allSatisfy { $0 > -5 && $0 < 1805 }, "\(name): \(drawn) cents, expected 0…1800")
            #expect((drawn.max() ?? 0) - (drawn.min() ?? 0) > 600, "\(name): a spread of draws: \(drawn)")
        }
        #expect(cutoffs[0] != cutoffs[1], "the two filters draw independently")
        #expect(try draws() == cutoffs, "a second render repeats the draws")

        /// The level of `key` against the unfiltered key at the same velocity.
        func level(_ key: UInt8, velocity: UInt8, _ controllers: [(UInt8, UInt8)]) throws -> Double {
            func played(_ key: UInt8) throws -> Double {
                let synthesizer = try Synthesizer(soundBank: bank.soundFont)
                for (controller, value) in controllers { synthesizer.sendController(controller, withValue: value, onChannel: 0) }
                synthesizer.startNote(key, withVelocity: velocity, onChannel: 0)
                return SFZPlayingTests.level(synthesizer.renderSeconds(0.2), from: 0.1, to: 0.2)
            }
            return try played(key) - (velocity == 127 ? open : played(64))
        }
        // CC 20 at 127, velocity 64: 1800 × 64/127 cents. Curve 4 (x²), CC 21 at 64, velocity 127:
        // 600 + 1200 × (64/127)² cents.
        let expected: [(key: UInt8, velocity: UInt8, controllers: [(UInt8, UInt8)], cents: Double)] = [
            (62, 64, [(20, 127)], 1800 * 64 / 127),
            (62, 127, [], 0),
            (63, 127, [(21, 64)], 600 + 1200 * pow(64.0 / 127, 2)),
        ]
        for e in expected {
            let measured = cents(try level(e.key, velocity: e.velocity, e.controllers))
            #expect(abs(measured - e.cents) < 5, "key \(e.key): \(measured) cents, expected \(e.cents)")
        }
    }
}
