#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Measures integrated loudness (ITU-R BS.1770-4 / EBU R 128, in LUFS) and sample peak of a
/// signal fed block by block, as the renderer produces it.
///
/// Each channel is K-weighted and its mean square taken over 400 ms gating blocks that overlap
/// by 75 % (a new block every 100 ms). Blocks quieter than −70 LUFS are dropped (absolute gate);
/// of the rest, those more than 10 LU below their own average are dropped (relative gate), and
/// the loudness of what remains is the result.
///
/// Memory is fixed when the meter is created: blocks are kept as a histogram of 0.01 LU bins
/// from −70 to +30 LUFS holding each bin's count and exact energy sum, so feeding never
/// allocates, whatever the length. Only the relative gate's comparison is quantised (to the
/// bin width); the averaged energies are exact.
public struct LoudnessMeter: Sendable {
    /// The sample rate the meter was created for.
    public let sampleRate: Double
    /// The number of channels fed to the meter.
    public let channelCount: Int
    /// The weight of each channel's energy (BS.1770: 1.0 for left, right and centre, 1.41 for
    /// the surrounds, 0 for LFE).
    public let channelWeights: [Double]

    private(set) var filters: [KWeightingFilter]
    private var channelEnergy: [Double]
    private let subBlockLength: Int
    private var subBlockFill = 0
    /// The weighted energy sums of the last four 100 ms sub-blocks, oldest first.
    private var recentSubBlocks: (Double, Double, Double, Double) = (0, 0, 0, 0)
    private var subBlocksCompleted = 0
    private var histogramCounts: [Int]
    private var histogramEnergy: [Double]
    private var peak: Float = 0
    private var lastBlockLoudness = -Double.infinity
    /// The weighted energy sums of the last 30 sub-blocks (3 s), a ring written at
    /// `subBlocksCompleted % 30`: the short-term window.
    private var shortTermSubBlocks: [Double]

    private static let absoluteGate = -70.0
    private static let relativeGate = -10.0
    private static let binWidth = 0.01
    private static let binCount = 10_000  // −70 … +30 LUFS
    private static let shortTermSubBlockCount = 30  // 3 s

    /// Creates a meter for `channelCount` channels at `sampleRate`.
    ///
    /// - Parameters:
    ///   - sampleRate: the rate of the audio to measure.
    ///   - channelCount: the number of channels in each block.
    ///   - channelWeights: Per-channel weights; `nil` weighs every channel 1.0, which is right for
    ///     mono and stereo. For 5.1 pass `[1, 1, 1, 0, 1.41, 1.41]` in the file's order.
    public init(sampleRate: Double, channelCount: Int, channelWeights: [Double]? = nil) {
        precondition(AudioFile.plausibleSampleRates.contains(sampleRate) && channelCount >= 1)
        precondition(channelWeights == nil || channelWeights!.count == channelCount)
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.channelWeights = channelWeights ?? Array(repeating: 1.0, count: channelCount)
        filters = Array(repeating: KWeightingFilter(sampleRate: sampleRate), count: channelCount)
        channelEnergy = Array(repeating: 0, count: channelCount)
        subBlockLength = max(1, Int((sampleRate * 0.1).rounded()))
        histogramCounts = Array(repeating: 0, count: Self.binCount)
        histogramEnergy = Array(repeating: 0, count: Self.binCount)
        shortTermSubBlocks = Array(repeating: 0, count: Self.shortTermSubBlockCount)
    }

    /// Feeds `frameCount` frames given as one buffer per channel.
    public mutating func process(planar channels: [UnsafeBufferPointer<Float>], frameCount: Int) {
        precondition(channels.count == channelCount && channels.allSatisfy { $0.count >= frameCount })
        guard frameCount > 0 else { return }
        feed(frameCount: frameCount, stride: 1) { channels[$0].baseAddress! }
    }

    /// Feeds `frameCount` interleaved frames.
    public mutating func process(interleaved samples: UnsafeBufferPointer<Float>, frameCount: Int) {
        precondition(samples.count >= frameCount * channelCount)
        guard frameCount > 0 else { return }
        let base = samples.baseAddress!
        feed(frameCount: frameCount, stride: channelCount) { base + $0 }
    }

