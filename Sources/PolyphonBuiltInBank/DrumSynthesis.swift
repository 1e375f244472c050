import PolyphonMath
import PolyphonSoundFont

/// The one-shot samples of the standard drum kit, each written in the time domain from the
/// physics of the instrument: a pitch-swept membrane, snare wires (noise), metal (inharmonic
/// square-wave clusters and high-passed noise), wood (short resonances).
enum DrumSound: Int, CaseIterable, Sendable {
    case kick, snare, sideStick, clap, tom, hiHat, crash, ride, rideBell, tambourine, cowbell
    case vibraslap, handDrum, timbale, agogo, shaker, whistle, guiro, claves, woodBlock, cuica, triangle

    private static let rate = GeneratedSample.rate

    /// Drive of a soft clip over the whole sound: recorded snares and shakers are compressed,
    /// their strokes' peaks held down against the body, which makes them louder for their peak.
    private var saturation: Double? {
        switch self {
        case .snare: return 2.5
        case .tambourine, .shaker: return 1.5
        default: return nil
        }
    }

    /// The sample (unlooped, unpitched: stored at key 60).
    func render(seed: UInt64) -> GeneratedSample {
        var random = SeededRandom(seed: seed)
        func points(_ seconds: Double, _ f: (Double, inout SeededRandom) -> Double) -> [Double] {
            (0..<Int(seconds * Self.rate)).map { f(Double($0) / Self.rate, &random) }
        }
        func e(_ t: Double, _ tau: Double) -> Double { DecayTable.value(t / tau) }
        // TR-808 metal: six square waves at inharmonic frequencies.
        func metal(_ t: Double, _ scale: Double) -> Double {
            var s = 0.0
            for f in [205.3, 304.4, 369.6, 522.7, 540.0, 800.0] {
                s += SineTable.value(cycles: f * scale * t) >= 0 ? 1 : -1
            }
            return s / 6
        }
        var out: [Double]
        switch self {
        case .kick:
            // The beater's slap is a short burst of dull noise: it carries the kick through the
            // mids (250 Hz–4 kHz) where the swept sine has nothing.
            var phase = 0.0
            var beater = LowPassNoise(cutoff: 2500)
            out = points(0.6) { t, r in
                phase += (48 + 110 * e(t, 0.035)) / Self.rate
                return SineTable.value(cycles: phase) * e(t, 0.28) + 3 * beater.next(&r) * e(t, 0.012)
            }
        case .snare:
            // The wires rattle from a few hundred hertz up and fall away above 7 kHz, as a real
            // snare's do: their noise is not white.
            // The shell's fundamental stays strong beside them: a real GM kit's snare (FluidR3_GM's)
            // has its most power at 125-250 Hz.
            var wiresLow = Biquad(.highPass, frequency: 300, q: 0.7)
            var wires = LowPassNoise(cutoff: 7000)
            out = points(0.45) { t, r in
                let body = (SineTable.value(cycles: 185 * t) + 0.25 * SineTable.value(cycles: 330 * t)) * e(t, 0.06)
                return 1.0 * body + 1.2 * wiresLow.process(wires.next(&r)) * e(t, 0.13)
            }
        case .sideStick:
            var wood = Biquad(.bandPass, frequency: 1800, q: 6)
            out = points(0.15) { t, r in
                2.5 * wood.process(r.bipolar()) * e(t, 0.015) + 0.6 * SineTable.value(cycles: 820 * t) * e(t, 0.02)
            }
        case .clap:
            var band = Biquad(.bandPass, frequency: 1200, q: 1.5)
            out = points(0.35) { t, r in
                let bursts = [0.0, 0.011, 0.023, 0.034].reduce(0.0) { acc, s in t >= s && t < s + 0.011 ? max(acc, e(t - s, 0.004)) : acc }
                let tail = t >= 0.034 ? e(t - 0.034, 0.09) : 0
                return 3 * band.process(r.bipolar()) * max(bursts, tail)
            }
        case .tom:
            // The stick's thud (dull noise) gives the shell its body between 250 Hz and 2 kHz.
            var phase = 0.0
            var thud = LowPassNoise(cutoff: 1000)
            out = points(0.9) { t, r in
                phase += 75 * (1 + 0.3 * e(t, 0.03)) / Self.rate
                return SineTable.value(cycles: phase) * e(t, 0.3) + 0.25 * SineTable.value(cycles: 1.6 * phase) * e(t, 0.1)
                    + 2 * thud.next(&r) * e(t, 0.04)
            }
        case .hiHat:
            // Hats sound from the mids up; above 12 kHz the metal's sizzle thins out.
            var hp = Biquad(.highPass, frequency: 2000, q: 0.7)
            var lp = Biquad(.lowPass, frequency: 12_000, q: 0.7)
            out = points(1.2) { t, r in lp.process(hp.process(0.6 * metal(t, 1.7) + 0.5 * r.bipolar())) * 1.6 * e(t, 0.35) }
        case .crash:
            var hp = Biquad(.highPass, frequency: 800, q: 0.6)
            var lp = Biquad(.lowPass, frequency: 10_000, q: 0.7)
            out = points(2.2) { t, r in lp.process(hp.process(0.35 * metal(t, 1.3) + r.bipolar())) * e(t, 0.7) * min(1, t / 0.002) }
        case .ride:
            var hp = Biquad(.highPass, frequency: 1000, q: 0.7)
            var lp = Biquad(.lowPass, frequency: 10_000, q: 0.7)
            out = points(2.2) { t, r in
                var ping = 0.0
                for (f, a) in [(3150.0, 1.0), (4730, 0.6), (5980, 0.5), (7450, 0.4), (8870, 0.3)] {
                    ping += a * SineTable.value(cycles: f * t)
                }
                return 0.25 * ping * e(t, 0.9) + 0.6 * lp.process(hp.process(r.bipolar())) * e(t, 0.6)
            }
        case .rideBell:
            out = points(1.5) { t, r in
                var s = 0.0
                for (f, a) in [(740.0, 1.0), (1120, 0.7), (1580, 0.6), (2380, 0.4), (3010, 0.3)] { s += a * SineTable.value(cycles: f * t) }
                return s * e(t, 0.5) / 2
            }
        case .tambourine:
            var hp = Biquad(.highPass, frequency: 4000, q: 0.7)
            out = points(0.5) { t, r in
                let jingle = 0.6 + 0.4 * SineTable.value(cycles: 28 * t)
                return hp.process(r.bipolar() + 0.5 * metal(t, 9)) * jingle * e(t, 0.12) * 1.5
            }
        case .cowbell:
            var bp = Biquad(.bandPass, frequency: 800, q: 2)
            out = points(0.4) { t, r in
                let s = (SineTable.value(cycles: 545 * t) >= 0 ? 1.0 : -1) + (SineTable.value(cycles: 815 * t) >= 0 ? 1.0 : -1)
                return 1.5 * bp.process(s) * (0.6 * e(t, 0.02) + 0.4 * e(t, 0.15))
            }
        case .vibraslap:
            var bp = Biquad(.bandPass, frequency: 2500, q: 2)
            out = points(1.0) { t, r in
                let rattle = max(0, SineTable.value(cycles: 32 * t))
                return 3 * bp.process(r.bipolar()) * rattle * rattle * rattle * e(t, 0.3)
            }
        case .handDrum:
            var phase = 0.0
            var slap = Biquad(.bandPass, frequency: 2000, q: 1)
            out = points(0.6) { t, r in
                phase += 400 * (1 + 0.15 * e(t, 0.02)) / Self.rate
                return SineTable.value(cycles: phase) * e(t, 0.16) + 0.3 * SineTable.value(cycles: 1.5 * phase) * e(t, 0.05)
                    + 0.8 * slap.process(r.bipolar()) * e(t, 0.008)
            }
        case .timbale:
            var bp = Biquad(.bandPass, frequency: 3000, q: 1)
            out = points(0.7) { t, r in
                let shell = SineTable.value(cycles: 390 * t) * e(t, 0.2) + 0.5 * SineTable.value(cycles: 905 * t) * e(t, 0.12)
                return shell + bp.process(r.bipolar()) * e(t, 0.03)
            }
        case .agogo:
            out = points(0.5) { t, r in
                var s = 0.0
                for (f, a) in [(900.0, 1.0), (2070, 0.5), (3240, 0.3)] { s += a * SineTable.value(cycles: f * t) }
                return s * e(t, 0.14) / 1.5
            }
        case .shaker:
            var hp = Biquad(.highPass, frequency: 5000, q: 0.7)
            out = points(0.18) { t, r in hp.process(r.bipolar()) * min(1, t / 0.012) * e(t, 0.04) * 1.6 }
        case .whistle:
            out = points(0.9) { t, r in
                let trill = 1 + 0.03 * SineTable.value(cycles: 28 * t)
                return SineTable.value(cycles: 2300 * t + 0.03 / PortableMath.twoPi * 2300 / 28 * SineTable.value(cycles: 28 * t))
                    * trill * min(1, t / 0.01) + 0.05 * r.bipolar()
            }
        case .guiro:
            var bp = Biquad(.bandPass, frequency: 2800, q: 2)
            out = points(0.6) { t, r in
                let scrape = max(0, SineTable.value(cycles: 55 * t + 20 * t * t))
                return 4 * bp.process(r.bipolar()) * scrape * scrape * min(1, t / 0.01)
            }
        case .claves:
            out = points(0.2) { t, _ in SineTable.value(cycles: 2500 * t) * e(t, 0.035) }
        case .woodBlock:
            out = points(0.25) { t, r in
                (SineTable.value(cycles: 1050 * t) + 0.3 * SineTable.value(cycles: 2800 * t)) * e(t, 0.04) + 0.2 * r.bipolar() * e(t, 0.002)
            }
        case .cuica:
            var phase = 0.0
            out = points(0.5) { t, _ in
                phase += (450 + 500 * min(1, t / 0.25)) / Self.rate
                return (SineTable.value(cycles: phase) + 0.3 * SineTable.value(cycles: 2 * phase)) * min(1, t / 0.01) * e(t, 0.25)
            }
        case .triangle:
            out = points(2.0) { t, _ in
                var s = 0.0
                for (f, a) in [(4500.0, 1.0), (5800, 0.3), (9100, 0.4), (12_200, 0.2)] { s += a * SineTable.value(cycles: f * t) }
                return s * e(t, 0.8) / 1.4
            }
        }
        if let drive = saturation {
            let peak = max(out.reduce(0) { max($0, abs($1)) }, 1e-12)
            out = out.map { PortableMath.tanh(drive * $0 / peak) }
        }
        // End every one-shot at silence: a 10 ms fade, so a sound cut at its end never clicks.
        let fade = min(out.count, 441)
        for i in 0..<fade { out[out.count - fade + i] *= Double(fade - i) / Double(fade) }
        return GeneratedSample(points: out, loop: nil, frequency: nil)
    }
}
