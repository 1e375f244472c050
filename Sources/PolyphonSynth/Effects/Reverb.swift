/// An 8-line feedback delay network reverb matching FluidSynth 2.3's ("FDN reverb" by
/// J.-J. Raynaud) decay times, level, stereo image and damping.
///
/// Structure, as FluidSynth's: the mono send bus passes a tone corrector (a first-order
/// high-shelf that keeps the overall colour when damping shortens the high-frequency decay)
/// and feeds eight delay lines. Each line is read at a slowly modulated length (±4 samples at
/// 1 Hz, phases 45° apart, first-order all-pass interpolation: modulation breaks up the
/// metallic ringing of fixed lengths without dulling the highs) and then low-passed by a
/// one-pole "absorbent" filter whose DC gain sets the line's decay and whose pole sets the
/// high-frequency decay. The feedback matrix is a rotated Householder matrix
/// (P − 2/N·uuᵀ: lossless, every line feeds every other one, so the echo density grows fast).
/// Left and right outputs sum the eight lines with two orthogonal sign patterns and are then
/// cross-mixed by the width setting.
///
/// The numbers below were measured on FluidSynth 2.3.1 (see `Benchmarks/fx/fxprobe.py`): each
/// line's first echo shows up in FluidSynth's impulse response with its own (left, right) sign
/// pair, which gives the line lengths; the RT60 for every room size, the damping per octave
/// and the wet level agree with FluidSynth to within a few percent (tested).
///
/// Everything is allocated in `init`; ``process(input:addingTo:_:frameCount:)`` neither
/// allocates nor locks, and its output does not depend on how the signal is cut into blocks.
public final class Reverb {
    /// The sample rate the reverb was built for, in Hz.
    public let sampleRate: Double

    /// The parameters; changes take effect at the next call to `process` and the tail rings on
    /// (the delay lines keep their contents). Assigning an unchanged value costs nothing, so an
    /// engine may set it every block.
    public var settings: ReverbSettings {
        didSet { if settings != oldValue { updateCoefficients() } }
    }

    // MARK: Constants measured on FluidSynth 2.3.1 at 44.1 kHz

    /// Nominal delay-line lengths in samples at 44.1 kHz. FluidSynth scales the prime lengths
    /// 601, 691, 773, 839, 919, 997, 1061, 1129 by 2·96000/44100; its first echoes arrive at
    /// 2618, 3008, 3366, 3656, 4008, 4348, 4626, 4918 samples, i.e. these lengths plus the
    /// modulation's centre offset and phase. (FluidSynth keeps these in samples whatever the
    /// sample rate; we keep them in seconds so the reverb sounds the same at every rate.)
    private static let lineLengths44k: [Double] = [2616, 3008, 3365, 3652, 4001, 4340, 4619, 4915]
    /// Peak deviation of the modulated length, in samples at 44.1 kHz.
    private static let modulationDepth44k = 4.0
    /// Modulation frequency in Hz.
    private static let modulationFrequency = 1.0
    /// Samples between two updates of the modulated lengths at 44.1 kHz; the all-pass
    /// interpolator prefers a fraction that changes in small steps.
    private static let modulationInterval44k = 50.0
    /// Decay time at 0 Hz for room size 0 and 1 (FluidSynth inherits them from Freeverb).
    private static let minimumDecay = 0.7, maximumDecay = 12.5
    /// Input attenuation ahead of the network; with the output scale below it gives
    /// FluidSynth's wet level (−4.35 dB of the send at the defaults, measured).
    private static let inputGain: Float = 0.1
    /// Wet scale and its width compensation: FluidSynth divides by (1 + 0.2·width) so that a
    /// wide setting does not simply get louder.
    private static let wetScale = 5.0, wetWidthScale = 0.2
    /// Output sign patterns: two orthogonal ±1 vectors make left and right uncorrelated.
    private static let leftSigns = SIMD8<Float>(1, -1, 1, -1, 1, -1, 1, -1)
    private static let rightSigns = SIMD8<Float>(1, 1, -1, -1, 1, 1, -1, -1)

    // MARK: State (all preallocated)

    private let lineCount = 8
    /// The eight delay lines, `lineStride` floats each, one allocation.
    private let lines: UnsafeMutablePointer<Float>
    private let lineStride: Int
    private let lineMask: Int
    private var writeIndex = 0
    /// Modulation centre length (samples) and peak deviation.
    private let baseLengths: SIMD8<Double>
    private let modulationDepth: Double
    private let modulationInterval: Int
    private var modulationCountdown = 0
    private var modulationPhase = 0.0           // cycles, 0..<1
    /// Where ``rememberModulation()`` found the modulation.
    private var rememberedModulation: (phase: Double, countdown: Int, delay: SIMD8<Int32>, coefficient: SIMD8<Float>)?
    private let modulationPhaseStep: Double     // cycles per modulation update
    /// Per line: integer read delay, all-pass coefficient and states.
    private var readDelay = SIMD8<Int32>(repeating: 1)
    private var allpassCoefficient = SIMD8<Float>(repeating: 0)
    private var allpassState = SIMD8<Float>(repeating: 0)
    private var lowpassState = SIMD8<Float>(repeating: 0)
    /// Per line: absorbent filter y = b0·x + a1·y₋₁.
    private var lowpassB0 = SIMD8<Float>(repeating: 0)
    private var lowpassA1 = SIMD8<Float>(repeating: 0)
    /// Tone corrector y = b1·x − b2·x₋₁.
    private var toneB1: Float = 1, toneB2: Float = 0, toneState: Float = 0
    private var wet1: Float = 0, wet2: Float = 0