    /// Feeds frames from one array per channel.
    public mutating func process(planar channels: [[Float]]) {
        let frameCount = channels.first?.count ?? 0
        precondition(channels.count == channelCount && channels.allSatisfy { $0.count == frameCount })
        guard frameCount > 0 else { return }
        var pointers: [UnsafeBufferPointer<Float>] = []
        pointers.reserveCapacity(channelCount)
        func recurse(_ index: Int) {
            guard index < channelCount else {
                process(planar: pointers, frameCount: frameCount)
                return
            }
            channels[index].withUnsafeBufferPointer { buffer in
                pointers.append(buffer)
                recurse(index + 1)
            }
        }
        recurse(0)
    }

    /// Feeds `frameCount` frames whose channel `c` starts at `first(c)`, `stride` floats from
    /// one frame to the next.
    ///
    /// The work goes over each stretch up to the next 100 ms boundary, channels in pairs (an
    /// odd last one alone) with the filter state in registers. Every channel gets the same
    /// arithmetic in the same order as frame-by-frame processing, so neither the block size,
    /// the layout nor the pairing changes a bit of the result.
    @inline(__always)
    private mutating func feed(frameCount: Int, stride: Int, first: (Int) -> UnsafePointer<Float>) {
        var frame = 0
        while frame < frameCount {
            let n = min(frameCount - frame, subBlockLength - subBlockFill)
            let offset = frame * stride
            var channel = 0
            while channel + 1 < channelCount {
                feedPair(channel, first(channel) + offset, first(channel + 1) + offset, stride: stride, count: n)
                channel += 2
            }
            if channel < channelCount {
                feedSingle(channel, first(channel) + offset, stride: stride, count: n)
            }
            subBlockFill += n
            if subBlockFill == subBlockLength { completeSubBlock() }
            frame += n
        }
    }

    /// Channels `channel` and `channel + 1` through one ``KWeightingFilterPair``: the filter
    /// recursion is latency-bound, so two channels in the lanes of one register cost about
    /// what one costs.
    private mutating func feedPair(
        _ channel: Int, _ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>, stride: Int, count: Int
    ) {
        var firstFilter = filters[channel], secondFilter = filters[channel + 1]
        var filter = KWeightingFilterPair(firstFilter, secondFilter)
        var energy = SIMD2(channelEnergy[channel], channelEnergy[channel + 1])
        var top0 = peak, top1 = peak
        var a = first, b = second
        for _ in 0..<count {
            let x0 = a.pointee, x1 = b.pointee
            let m0 = abs(x0), m1 = abs(x1)
            // NaN never wins, as in the single-channel loop.
            top0 = m0 > top0 ? m0 : top0
            top1 = m1 > top1 ? m1 : top1
            let y = filter.process(SIMD2(Double(x0), Double(x1)))
            energy += y * y
            a += stride
            b += stride
        }
        filter.store(into: &firstFilter, &secondFilter)
        filters[channel] = firstFilter
        filters[channel + 1] = secondFilter
        channelEnergy[channel] = energy[0]
        channelEnergy[channel + 1] = energy[1]
        peak = top1 > top0 ? top1 : top0
    }

    /// One channel alone (mono, or the last of an odd count).
    private mutating func feedSingle(_ channel: Int, _ samples: UnsafePointer<Float>, stride: Int, count: Int) {
        var filter = filters[channel]
        var energy = channelEnergy[channel]
        var top = peak
        var p = samples
        for _ in 0..<count {
            let sample = p.pointee
            let magnitude = abs(sample)
            if magnitude > top { top = magnitude }
            let y = filter.process(Double(sample))
            energy += y * y
            p += stride
        }
        filters[channel] = filter
        channelEnergy[channel] = energy
        peak = top
    }

    private mutating func completeSubBlock() {
        var weighted = 0.0
        for channel in 0..<channelCount {
            weighted += channelWeights[channel] * channelEnergy[channel]
            channelEnergy[channel] = 0
            // Every 100 ms, whatever the blocks fed, so the block size still changes no bit.
            filters[channel].flushVanishingState()
        }
        subBlockFill = 0
        recentSubBlocks = (recentSubBlocks.1, recentSubBlocks.2, recentSubBlocks.3, weighted)
        shortTermSubBlocks[subBlocksCompleted % Self.shortTermSubBlockCount] = weighted
        subBlocksCompleted += 1
        guard subBlocksCompleted >= 4 else { return }
        let (a, b, c, d) = recentSubBlocks
        let blockEnergy = (a + b + c + d) / Double(4 * subBlockLength)
        let loudness = Self.loudness(ofEnergy: blockEnergy)
        lastBlockLoudness = loudness
        guard loudness > Self.absoluteGate else { return }
        let bin = min(Self.binCount - 1, Int((loudness - Self.absoluteGate) / Self.binWidth))
        histogramCounts[bin] += 1
        histogramEnergy[bin] += blockEnergy
    }

