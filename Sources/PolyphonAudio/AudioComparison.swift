import Foundation

/// Compares two renders of the same song — the fidelity tool used against FluidSynth: overall
/// level difference, log-spectral distance of the long-term spectra, and correlation of the
/// loudness envelopes. Streams both WAV files (16-bit PCM or 32-bit float), so memory does not
/// grow with their length. Both are mixed to mono; the shorter length is compared.
public struct AudioComparison: Sendable {
    /// RMS level of the first file minus the second, dB.
    public var levelDifference: Double
    /// RMS over 30 Hz–16 kHz of the difference between the two long-term spectra (4096-point
    /// Hann-windowed FFT frames, averaged), after removing its mean (the level difference), dB.
    public var spectralDistance: Double
    /// Pearson correlation of the two 50 ms RMS envelopes (1 = identical dynamics).
    public var envelopeCorrelation: Double
    /// Seconds compared.
    public var seconds: Double

    static let fftSize = 4096

    /// Reads interleaved 16-bit or float stereo WAV sample frames block by block.
    final class WAVStream {
        let handle: FileHandle
        let isFloat: Bool
        let channels: Int
        let sampleRate: Double
        var remaining: Int

        init?(_ path: String) {
            guard let h = FileHandle(forReadingAtPath: path) else { return nil }
            handle = h
            let header = [UInt8](h.readData(ofLength: 12))
            guard header.count == 12, header[0..<4] == [0x52, 0x49, 0x46, 0x46] else { return nil }
            var fmt: (tag: Int, ch: Int, bits: Int, rate: Int)? = nil
            while true {
                let ck = [UInt8](h.readData(ofLength: 8))
                guard ck.count == 8 else { return nil }
                let id = String(decoding: ck[0..<4], as: UTF8.self)
                let size = Int(ck[4]) | Int(ck[5]) << 8 | Int(ck[6]) << 16 | Int(ck[7]) << 24
                if id == "fmt " {
                    let f = [UInt8](h.readData(ofLength: size + (size & 1)))
                    guard f.count >= 16 else { return nil }
                    var tag = Int(f[0]) | Int(f[1]) << 8
                    if tag == 0xFFFE && f.count >= 26 { tag = Int(f[24]) | Int(f[25]) << 8 }
                    fmt = (tag, Int(f[2]) | Int(f[3]) << 8, Int(f[14]) | Int(f[15]) << 8,
                           Int(f[4]) | Int(f[5]) << 8 | Int(f[6]) << 16 | Int(f[7]) << 24)
                } else if id == "data" {
                    guard let fmt, (fmt.tag == 1 && fmt.bits == 16) || (fmt.tag == 3 && fmt.bits == 32) else { return nil }
                    isFloat = fmt.tag == 3
                    channels = fmt.ch
                    sampleRate = Double(fmt.rate)
                    remaining = size / (fmt.ch * fmt.bits / 8)
                    return
                } else {
                    h.seek(toFileOffset: h.offsetInFile + UInt64(size + (size & 1)))
                }
            }
        }

