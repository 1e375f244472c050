/// Reads a sample at a (fractional) rate, honouring its loop, and interpolates between points.
///
/// The position is 32.32 fixed point so long samples keep sub-sample precision and phase
/// arithmetic never rounds differently between block sizes.
struct Oscillator {
    var phase: UInt64 = 0
    var increment: UInt64 = 0
    /// First playable point, one past the last, loop start, loop end (first point after the loop).
    var start = 0, end = 0, loopStart = 0, loopEnd = 0
    var isLooping = false
    /// True once the read position has wrapped at least once: from then on points before the
    /// loop start are read from the loop's end.
    var hasLooped = false
    var isFinished = false
    /// Times the read position may still wrap at the loop's end before it plays on to the
    /// sample's end (SFZ `loop_count`, `count`); −1: without limit, as SF2 loops.
    var loopsLeft = -1

    var position: Int { Int(truncatingIfNeeded: phase >> 32) }

    /// Sample points the cubic and sinc kernels widen to floats per block: the size of the
    /// scratch buffer ``render(_:data:tables:scratch:out:count:ramp:)`` needs.
    static let scratchPoints = 1024

    mutating func setIncrement(_ ratio: Double) {
        // NaN (a pitch an absurd SFZ modulation made) as 0: converting it would trap.
        let r = ratio.isNaN ? 0 : min(max(ratio, 0), 65535)
        // Below 2⁴⁸, so the signed conversion (one instruction) is exact.
        increment = UInt64(Int64(r * 4_294_967_296.0))
    }

    /// Point `j` with loop wrapping and edge handling: before the start repeats the first point,
    /// past the end is silence (the spec requires 46 zero points there anyway).
    @inline(__always)
    func point<S: SampleSource>(_ data: S, _ j: Int) -> Float {
        var k = j
        if isLooping {
            let len = loopEnd - loopStart
            if k >= loopEnd { k -= len * ((k - loopEnd) / len + 1) }
            else if hasLooped && k < loopStart { k += len * ((loopStart - k - 1) / len + 1) }
        }
        if k < start { k = start }
        if k >= end { return 0 }
        return data[k]
    }

    /// Renders up to `count` points into `out`, scaled by a gain ramp. Returns the number of
    /// frames written; fewer than `count` means the sample ended (the rest is untouched).
    @inline(__always)
    mutating func render<K: InterpolationKernel, S: SampleSource>(
        _ kernel: K.Type, data: S, tables: InterpolationTables, scratch: UnsafeMutablePointer<Float>,
        out: UnsafeMutablePointer<Float>, count: Int, ramp: inout GainRamp
    ) -> Int {
        render(kernel, data: data, twin: nil, tables: tables, scratch: scratch, out: out, twinOut: out,
               count: count, ramp: &ramp)
    }

    /// ``render(_:data:tables:scratch:out:count:ramp:)`` for this oscillator and a twin: another
    /// sample read with the same geometry, phase, increment and gain ramp, whose points are
    /// `twin` indexed like `data` (the other half of a stereo pair). One phase stream serves
    /// both; each output is bit for bit what rendering its own oscillator would give.
    @inline(__always)
    mutating func render<K: InterpolationKernel, S: SampleSource>(
        _ kernel: K.Type, data: S, twin: S?, tables: InterpolationTables, scratch: UnsafeMutablePointer<Float>,
        out: UnsafeMutablePointer<Float>, twinOut: UnsafeMutablePointer<Float>, count: Int, ramp: inout GainRamp
    ) -> Int {
        var ph = phase
        let inc = increment
        // Points are read unscaled; the source's power-of-two scale rides on the gain instead
        // (exact, so the result is the same as scaling every point, with fewer multiplies).
        let gStart = ramp.start * (S.scale * K.scale), gStep = ramp.step * (S.scale * K.scale)
        var gi = ramp.index
        let loopEndFixed = UInt64(loopEnd) << 32
        let loopLenFixed = UInt64(loopEnd - loopStart) << 32
        let endLimit = isLooping ? loopEnd : end
        var fastLo = (isLooping && hasLooped ? loopStart : start) + K.left
        var fastHi = endLimit - K.right
        var looping = isLooping
        var i = 0
        while i < count {
            let idx = Int(truncatingIfNeeded: ph >> 32)
            if idx >= fastLo && idx < fastHi && inc > 0 {
                // A run of points whose neighbours are all inside the sample (or loop): no edge
                // or wrap checks per point. The run ends before the read position can reach
                // fastHi, so it never crosses the loop end.
                let limit = (UInt64(fastHi) << 32) &- ph
                let run = min(count - i, Int(truncatingIfNeeded: (limit &+ inc &- 1) / inc))
                if let twin {
                    K.renderRunPair(data, twin, tables, scratch, out + i, twinOut + i, run, &ph, inc, gStart, gStep, &gi)
                } else {
                    K.renderRun(data, tables, scratch, out + i, run, &ph, inc, gStart, gStep, &gi)
                }
                i += run
                continue
            }
            if !looping && idx >= end {
                isFinished = true
                break
            }
            let frac = Int(truncatingIfNeeded: (ph >> 24) & 0xFF)
            let v: Float
            let fast = idx >= fastLo && idx < fastHi
            if fast {
                v = K.interpolate(data, idx, frac, tables)
            } else {
                v = K.interpolateSlow(self, data, idx, frac, tables)
            }
            out[i] = v * (gStart + gStep * Float(gi))
            if let twin {
                let w = fast ? K.interpolate(twin, idx, frac, tables) : K.interpolateSlow(self, twin, idx, frac, tables)
                twinOut[i] = w * (gStart + gStep * Float(gi))
            }
            gi += 1
            ph &+= inc
            if looping && ph >= loopEndFixed {
                if loopsLeft == 0 {
                    // The last repeat done: on through the loop's end to the sample's.
                    looping = false
                    isLooping = false
                    fastHi = end - K.right
                } else {
                    if loopsLeft > 0 { loopsLeft -= 1 }
                    let over = (ph - loopEndFixed) % loopLenFixed
                    ph = (UInt64(loopStart) << 32) + over
                    if !hasLooped {
                        hasLooped = true
                        fastLo = loopStart + K.left
                    }
                }
            }
            i += 1
        }
        phase = ph
        ramp.index = gi
        return i
    }
}
