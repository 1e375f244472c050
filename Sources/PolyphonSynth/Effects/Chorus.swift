/// A multi-voice chorus matching FluidSynth 2.3's level, delay sweep and stereo spread.
///
/// The mono send bus is written into one delay line; each of the N voices reads it at a delay
/// that sweeps between about 0 and `depth` milliseconds along a sine or triangle LFO, the voices'
/// LFOs spread evenly over one period (voice i is i/N of a cycle ahead), so the copies never
/// line up. Reads use first-order all-pass interpolation, as FluidSynth's modulated delay lines
/// do: its magnitude response is flat at every fraction, so the copies keep their highs and the
/// level does not dip as the read position sweeps between samples (linear interpolation loses
/// 1.8 dB on white noise, cubic Hermite 0.9 dB, measured; FluidSynth loses none).
///
/// Stereo, as measured on FluidSynth 2.3.1 (`Benchmarks/fx/fxprobe.py chorus`): even voices go
/// to a left sum, odd voices to a right sum, and with an odd count of three or more the last voice
/// goes to both; the sums are then cross-mixed with FluidSynth's fixed width of 10 (wet1 = 5.5,
/// wet2 = −4.5 times level/3), which makes left and right strongly decorrelated. A single voice
/// comes out in opposite phase on the two sides at 0.3 of those gains (measured).
///
/// Everything is allocated in `init` for the largest depth (256 ms);
/// ``process(input:addingTo:_:frameCount:)`` neither allocates nor locks, and its output
/// does not depend on how the signal is cut into blocks.
public final class Chorus {
    /// The sample rate the chorus was built for, in Hz.
    public let sampleRate: Double

    /// The parameters; changes take effect at the next call to `process`. The LFO phase runs on,
    /// so a speed change does not jump. Assigning an unchanged value costs nothing.
    public var settings: ChorusSettings {
        didSet { if settings != oldValue { updateCoefficients() } }
    }

    /// FluidSynth's chorus width (fixed there, `synth.chorus` has no width setting in 2.3).
    private static let width = 10.0
    /// Output scale: FluidSynth's wet = level / (1 + 0.2·width), measured.
    private static let wetScale = 1.0, wetWidthScale = 0.2
    /// The shortest delay a voice reaches, in samples (FluidSynth's sweep bottoms out at about
    /// one and a half samples too); the all-pass reads x[n − 1] and x[n − 2] there.
    private static let minimumDelay = 1.5
    /// Samples between exact recomputations of the LFO phasor (which otherwise rotates by a
    /// multiplication per sample and would slowly drift in amplitude).
    static let phasorResyncInterval = 64

    private let buffer: UnsafeMutablePointer<Float>
    private let bufferMask: Int
    private var writeIndex = 0
    /// Per voice: the stereo gains into the left and right sums, and the LFO phase offset as a
    /// unit phasor (sine) and in cycles (triangle). Capacity: the maximum voice count.
    private let voiceLeft: UnsafeMutablePointer<Float>
    private let voiceRight: UnsafeMutablePointer<Float>
    private let voiceCos: UnsafeMutablePointer<Double>
    private let voiceSin: UnsafeMutablePointer<Double>
    private let voiceOffset: UnsafeMutablePointer<Double>
    /// Per voice: the all-pass interpolator's previous output.
    private let voiceState: UnsafeMutablePointer<Float>
    private var voiceCount = 0
    /// The LFO and its per-frame steps.
    private var lfo = Oscillation()
    /// Where ``rememberModulation()`` found the LFO.
    private var rememberedLFO: Oscillation?
    /// Delay sweep: delay = centre − amplitude·wave, in samples.
    private var centre = 0.0, amplitude = 0.0
    private var wet1: Float = 0, wet2: Float = 0