    /// Creates a reverb for `sampleRate` (Hz, clamped to 8 kHz…384 kHz) with `settings`.
    public init(sampleRate: Double, settings: ReverbSettings = .init()) {
        let rate = sampleRate.isFinite ? min(max(sampleRate, 8000), 384_000) : 44100
        self.sampleRate = rate
        self.settings = settings
        let scale = rate / 44100
        baseLengths = SIMD8<Double>(Self.lineLengths44k) * scale
        modulationDepth = Self.modulationDepth44k * scale
        modulationInterval = max(1, Int((Self.modulationInterval44k * scale).rounded()))
        modulationPhaseStep = Self.modulationFrequency * Double(modulationInterval) / rate
        // Longest read: base + 2·depth, plus one sample for the all-pass's second tap.
        let longest = Int((baseLengths.max() + 2 * modulationDepth).rounded(.up)) + 2
        var stride = 1
        while stride < longest { stride <<= 1 }
        lineStride = stride
        lineMask = stride - 1
        lines = .allocate(capacity: lineCount * stride)
        lines.initialize(repeating: 0, count: lineCount * stride)
        updateCoefficients()
    }

    deinit {
        lines.deallocate()
    }

    /// Clears the tail: delay lines, filter states and modulation phase.
    public func reset() {
        clearTail()
        writeIndex = 0
        modulationCountdown = 0
        modulationPhase = 0
    }

    /// Remembers where the modulation is (``recallModulation()`` returns there).
    public func rememberModulation() {
        rememberedModulation = (modulationPhase, modulationCountdown, readDelay, allpassCoefficient)
    }

    /// Puts the modulation back where ``rememberModulation()`` found it, so a repeated section
    /// sounds as it did the first time.
    public func recallModulation() {
        guard let remembered = rememberedModulation else { return }
        (modulationPhase, modulationCountdown, readDelay, allpassCoefficient) = remembered
    }

    /// Silences the delay lines and filter states, keeping the modulation where it is: the
    /// synthesizer calls it once a tail has died away, so the next sound starts from true
    /// silence.
    public func clearTail() {
        lines.update(repeating: 0, count: lineCount * lineStride)
        allpassState = .zero
        lowpassState = .zero
        toneState = 0
    }

    /// The decay time at 0 Hz, in seconds, that the current room size gives (0.7…12.5 s).
    public var lowFrequencyDecayTime: Double { decayTimes().dc }

    // MARK: Coefficients

    /// Each line's length as FluidSynth counts it when computing gains: centre + depth + 1.
    private var gainLengths: SIMD8<Double> { baseLengths + modulationDepth + 1 }

    /// Room size → decay time at DC, damping → ratio of the Nyquist decay time to it (α²).
    /// Room size interpolates the *gain* of the longest line between those of 0.7 s and
    /// 12.5 s decays, which gives Freeverb's concave room→time curve.
    private func decayTimes() -> (dc: Double, alphaSquared: Double) {
        let s = settings.clamped
        let period = 1 / sampleRate
        let longest = gainLengths.max()
        let gainMin = Math.pow(10, -3 * longest * period / Self.minimumDecay)
        let gainMax = Math.pow(10, -3 * longest * period / Self.maximumDecay)
        let gain = gainMin + s.roomSize * (gainMax - gainMin)
        let dcTime = -3 * longest * period / Math.log10(gain)
        let alphaSquared = 1 / (1 - s.damping / (0.25 * Math.log(gain)))
        return (dcTime, alphaSquared)
    }

    private func updateCoefficients() {
        let s = settings.clamped
        let (dcTime, alphaSquared) = decayTimes()
        let period = 1 / sampleRate
        let lengths = gainLengths
        for i in 0..<lineCount {
            // Jot's absorbent filter: DC gain g decays by 60 dB in dcTime; the pole makes the
            // Nyquist decay time α·dcTime.
            let g = Math.pow(10, -3 * lengths[i] * period / dcTime)
            // At damping 1 the formula puts the longest line's pole at exactly 1, where a
            // rounding error would make it an integrator that never lets the tail reach zero
            // (or grows); 0.999 keeps it a 23 ms leak whose gain g·(1 − a) is inaudible anyway.
            let a = min(0.25 * Math.log(g) * (1 - 1 / alphaSquared), 0.999)
            lowpassB0[i] = Float(g * (1 - a))
            lowpassA1[i] = Float(a)
        }
        // Tone corrector t(z) = (1 − b·z⁻¹)/(1 − b), b = (1 − α)/(1 + α): restores the
        // high frequencies that the shorter high-frequency decay would take out of the level.
        let alpha = alphaSquared.squareRoot()
        let b = (1 - alpha) / (1 + alpha)
        toneB1 = Float(1 / (1 - b))
        toneB2 = Float(b / (1 - b))
        let wet = s.level * Self.wetScale / (1 + s.width * Self.wetWidthScale)
        wet1 = Float(wet * (s.width / 2 + 0.5))
        wet2 = Float(wet * ((1 - s.width) / 2))
    }

