import PolyphonMath
import PolyphonSoundFont

/// A recipe for the samples of one sound, rendered once per root key and shared by every
/// program that uses it (a family shares a base sample, its programs differ in envelopes,
/// filters and layering, as in real GM banks).
struct Timbre: Sendable {
    /// How the points are made.
    enum Source: Sendable {
        /// A periodic spectrum rendered by inverse FFT, with an optional attack played once.
        case spectral(SpectralRecipe)
        /// A Karplus-Strong plucked string, its decayed tail looped.
        case plucked(PluckRecipe)
        /// Two-operator FM whose index decays during the attack and then loops.
        case frequencyModulation(FMRecipe)
        /// A one-shot or special loop written directly in the time domain.
        case custom(@Sendable (_ frequency: Double, _ seed: UInt64) -> GeneratedSample)
    }

    var source: Source
    /// Nominal keys one sample each is made for; zones split halfway between them.
    var roots: [Int]
    /// Two decorrelated samples per root (left and right), for wide ensembles and pads.
    var stereo = false

    /// Renders the samples for every root: `[root index][channel]`.
    func render(seed: UInt64, transforms: [Int: FourierTransform]) -> [[GeneratedSample]] {
        roots.enumerated().map { i, root in
            let f = PortableMath.frequency(ofKey: Double(root))
            let seeds = (0..<(stereo ? 2 : 1)).map { seed &+ UInt64(i * 2 + $0) &* 0x1000_0000_1B3 }
            switch source {
            case .spectral(let r): return r.render(frequency: f, seeds: seeds, transforms: transforms)
            case .plucked(let r): return seeds.map { r.render(frequency: f, seed: $0) }
            case .frequencyModulation(let r): return seeds.map { _ in r.render(frequency: f) }
            case .custom(let make): return seeds.map { make(f, $0) }
            }
        }
    }
}