    /// Creates a chorus for `sampleRate` (Hz, clamped to 8 kHz…384 kHz) with `settings`.
    public init(sampleRate: Double, settings: ChorusSettings = .init()) {
        let rate = sampleRate.isFinite ? min(max(sampleRate, 8000), 384_000) : 44100
        self.sampleRate = rate
        self.settings = settings
        let longest = Int((ChorusSettings.maximumDepth / 1000 * rate + Self.minimumDelay).rounded(.up)) + 4
        var size = 1
        while size < longest { size <<= 1 }
        bufferMask = size - 1
        buffer = .allocate(capacity: size)
        buffer.initialize(repeating: 0, count: size)
        let capacity = ChorusSettings.maximumVoiceCount
        voiceLeft = .allocate(capacity: capacity)
        voiceLeft.initialize(repeating: 0, count: capacity)
        voiceRight = .allocate(capacity: capacity)
        voiceRight.initialize(repeating: 0, count: capacity)
        voiceCos = .allocate(capacity: capacity)
        voiceCos.initialize(repeating: 0, count: capacity)
        voiceSin = .allocate(capacity: capacity)
        voiceSin.initialize(repeating: 0, count: capacity)
        voiceOffset = .allocate(capacity: capacity)
        voiceOffset.initialize(repeating: 0, count: capacity)
        voiceState = .allocate(capacity: capacity)
        voiceState.initialize(repeating: 0, count: capacity)
        updateCoefficients()
    }

    deinit {
        buffer.deallocate()
        voiceLeft.deallocate()
        voiceRight.deallocate()
        voiceCos.deallocate()
        voiceSin.deallocate()
        voiceOffset.deallocate()
        voiceState.deallocate()
    }

    /// Clears the delay line and restarts the LFO at phase 0.
    public func reset() {
        clearTail()
        writeIndex = 0
        lfo.phase = 0
        lfo.cos = 1
        lfo.sin = 0
        lfo.resyncCountdown = 0
    }

    /// Remembers where the LFO is (``recallModulation()`` returns there).
    public func rememberModulation() {
        rememberedLFO = lfo
    }

    /// Puts the LFO back where ``rememberModulation()`` found it, so a repeated section sweeps
    /// as it did the first time (the speed stays the current one).
    public func recallModulation() {
        guard let remembered = rememberedLFO else { return }
        lfo.phase = remembered.phase
        lfo.cos = remembered.cos
        lfo.sin = remembered.sin
        lfo.resyncCountdown = remembered.resyncCountdown
    }

    /// Silences the delay line and voice states, keeping the LFO where it is: the synthesizer
    /// calls it once a tail has died away, so the next sound starts from true silence.
    public func clearTail() {
        buffer.update(repeating: 0, count: bufferMask + 1)
        voiceState.update(repeating: 0, count: ChorusSettings.maximumVoiceCount)
    }

    /// The LFO as the render loops carry it: the exact phase in cycles, and a phasor (cos, sin)
    /// of voice 0 turned by one rotation per frame and recomputed from the phase every
    /// ``phasorResyncInterval`` frames so rounding cannot build up.
    struct Oscillation {
        var phase = 0.0
        var cos = 1.0, sin = 0.0
        var resyncCountdown = 0
        var stepCos = 1.0, stepSin = 0.0, phaseStep = 0.0

        @inline(__always)
        mutating func resynchroniseIfDue() {
            if resyncCountdown == 0 {
                cos = Math.cos(2 * Double.pi * phase)
                sin = Math.sin(2 * Double.pi * phase)
                resyncCountdown = Chorus.phasorResyncInterval
            }
            resyncCountdown -= 1
        }

        @inline(__always)
        mutating func step() {
            phase += phaseStep
            if phase >= 1 { phase -= 1 }
            let rotated = cos * stepCos - sin * stepSin
            sin = sin * stepCos + cos * stepSin
            cos = rotated
        }
    }