    /// Moves each line's read position along its sine; the fractional part becomes the
    /// all-pass coefficient. The fraction is kept in 0.5…1.5 where the interpolator's pole
    /// stays far from z = −1 and its transients die quickly.
    private func updateModulation() {
        for i in 0..<lineCount {
            let angle = 2 * Double.pi * (modulationPhase + Double(i) / Double(lineCount))
            let delay = baseLengths[i] + modulationDepth * (1 + Math.sin(angle))
            let whole = (delay - 0.5).rounded(.down)
            let fraction = delay - whole
            readDelay[i] = Int32(whole)
            allpassCoefficient[i] = Float((1 - fraction) / (1 + fraction))
        }
        modulationPhase += modulationPhaseStep
        if modulationPhase >= 1 { modulationPhase -= 1 }
    }

    // MARK: Rendering

    /// Runs `frameCount` samples of the mono send bus `input` through the reverb and *adds*
    /// the stereo wet signal to `left` and `right`. No allocation, no locks; the input may
    /// alias neither output.
    public func process(input: UnsafePointer<Float>, addingTo left: UnsafeMutablePointer<Float>,
                        _ right: UnsafeMutablePointer<Float>, frameCount: Int) {
        process(input: input, left, right, frameCount: frameCount, adding: true)
    }

    /// Runs `frameCount` samples through the reverb and *writes* the wet signal to `left` and
    /// `right`: the values ``process(input:addingTo:_:frameCount:)`` adds, bit for bit, so a
    /// thread of its own can compute them and the render thread add them later.
    func process(input: UnsafePointer<Float>, storingTo left: UnsafeMutablePointer<Float>,
                 _ right: UnsafeMutablePointer<Float>, frameCount: Int) {
        process(input: input, left, right, frameCount: frameCount, adding: false)
    }

    @inline(__always)
    private func process(input: UnsafePointer<Float>, _ left: UnsafeMutablePointer<Float>,
                         _ right: UnsafeMutablePointer<Float>, frameCount: Int, adding: Bool) {
        guard frameCount > 0 else { return }
        let lines = self.lines, stride = lineStride, mask = lineMask
        let b0 = lowpassB0, a1 = lowpassA1, b1 = toneB1, b2 = toneB2
        let wet1 = self.wet1, wet2 = self.wet2, inputGain = Self.inputGain
        let leftSigns = Self.leftSigns, rightSigns = Self.rightSigns
        var w = writeIndex, tone = toneState
        var ap = allpassState, lp = lowpassState
        var frame = 0
        while frame < frameCount {
            if modulationCountdown == 0 {
                updateModulation()
                modulationCountdown = modulationInterval
            }
            // Run up to the next modulation update with the coefficients held in registers.
            let end = min(frameCount, frame + modulationCountdown)
            modulationCountdown -= end - frame
            let eta = allpassCoefficient, delay = readDelay
            for n in frame..<end {
                let x = input[n].effectSanitized
                let xn = ((b1 * x - b2 * tone) * inputGain).effectFlushed
                tone = x
                var x0 = SIMD8<Float>(), x1 = SIMD8<Float>()
                for i in 0..<8 {
                    let base = i &* stride
                    let r = (w &- Int(delay[i])) & mask
                    x0[i] = lines[base &+ r]
                    x1[i] = lines[base &+ ((r &- 1) & mask)]
                }
                ap = (eta * (x0 - ap) + x1).effectFlushed
                lp = (b0 * ap + a1 * lp).effectFlushed
                let feed = lp.sum() * -0.25 + xn
                // Rotated Householder feedback: line i−1 takes line i's output.
                for i in 0..<8 {
                    lines[i &* stride &+ w] = lp[(i &+ 1) & 7] + feed
                }
                w = (w &+ 1) & mask
                let l = (lp * leftSigns).sum(), r = (lp * rightSigns).sum()
                let wetLeft = wet1 * l + wet2 * r, wetRight = wet1 * r + wet2 * l
                if adding {
                    left[n] += wetLeft
                    right[n] += wetRight
                } else {
                    left[n] = wetLeft
                    right[n] = wetRight
                }
            }
            frame = end
        }
        writeIndex = w
        toneState = tone
        allpassState = ap
        lowpassState = lp
    }
}
