/// The interpolation kernel and sample format a voice renders with, chosen once when the note
/// starts (from the synthesizer's ``Interpolation`` and whether the sample has 24-bit points),
/// so the render loop is one switch over fully specialised paths.
enum SampleKernel {
    case linear16, cubic16, sinc16
    case linear24, cubic24, sinc24

    init(_ interpolation: Interpolation, has24BitPoints: Bool) {
        switch (interpolation, has24BitPoints) {
        case (.linear, false): self = .linear16
        case (.cubic, false): self = .cubic16
        case (.sinc, false): self = .sinc16
        case (.linear, true): self = .linear24
        case (.cubic, true): self = .cubic24
        case (.sinc, true): self = .sinc24
        }
    }
}

extension Oscillator {
    /// Renders up to `count` frames of `sample`'s points with `kernel` into `out`, scaled by the
    /// gain ramp. Returns the frames written (fewer when the sample ended).
    @inline(__always)
    mutating func render(_ kernel: SampleKernel, sample: SampleInfo, tables: InterpolationTables,
                         scratch: UnsafeMutablePointer<Float>, out: UnsafeMutablePointer<Float>, count n: Int,
                         ramp g: inout GainRamp) -> Int {
        guard let words = sample.words else { return 0 }
        switch kernel {
        case .linear16:
            return render(LinearKernel.self, data: Int16Samples(words: words), tables: tables, scratch: scratch, out: out, count: n, ramp: &g)
        case .cubic16:
            return render(WordCubicKernel.self, data: Int16Samples(words: words), tables: tables, scratch: scratch, out: out, count: n, ramp: &g)
        case .sinc16:
            return render(SincKernel.self, data: Int16Samples(words: words), tables: tables, scratch: scratch, out: out, count: n, ramp: &g)
        case .linear24, .cubic24, .sinc24:
            guard let low = sample.low else { return 0 }
            let src = Int24Samples(words: words, low: low)
            switch kernel {
            case .linear24: return render(LinearKernel.self, data: src, tables: tables, scratch: scratch, out: out, count: n, ramp: &g)
            case .cubic24: return render(CubicKernel.self, data: src, tables: tables, scratch: scratch, out: out, count: n, ramp: &g)
            default: return render(SincKernel.self, data: src, tables: tables, scratch: scratch, out: out, count: n, ramp: &g)
            }
        }
    }
}
