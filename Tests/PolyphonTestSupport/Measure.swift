import Foundation
import PolyphonSynth

/// Rendered audio kept in memory, with its rate, for measuring.
public struct Rendered {
    public var left: [Float]
    public var right: [Float]
    public let rate: Double
    public init(left: [Float], right: [Float], rate: Double) { self.left = left; self.right = right; self.rate = rate }
    public func time(_ frame: Int) -> Double { Double(frame) / rate }
    public func frame(_ seconds: Double) -> Int { Int((seconds * rate).rounded()) }
}

extension Synthesizer {
    /// Renders `seconds` of audio in blocks of `block` frames.
    public func renderSeconds(_ seconds: Double, block: Int = 512) -> Rendered {
        let total = Int((seconds * sampleRate).rounded())
        var l = [Float](repeating: 0, count: total), r = [Float](repeating: 0, count: total)
        var done = 0
        l.withUnsafeMutableBufferPointer { lp in
            r.withUnsafeMutableBufferPointer { rp in
                while done < total {
                    let n = min(block, total - done)
                    render(left: lp.baseAddress! + done, right: rp.baseAddress! + done, frameCount: n)
                    done += n
                }
            }
        }
        return Rendered(left: l, right: r, rate: sampleRate)
    }
}

public enum Measure {
    /// Frequency from positive-going zero crossings, interpolated linearly.
    public static func frequency(_ x: ArraySlice<Float>, rate: Double) -> Double {
        var crossings: [Double] = []
        let a = Array(x)
        for i in 1..<a.count where a[i - 1] < 0 && a[i] >= 0 {
            let t = Double(i - 1) + Double(-a[i - 1] / (a[i] - a[i - 1]))
            crossings.append(t)
        }
        guard crossings.count >= 2 else { return 0 }
        return Double(crossings.count - 1) / (crossings.last! - crossings.first!) * rate
    }

    public static func cents(_ f: Double, _ reference: Double) -> Double { 1200 * log2(f / reference) }

    public static func rms(_ x: ArraySlice<Float>) -> Double {
        guard !x.isEmpty else { return 0 }
        var s = 0.0
        for v in x { s += Double(v) * Double(v) }
        return (s / Double(x.count)).squareRoot()
    }

    public static func db(_ v: Double) -> Double { 20 * log10(max(v, 1e-30)) }

    public static func peak(_ x: ArraySlice<Float>) -> Double { Double(x.map { abs($0) }.max() ?? 0) }

    /// Per-window peak envelope in dB (window in frames).
    public static func envelope(_ x: [Float], window: Int) -> [Double] {
        stride(from: 0, to: x.count - window, by: window).map { db(peak(x[$0..<$0 + window])) }
    }

    public static func midiFrequency(_ key: Double) -> Double { 440 * pow(2, (key - 69) / 12) }
}