    private static func loudness(ofEnergy energy: Double) -> Double {
        energy > 0 ? -0.691 + 10 * log10(energy) : -.infinity
    }

    /// The gated loudness of everything fed so far, in LUFS; −∞ when no 400 ms block rose
    /// above −70 LUFS (including when less than 400 ms was fed).
    public var integratedLoudness: Double {
        var count = 0
        var energy = 0.0
        for bin in 0..<Self.binCount where histogramCounts[bin] > 0 {
            count += histogramCounts[bin]
            energy += histogramEnergy[bin]
        }
        guard count > 0 else { return -.infinity }
        let threshold = Self.loudness(ofEnergy: energy / Double(count)) + Self.relativeGate
        count = 0
        energy = 0
        for bin in 0..<Self.binCount where histogramCounts[bin] > 0 {
            // A bin is kept when its centre is above the relative gate.
            let centre = Self.absoluteGate + (Double(bin) + 0.5) * Self.binWidth
            guard centre > threshold else { continue }
            count += histogramCounts[bin]
            energy += histogramEnergy[bin]
        }
        return count > 0 ? Self.loudness(ofEnergy: energy / Double(count)) : -.infinity
    }

    /// Frames between two updates of ``momentaryLoudness`` and ``shortTermLoudness`` (100 ms).
    public var framesPerUpdate: Int { subBlockLength }

    /// The loudness of the most recent 400 ms block (momentary loudness), in LUFS.
    public var momentaryLoudness: Double { lastBlockLoudness }

    /// The loudness of the last 3 s (short-term loudness, EBU Tech 3341), in LUFS, as of the
    /// most recent 100 ms boundary; over what there is during the first 3 s, and −∞ before the
    /// first 400 ms (as ``momentaryLoudness``).
    public var shortTermLoudness: Double {
        guard subBlocksCompleted >= 4 else { return -.infinity }
        let count = min(subBlocksCompleted, Self.shortTermSubBlockCount)
        var energy = 0.0
        for k in 0..<count { energy += shortTermSubBlocks[k] }
        return Self.loudness(ofEnergy: energy / Double(count * subBlockLength))
    }

    /// The largest absolute sample value fed so far (1.0 is full scale).
    public var samplePeak: Float { peak }

    /// ``samplePeak`` in dBFS (0 dB is full scale; −∞ for silence).
    public var samplePeakDecibels: Double { LoudnessMeter.decibels(amplitude: Double(peak)) }

    /// 20·log10 of an amplitude; −∞ for 0.
    public static func decibels(amplitude: Double) -> Double {
        amplitude > 0 ? 20 * log10(amplitude) : -.infinity
    }

    /// The largest absolute value in `samples`, or `floor` if that is larger (NaN is skipped),
    /// eight lanes at a time: a running `max` over each sample is one compare per sample in a
    /// chain, which costs as much as the rest of a render loop's bookkeeping.
    public static func largestMagnitude(in samples: UnsafeBufferPointer<Float>, floor: Float = 0) -> Float {
        guard var p = samples.baseAddress else { return floor }
        var remaining = samples.count
        var lanes = SIMD8<Float>(repeating: 0)
        while remaining >= 8 {
            let bits = UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt32>.self) & 0x7FFF_FFFF
            let magnitudes = unsafeBitCast(bits, to: SIMD8<Float>.self)
            lanes.replace(with: magnitudes, where: magnitudes .> lanes)
            p += 8
            remaining -= 8
        }
        var result = floor
        for lane in 0..<8 where lanes[lane] > result { result = lanes[lane] }
        for i in 0..<remaining {
            let magnitude = abs(p[i])
            if magnitude > result { result = magnitude }
        }
        return result
    }
}

extension AudioFile {
    /// The largest absolute sample value in dBFS (−∞ for silence).
    public var peakDecibels: Double {
        var peak: Float = 0
        for channel in channels {
            for sample in channel { peak = max(peak, abs(sample)) }
        }
        return LoudnessMeter.decibels(amplitude: Double(peak))
    }

    /// The integrated loudness in LUFS (BS.1770-4, every channel weighted 1.0).
    public var integratedLoudness: Double {
        var meter = LoudnessMeter(sampleRate: sampleRate, channelCount: max(1, channelCount))
        if channelCount > 0 { meter.process(planar: channels) }
        return meter.integratedLoudness
    }
}
