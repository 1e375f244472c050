/// The sounds a region can play without a file, as sfizz has them: `sample=*sine`, `*triangle`
/// (or `*tri`), `*saw`, `*square`, `*noise`, `*gnoise` and `*silence`.
///
/// The periodic ones are single-cycle waves played at the note's pitch — at `pitch_keycenter`
/// (default 60) a generator sounds that key's equal-tempered frequency, A4 = 440 Hz. Their
/// cycles are built from harmonics exactly as sfizz builds its wavetables (same amplitudes and
/// phases, so saw and square sit at √(2/3) to match sine and triangle in loudness), and
/// ``cycle(pointCount:harmonicLimit:)`` leaves out the harmonics a given pitch cannot carry
/// below the Nyquist frequency.
public enum SFZGenerator: String, Hashable, Sendable, CaseIterable {
    /// A sine.
    case sine
    /// A triangle (odd harmonics falling as 1/n²).
    case triangle
    /// A sawtooth (every harmonic, falling as 1/n).
    case saw
    /// A square (odd harmonics, falling as 1/n).
    case square
    /// White noise, uniform in ±1.
    case noise
    /// Gaussian white noise (sfizz: variance 0.25).
    case gaussianNoise
    /// Nothing: a region that only triggers (or whose sample was all zeros).
    case silence

    /// The generator a `sample=` value names (`*sine`, `*tri` …), nil for a file name.
    public init?(sampleName: String) {
        switch sampleName {
        case "*sine": self = .sine
        case "*triangle", "*tri": self = .triangle
        case "*saw": self = .saw
        case "*square": self = .square
        case "*noise": self = .noise
        case "*gnoise": self = .gaussianNoise
        case "*silence": self = .silence
        default: return nil
        }
    }

    /// The `sample=` value that names this generator.
    public var sampleName: String {
        switch self {
        case .sine: return "*sine"
        case .triangle: return "*triangle"
        case .saw: return "*saw"
        case .square: return "*square"
        case .noise: return "*noise"
        case .gaussianNoise: return "*gnoise"
        case .silence: return "*silence"
        }
    }

    /// True for the waves with a pitch (sine, triangle, saw, square).
    public var isPeriodic: Bool { self == .sine || self == .triangle || self == .saw || self == .square }

    /// The peak level sfizz gives the wave: 1 for sine and triangle, √(2/3) for saw and square.
    public var amplitude: Double {
        switch self {
        case .saw, .square: return 0.816_496_580_927_726_1
        case .sine, .triangle: return 1
        case .noise, .gaussianNoise, .silence: return 1
        }
    }

    /// One cycle of the wave in `pointCount` points, with harmonics 1 … `harmonicLimit` (and
    /// below `pointCount / 2`): sfizz's spectrum, so the same phase and level. Empty for the
    /// generators without a pitch.
    public func cycle(pointCount: Int = 1024, harmonicLimit: Int = .max) -> [Float] {
        guard isPeriodic, pointCount >= 4 else { return [] }
        let sines = Self.sineTable(pointCount)
        var values = [Double](repeating: 0, count: pointCount)
        let highest = min(harmonicLimit, pointCount / 2 - 1)
        guard highest >= 1 else { return [Float](repeating: 0, count: pointCount) }
        for harmonic in 1...highest {
            // sfizz fills bin h with i·(A/2)·H(h) and takes the inverse real FFT: the point n
            // gets −A·|H(h)|·sin(2πhn/N + arg H(h)); arg H is 0 or π, so a sign.
            let weight: Double
            switch self {
            case .sine:
                weight = harmonic == 1 ? -1 : 0
            case .triangle:
                guard harmonic & 1 == 1 else { continue }
                let magnitude = 8 / (Double.pi * Double.pi) / Double(harmonic * harmonic)
                weight = (harmonic >> 1) & 1 == 1 ? -magnitude : magnitude
            case .saw:
                let magnitude = 2 / Double.pi / Double(harmonic)
                weight = harmonic & 1 == 1 ? -magnitude : magnitude
            case .square:
                guard harmonic & 1 == 1 else { continue }
                weight = 4 / Double.pi / Double(harmonic)
            case .noise, .gaussianNoise, .silence:
                weight = 0
            }
            if weight == 0 { continue }
            for n in 0..<pointCount {
                values[n] += amplitude * weight * sines[(harmonic * n) % pointCount]
            }
        }
        return values.map { Float($0) }
    }

    /// sin(2πj/N) for j in 0..<N, without a maths library.
    static func sineTable(_ count: Int) -> [Double] {
        (0..<count).map { j in
            // Reduce to [−π/2, π/2] by symmetry, then a Taylor series accurate to 1e−17.
            var x = 2 * Double.pi * Double(j) / Double(count)
            if x > Double.pi { x -= 2 * Double.pi }
            if x > Double.pi / 2 { x = Double.pi - x }
            if x < -Double.pi / 2 { x = -Double.pi - x }
            var term = x, sum = x
            for k in stride(from: 2, through: 26, by: 2) {
                term *= -x * x / Double(k * (k + 1))
                sum += term
            }
            return sum
        }
    }
}
