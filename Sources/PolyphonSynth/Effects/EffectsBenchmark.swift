/// Times the reverb and chorus on this machine, in nanoseconds per stereo frame, so the cost of
/// the effects can be tracked and compared (call it from a release build).
public enum EffectsBenchmark {
    /// Nanoseconds per frame for each case.
    public struct Result: Sendable, Hashable {
        /// Reverb at FluidSynth's defaults fed with white noise.
        public var reverb: Double
        /// Reverb fed with silence after the noise: the tail decaying to −400 dB and then
        /// exact zeros. Not slower than `reverb` when the denormal guard works.
        public var reverbTail: Double
        /// Chorus at FluidSynth's defaults (3 voices) fed with white noise.
        public var chorus: Double
    }

    /// Runs each effect over `seconds` of audio at `sampleRate` in blocks of `blockSize`
    /// frames, as an engine would, and returns the time per frame.
    public static func run(sampleRate: Double = 44100, seconds: Double = 10, blockSize: Int = 64) -> Result {
        let frames = max(blockSize, Int(seconds * sampleRate))
        var noise = [Float](repeating: 0, count: frames)
        var state: UInt32 = 0x1234_5678
        for i in noise.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            noise[i] = Float(Int32(bitPattern: state)) / Float(Int32.max) * 0.25
        }
        let silence = [Float](repeating: 0, count: frames)
        var left = [Float](repeating: 0, count: blockSize), right = left

        func time(_ input: [Float], _ process: (UnsafePointer<Float>, UnsafeMutablePointer<Float>,
                                                 UnsafeMutablePointer<Float>, Int) -> Void) -> Double {
            let clock = ContinuousClock()
            let elapsed = clock.measure {
                input.withUnsafeBufferPointer { src in
                    left.withUnsafeMutableBufferPointer { l in
                        right.withUnsafeMutableBufferPointer { r in
                            var start = 0
                            while start + blockSize <= frames {
                                process(src.baseAddress! + start, l.baseAddress!, r.baseAddress!, blockSize)
                                start += blockSize
                            }
                        }
                    }
                }
            }
            let (s, atto) = elapsed.components
            return (Double(s) * 1e9 + Double(atto) / 1e9) / Double(frames / blockSize * blockSize)
        }

        let reverb = Reverb(sampleRate: sampleRate)
        let reverbNoise = time(noise) { reverb.process(input: $0, addingTo: $1, $2, frameCount: $3) }
        let reverbTail = time(silence) { reverb.process(input: $0, addingTo: $1, $2, frameCount: $3) }
        let chorus = Chorus(sampleRate: sampleRate)
        let chorusNoise = time(noise) { chorus.process(input: $0, addingTo: $1, $2, frameCount: $3) }
        return Result(reverb: reverbNoise, reverbTail: reverbTail, chorus: chorusNoise)
    }
}
