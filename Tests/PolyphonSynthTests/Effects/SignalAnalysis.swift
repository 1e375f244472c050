import Foundation
@testable import PolyphonSynth

/// Measurements the effect tests make on rendered sound: decay time, energy, correlation,
/// octave bands. The same definitions as `Benchmarks/fx/fxprobe.py` uses on FluidSynth, so the
/// numbers can be compared one to one.
enum SignalAnalysis {
    /// A stereo signal as two arrays.
    struct Stereo {
        var left: [Float]
        var right: [Float]
    }

    /// Renders `input` (zero-padded to `frames`) through `reverb` in blocks of `blockSize`.
    static func render(_ reverb: Reverb, input: [Float], frames: Int, blockSize: Int = 512) -> Stereo {
        render(frames: frames, input: input, blockSize: blockSize) { i, l, r, n in
            reverb.process(input: i, addingTo: l, r, frameCount: n)
        }
    }

    /// Renders `input` (zero-padded to `frames`) through `chorus` in blocks of `blockSize`.
    static func render(_ chorus: Chorus, input: [Float], frames: Int, blockSize: Int = 512) -> Stereo {
        render(frames: frames, input: input, blockSize: blockSize) { i, l, r, n in
            chorus.process(input: i, addingTo: l, r, frameCount: n)
        }
    }

    private static func render(
        frames: Int, input: [Float], blockSize: Int,
        _ process: (UnsafePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, Int) -> Void
    ) -> Stereo {
        var source = input
        if source.count < frames { source += [Float](repeating: 0, count: frames - source.count) }
        var left = [Float](repeating: 0, count: frames), right = left
        source.withUnsafeBufferPointer { src in
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    var start = 0
                    while start < frames {
                        let n = min(blockSize, frames - start)
                        process(src.baseAddress! + start, l.baseAddress! + start, r.baseAddress! + start, n)
                        start += n
                    }
                }
            }
        }
        return Stereo(left: left, right: right)
    }

    /// A unit impulse followed by silence.
    static func impulse(_ frames: Int) -> [Float] {
        var x = [Float](repeating: 0, count: frames)
        x[0] = 1
        return x
    }

    /// Σ x².
    static func energy(_ x: [Float]) -> Double {
        x.reduce(0) { $0 + Double($1) * Double($1) }
    }

    /// Mean wet energy of both channels relative to the input's energy, in dB.
    static func gainDB(_ out: Stereo, inputEnergy: Double) -> Double {
        10 * log10(0.5 * (energy(out.left) + energy(out.right)) / inputEnergy)
    }

    /// Normalised cross-correlation at lag 0 of the two channels (1 = identical, −1 = inverted).
    static func correlation(_ out: Stereo) -> Double {
        var lr = 0.0, ll = 0.0, rr = 0.0
        for (l, r) in zip(out.left, out.right) {
            lr += Double(l) * Double(r); ll += Double(l) * Double(l); rr += Double(r) * Double(r)
        }
        return lr / (ll * rr).squareRoot()
    }

    /// RT60 from the Schroeder backward-integrated energy decay curve: the straight line fitted
    /// between `top` and `bottom` dB, extrapolated to −60 dB (T20 by default, as ISO 3382).
    static func rt60(energy e: [Double], sampleRate: Double, top: Double = -5, bottom: Double = -25) -> Double {
        var tail = [Double](repeating: 0, count: e.count)
        var sum = 0.0
        for i in stride(from: e.count - 1, through: 0, by: -1) {
            sum += e[i]
            tail[i] = sum
        }
        guard let total = tail.first, total > 0 else { return .nan }
        let curve = tail.map { 10 * log10(max($0, 1e-300) / total) }
        guard let i0 = curve.firstIndex(where: { $0 <= top }),
              let i1 = curve.firstIndex(where: { $0 <= bottom }), i1 > i0 + 1 else { return .nan }
        // Least-squares slope of dB against seconds.
        let n = Double(i1 - i0)
        var st = 0.0, sy = 0.0, stt = 0.0, sty = 0.0
        for i in i0..<i1 {
            let t = Double(i) / sampleRate, y = curve[i]
            st += t; sy += y; stt += t * t; sty += t * y
        }
        let slope = (n * sty - st * sy) / (n * stt - st * st)
        return -60 / slope
    }

    /// Per-sample energy of both channels.
    static func stereoEnergy(_ out: Stereo) -> [Double] {
        pairEnergy(out.left, out.right)
    }

    /// l² + r² per sample.
    static func pairEnergy(_ left: [Float], _ right: [Float]) -> [Double] {
        var e = [Double](repeating: 0, count: min(left.count, right.count))
        for i in e.indices {
            let l = Double(left[i]), r = Double(right[i])
            e[i] = l * l + r * r
        }
        return e
    }

    /// An octave band around `centre` Hz: two cascaded RBJ band-pass biquads (Q = √2,
    /// 0 dB peak), close to the 4th-order Butterworth band the Python probe uses.
    static func octaveBand(_ x: [Float], centre: Double, sampleRate: Double) -> [Float] {
        let w0 = 2 * Double.pi * centre / sampleRate
        let alpha = sin(w0) / (2 * 2.0.squareRoot())
        let a0 = 1 + alpha
        let b0 = alpha / a0, b2 = -alpha / a0, a1 = -2 * cos(w0) / a0, a2 = (1 - alpha) / a0
        var y = x.map(Double.init)
        for _ in 0..<2 {
            var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
            for i in y.indices {
                let input = y[i]
                let out = b0 * input + b2 * x2 - a1 * y1 - a2 * y2
                x2 = x1; x1 = input; y2 = y1; y1 = out
                y[i] = out
            }
        }
        return y.map { Float($0) }
    }

    /// RT60 and gain (relative to the same band of a unit impulse) in one octave band.
    static func band(_ out: Stereo, centre: Double, sampleRate: Double) -> (rt60: Double, gainDB: Double) {
        let l = octaveBand(out.left, centre: centre, sampleRate: sampleRate)
        let r = octaveBand(out.right, centre: centre, sampleRate: sampleRate)
        let reference = energy(octaveBand(impulse(out.left.count), centre: centre, sampleRate: sampleRate))
        let e = pairEnergy(l, r)
        return (rt60(energy: e, sampleRate: sampleRate), 10 * log10(0.5 * e.reduce(0, +) / reference))
    }
}
