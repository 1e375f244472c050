import PolyphonAudio

/// What a picture of a render needs from its audio, gathered while the render streams by: the
/// level of every short step (peak and RMS), the short-term loudness every 100 ms, and the
/// integrated loudness and peak of the whole.
///
/// Feed the mix block by block (``process(left:right:count:)``) — the offline renderer does it
/// for you when asked (``OfflineRenderer/render(_:to:analyzing:progress:)-(MIDIFile,_,_,_)``) — or build one from
/// figures measured elsewhere (``init(sampleRate:frames:stepFrames:peaks:meanSquares:shortTermLoudness:integratedLoudness:)``).
/// The level steps start at 10 ms and double in length whenever there are
/// ``maximumStepCount`` of them, so a song of any length keeps at most that many (a 4-hour
/// song: 28 ms… 0.45 s steps, far finer than a picture's columns); the loudness keeps one
/// value per 100 ms, reserved up front for the expected length, so feeding does not allocate.
public struct RenderAnalysis: @unchecked Sendable {
    // @unchecked: `channels` holds pointers only for the duration of one `process` call.

    /// The most level steps kept; past it, neighbouring steps are merged in pairs.
    public static let maximumStepCount = 1 << 15

    /// The audio's sample rate.
    public let sampleRate: Double
    /// Frames analysed.
    public private(set) var frames: Int64 = 0
    /// Frames per level step: 10 ms at first, doubled each time the steps are merged.
    public private(set) var stepFrames: Int
    /// Each complete level step's largest sample magnitude, left and right alike (1 is full scale).
    public private(set) var peaks: [Float] = []
    /// Each complete level step's mean square, left and right averaged.
    public private(set) var meanSquares: [Float] = []
    /// Frames between two short-term loudness values (100 ms).
    public let loudnessStepFrames: Int
    /// The short-term loudness (3 s, EBU Tech 3341) at the end of each 100 ms, LUFS (−∞ where
    /// silent).
    public private(set) var shortTermLoudness: [Float] = []

    private var meter: LoudnessMeter?
    private var givenIntegratedLoudness = -Double.infinity
    private var channels = [UnsafeBufferPointer<Float>](repeating: UnsafeBufferPointer(start: nil, count: 0), count: 2)
    private var stepPeak: Float = 0
    private var stepEnergy = 0.0
    private var inStep = 0
    private var inLoudnessStep = 0

    /// An empty analysis to feed. `expectedFrames` (the song's length with its tail) reserves
    /// the loudness values, so feeding does not allocate.
    public init(sampleRate: Double, expectedFrames: Int64 = 0) {
        self.sampleRate = sampleRate
        let meter = LoudnessMeter(sampleRate: sampleRate, channelCount: 2)
        self.meter = meter
        loudnessStepFrames = meter.framesPerUpdate
        stepFrames = max(1, Int((sampleRate / 100).rounded()))
        peaks.reserveCapacity(Self.maximumStepCount)
        meanSquares.reserveCapacity(Self.maximumStepCount)
        let expected = min(max(0, expectedFrames), Int64(24 * 3600 * sampleRate))
        shortTermLoudness.reserveCapacity(Int(expected / Int64(loudnessStepFrames)) + 64)
    }

    /// An analysis measured elsewhere (or made up, to draw a picture of a song without
    /// rendering it): `frames` of audio whose level steps of `stepFrames` frames had these
    /// peaks and mean squares, with a short-term loudness every 100 ms.
    public init(sampleRate: Double, frames: Int64, stepFrames: Int, peaks: [Float], meanSquares: [Float],
                shortTermLoudness: [Float], integratedLoudness: Double) {
        precondition(peaks.count == meanSquares.count && stepFrames > 0)
        self.sampleRate = sampleRate
        self.frames = frames
        self.stepFrames = stepFrames
        self.peaks = peaks
        self.meanSquares = meanSquares
        self.shortTermLoudness = shortTermLoudness
        loudnessStepFrames = max(1, Int((sampleRate * 0.1).rounded()))
        givenIntegratedLoudness = integratedLoudness
        meter = nil
    }

    /// The integrated loudness (BS.1770) of everything fed, LUFS; −∞ for silence.
    public var integratedLoudness: Double { meter?.integratedLoudness ?? givenIntegratedLoudness }

    /// The largest sample magnitude of everything fed (1 is full scale).
    public var peak: Float { max(peaks.max() ?? 0, stepPeak) }

    /// The level step being filled (the song's last, when it is done): its peak and mean
    /// square so far; nil when it has no frames.
    public var partialStep: (peak: Float, meanSquare: Float)? {
        inStep > 0 ? (stepPeak, Float(stepEnergy / Double(2 * inStep))) : nil
    }

    /// The length in seconds.
    public var duration: Double { Double(frames) / sampleRate }

    /// Takes in one block of the mix.
    public mutating func process(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) {
        guard count > 0 else { return }
        measureLevels(left: left, right: right, count: count)
        if meter != nil { measureLoudness(left: left, right: right, count: count) }
        frames += Int64(count)
    }

    /// Takes in one block of interleaved stereo.
    public mutating func process(interleaved samples: UnsafePointer<Float>, count: Int) {
        // Small stack-sized chunks: de-interleaving needs somewhere to put the two channels.
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * 256) { buffer in
            let left = buffer.baseAddress!, right = left + 256
            var done = 0
            while done < count {
                let n = min(256, count - done)
                for i in 0..<n {
                    left[i] = samples[2 * (done + i)]
                    right[i] = samples[2 * (done + i) + 1]
                }
                process(left: left, right: right, count: n)
                done += n
            }
        }
    }

    private mutating func measureLevels(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) {
        var done = 0
        while done < count {
            let n = min(count - done, stepFrames - inStep)
            var top = stepPeak, energy: Float = 0
            for i in done..<done + n {
                let l = left[i], r = right[i]
                let m = max(abs(l), abs(r))
                top = m > top ? m : top
                energy += l * l + r * r
            }
            stepPeak = top
            stepEnergy += Double(energy)
            inStep += n
            done += n
            if inStep == stepFrames {
                peaks.append(stepPeak)
                meanSquares.append(Float(stepEnergy / Double(2 * stepFrames)))
                stepPeak = 0
                stepEnergy = 0
                inStep = 0
                if peaks.count == Self.maximumStepCount { mergeSteps() }
            }
        }
    }

    /// Halves the resolution between two steps: steps merged in pairs, each step twice as long
    /// (the count is even, so the next step starts where a merged pair would).
    private mutating func mergeSteps() {
        let half = peaks.count / 2
        for k in 0..<half {
            peaks[k] = max(peaks[2 * k], peaks[2 * k + 1])
            meanSquares[k] = 0.5 * (meanSquares[2 * k] + meanSquares[2 * k + 1])
        }
        peaks.removeLast(peaks.count - half)
        meanSquares.removeLast(meanSquares.count - half)
        stepFrames *= 2
    }

    private mutating func measureLoudness(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) {
        var done = 0
        while done < count {
            let n = min(count - done, loudnessStepFrames - inLoudnessStep)
            channels[0] = UnsafeBufferPointer(start: left + done, count: n)
            channels[1] = UnsafeBufferPointer(start: right + done, count: n)
            meter!.process(planar: channels, frameCount: n)
            inLoudnessStep += n
            done += n
            if inLoudnessStep == loudnessStepFrames {
                shortTermLoudness.append(Float(meter!.shortTermLoudness))
                inLoudnessStep = 0
            }
        }
        channels[0] = UnsafeBufferPointer(start: nil, count: 0)
        channels[1] = UnsafeBufferPointer(start: nil, count: 0)
    }
}