    private func updateCoefficients() {
        let s = settings.clamped
        voiceCount = s.voiceCount
        for i in 0..<voiceCount {
            let offset = Double(i) / Double(voiceCount)
            voiceOffset[i] = offset
            voiceCos[i] = Math.cos(2 * Double.pi * offset)
            voiceSin[i] = Math.sin(2 * Double.pi * offset)
            if voiceCount == 1 {
                voiceLeft[i] = 0.3
                voiceRight[i] = -0.3
            } else if voiceCount % 2 == 1 && i == voiceCount - 1 {
                voiceLeft[i] = 1
                voiceRight[i] = 1
            } else {
                voiceLeft[i] = i % 2 == 0 ? 1 : 0
                voiceRight[i] = i % 2 == 0 ? 0 : 1
            }
        }
        lfo.phaseStep = s.speed / sampleRate
        lfo.stepCos = Math.cos(2 * Double.pi * lfo.phaseStep)
        lfo.stepSin = Math.sin(2 * Double.pi * lfo.phaseStep)
        amplitude = s.depth / 1000 * sampleRate / 2
        centre = amplitude + Self.minimumDelay
        let wet = s.level * Self.wetScale / (1 + Self.width * Self.wetWidthScale)
        wet1 = Float(wet * (Self.width / 2 + 0.5))
        wet2 = Float(wet * ((1 - Self.width) / 2))
    }

    /// The LFO value of one voice, −1…1: sine from the phasor (cos, sin) of voice 0 rotated by
    /// the voice's offset, or triangle from the phase in cycles; voice i is i/N of a cycle ahead.
    @inline(__always)
    private static func wave(isSine: Bool, cos c: Double, sin s: Double, phase: Double,
                             offsetCos: Double, offsetSin: Double, offset: Double) -> Double {
        if isSine { return s * offsetCos + c * offsetSin }
        var p = phase + offset
        if p >= 1 { p -= 1 }
        // 0 → 0, ¼ → 1, ¾ → −1: the same zero crossings as the sine.
        return p < 0.25 ? 4 * p : (p < 0.75 ? 2 - 4 * p : 4 * p - 4)
    }

    /// Runs `frameCount` samples of the mono send bus `input` through the chorus and *adds* the
    /// stereo wet signal to `left` and `right`. No allocation, no locks; the input may alias
    /// neither output.
    public func process(input: UnsafePointer<Float>, addingTo left: UnsafeMutablePointer<Float>,
                        _ right: UnsafeMutablePointer<Float>, frameCount: Int) {
        process(input: input, left, right, frameCount: frameCount, adding: true)
    }

    /// Runs `frameCount` samples through the chorus and *writes* the wet signal to `left` and
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
        let buffer = self.buffer, mask = bufferMask, count = voiceCount
        let gainsLeft = voiceLeft, gainsRight = voiceRight, states = voiceState
        let offsetCos = voiceCos, offsetSin = voiceSin, offsets = voiceOffset
        let wet1 = self.wet1, wet2 = self.wet2, centre = self.centre, amplitude = self.amplitude
        let isSine = settings.waveform == .sine
        var lfo = self.lfo
        var w = writeIndex
        for n in 0..<frameCount {
            lfo.resynchroniseIfDue()
            buffer[w] = input[n].effectSanitized
            var sumLeft: Float = 0, sumRight: Float = 0
            for i in 0..<count {
                let value = Self.wave(isSine: isSine, cos: lfo.cos, sin: lfo.sin, phase: lfo.phase,
                                      offsetCos: offsetCos[i], offsetSin: offsetSin[i], offset: offsets[i])
                let delay = centre - amplitude * value
                // delay = whole + fraction with fraction in 0.5…1.5, where the all-pass
                // (η + z⁻¹)/(1 + η·z⁻¹) has its pole well away from z = −1.
                let whole = Int(delay - 0.5)
                let fraction = Float(delay - Double(whole))
                let eta = (1 - fraction) / (1 + fraction)
                let x0 = buffer[(w &- whole) & mask], x1 = buffer[(w &- whole &- 1) & mask]
                let y = (eta * (x0 - states[i]) + x1).effectFlushed
                states[i] = y
                sumLeft += gainsLeft[i] * y
                sumRight += gainsRight[i] * y
            }
            let wetLeft = wet1 * sumLeft + wet2 * sumRight, wetRight = wet1 * sumRight + wet2 * sumLeft
            if adding {
                left[n] += wetLeft
                right[n] += wetRight
            } else {
                left[n] = wetLeft
                right[n] = wetRight
            }
            w = (w &+ 1) & mask
            lfo.step()
        }
        writeIndex = w
        self.lfo = lfo
    }
}
