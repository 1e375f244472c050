import PolyphonMath
import PolyphonSoundFont

/// Harmonic amplitude shapes shared by the built-in timbres.
enum SpectrumShapes {
    /// 1/h^p: p = 1 is a sawtooth, larger p is darker.
    static func rolloff(_ h: Int, _ p: Double) -> Double {
        PortableMath.exp(-p * PortableMath.log(Double(h)))
    }

    /// Odd harmonics only (a square wave for p = 1).
    static func odd(_ h: Int, _ p: Double, even: Double = 0) -> Double {
        (h % 2 == 1 ? 1 : even) * rolloff(h, p)
    }

    /// A sum of resonances (centre Hz, width Hz, gain) on a floor: vowels, instrument bodies.
    static func formants(_ hz: Double, _ peaks: [(Double, Double, Double)], floor: Double = 0.05) -> Double {
        var g = floor
        for (centre, width, gain) in peaks {
            let d = (hz - centre) / width
            g += gain / (1 + d * d)
        }
        return g
    }

    /// Gentle high-frequency loss above `corner` Hz.
    static func air(_ hz: Double, _ corner: Double) -> Double {
        1 / (1 + (hz / corner) * (hz / corner))
    }

    /// Vowel formants (F1, F2, F3) of a sung "ah".
    static let vowelA: [(Double, Double, Double)] = [(800, 120, 1), (1150, 150, 0.6), (2900, 300, 0.25)]
    /// Vowel formants of a sung "oo".
    static let vowelU: [(Double, Double, Double)] = [(350, 80, 1), (650, 120, 0.35), (2400, 300, 0.06)]
}