        /// Up to `count` frames, mixed to mono.
        func readMono(_ count: Int) -> [Double] {
            let n = min(count, remaining)
            guard n > 0 else { return [] }
            let bytes = [UInt8](handle.readData(ofLength: n * channels * (isFloat ? 4 : 2)))
            let frames = bytes.count / (channels * (isFloat ? 4 : 2))
            remaining -= n
            var out = [Double](repeating: 0, count: frames)
            bytes.withUnsafeBytes { raw in
                for i in 0..<frames {
                    var s = 0.0
                    for c in 0..<channels {
                        let k = i * channels + c
                        if isFloat {
                            s += Double(raw.loadUnaligned(fromByteOffset: 4 * k, as: Float.self))
                        } else {
                            s += Double(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * k, as: Int16.self))) / 32768
                        }
                    }
                    out[i] = s / Double(channels)
                }
            }
            return out
        }
    }

    /// Compares two WAV files; nil when either cannot be read as 16-bit or float WAV.
    public static func compare(_ a: String, _ b: String) -> AudioComparison? {
        guard let sa = WAVStream(a), let sb = WAVStream(b), sa.sampleRate == sb.sampleRate, sa.sampleRate > 0 else {
            return nil
        }
        let rate = sa.sampleRate
        let n = fftSize
        var window = [Double](repeating: 0, count: n)
        for i in 0..<n { window[i] = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n)) }
        var specA = [Double](repeating: 0, count: n / 2 + 1), specB = specA
        var sumA = 0.0, sumB = 0.0, count = 0
        let envWindow = Int(rate * 0.05)
        var envA: [Double] = [], envB: [Double] = []
        var accA = 0.0, accB = 0.0, accN = 0
        while true {
            let xa = sa.readMono(n), xb = sb.readMono(n)
            let m = min(xa.count, xb.count)
            if m == 0 { break }
            for i in 0..<m {
                sumA += xa[i] * xa[i]; sumB += xb[i] * xb[i]
                accA += xa[i] * xa[i]; accB += xb[i] * xb[i]; accN += 1
                if accN == envWindow {
                    envA.append((accA / Double(accN)).squareRoot()); envB.append((accB / Double(accN)).squareRoot())
                    accA = 0; accB = 0; accN = 0
                }
            }
            count += m
            if m == n {
                let pa = powerSpectrum(zip(xa, window).map(*)), pb = powerSpectrum(zip(xb, window).map(*))
                for k in 0..<pa.count { specA[k] += pa[k]; specB[k] += pb[k] }
            }
        }
        guard count > 0 else { return nil }
        let level = 10 * log10(max(sumA, 1e-30) / max(sumB, 1e-30))
        // Spectral distance over 30 Hz–16 kHz, level difference removed.
        var diffs: [Double] = []
        for k in 0..<specA.count {
            let f = Double(k) * rate / Double(n)
            guard f > 30 && f < 16000 else { continue }
            diffs.append(10 * log10(max(specA[k], 1e-30) / max(specB[k], 1e-30)))
        }
        let mean = diffs.reduce(0, +) / Double(max(diffs.count, 1))
        let lsd = (diffs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(max(diffs.count, 1))).squareRoot()
        return AudioComparison(levelDifference: level, spectralDistance: lsd,
                        envelopeCorrelation: correlation(envA, envB), seconds: Double(count) / rate)
    }

    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let n = Double(min(a.count, b.count))
        guard n > 1 else { return 0 }
        let ma = a.prefix(Int(n)).reduce(0, +) / n, mb = b.prefix(Int(n)).reduce(0, +) / n
        var sab = 0.0, saa = 0.0, sbb = 0.0
        for i in 0..<Int(n) {
            sab += (a[i] - ma) * (b[i] - mb); saa += (a[i] - ma) * (a[i] - ma); sbb += (b[i] - mb) * (b[i] - mb)
        }
        return sab / max((saa * sbb).squareRoot(), 1e-30)
    }

    /// |FFT|² of a power-of-two-length real signal (iterative radix-2).
    static func powerSpectrum(_ x: [Double]) -> [Double] {
        let n = x.count
        var re = x, im = [Double](repeating: 0, count: n)
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { re.swapAt(i, j); im.swapAt(i, j) }
        }
        var len = 2
        while len <= n {
            let ang = -2 * Double.pi / Double(len)
            let twiddles = (0..<len / 2).map { (cos(ang * Double($0)), sin(ang * Double($0))) }
            for start in stride(from: 0, to: n, by: len) {
                for k in 0..<len / 2 {
                    let (wr, wi) = twiddles[k]
                    let a = start + k, b = a + len / 2
                    let tr = re[b] * wr - im[b] * wi, ti = re[b] * wi + im[b] * wr
                    re[b] = re[a] - tr; im[b] = im[a] - ti
                    re[a] += tr; im[a] += ti
                }
            }
            len <<= 1
        }
        return (0...n / 2).map { re[$0] * re[$0] + im[$0] * im[$0] }
    }
}
