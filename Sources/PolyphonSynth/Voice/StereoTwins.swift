/// The two halves of a stereo pair, as banks lay them out — two samples of the same length and
/// loop, played at the same rate with the same gain — are read with one phase stream: positions,
/// fractions and coefficient rows are worked out once for both, with each output bit for bit
/// what it would be alone (``WordCubicKernel/renderRunPair``).
extension Voice {
    /// Renders two voices that play the two halves of a stereo pair in step (``twinOffset(_:from:)``)
    /// with one phase stream, period by period while they stay twins; each then continues on
    /// its own. Every output is bit for bit what ``render(count:into:events:scratch:shortcuts:context:)``
    /// would give the voice alone: control points are the voices' own, and the oscillator
    /// arithmetic is the same. Cubic interpolation of 16-bit points only. Returns the frames
    /// each produced.
    static func renderPair(_ a: UnsafeMutablePointer<Voice>, _ b: UnsafeMutablePointer<Voice>, count: Int,
                           into outA: UnsafeMutablePointer<Float>, _ outB: UnsafeMutablePointer<Float>,
                           events eventsA: inout FilterEvents, _ eventsB: inout FilterEvents,
                           scratch: UnsafeMutablePointer<Float>, shortcuts: Shortcuts,
                           context: RenderContext, twinFrames: inout Int) -> (Int, Int) {
        a.pointee.membership.beginChunk()
        b.pointee.membership.beginChunk()
        var done = 0
        while done < count && a.pointee.isActive && b.pointee.isActive
                && a.pointee.control.framesLeftInPeriod == b.pointee.control.framesLeftInPeriod {
            if a.pointee.control.framesLeftInPeriod == 0 {
                if a.pointee.control.endsAfterPeriod || b.pointee.control.endsAfterPeriod { break }
                a.pointee.controlPoint(at: done, events: &eventsA, shortcuts: shortcuts, context: context)
                b.pointee.controlPoint(at: done, events: &eventsB, shortcuts: shortcuts, context: context)
            }
            guard let delta = twinOffset(b, from: a) else { break }
            // Both run on through steady points only when both are steady.
            let runA = a.pointee.runLength(upTo: count - done, shortcuts: shortcuts)
            let runB = b.pointee.runLength(upTo: count - done, shortcuts: shortcuts)
            let (n, skipped) = runA.skipped > 0 && runB.skipped > 0 ? runA
                : (min(count - done, a.pointee.control.framesLeftInPeriod), 0)
            let firstSkipped = done + a.pointee.control.framesLeftInPeriod
            a.pointee.addSteadyFlushes(at: firstSkipped, count: skipped, events: &eventsA, context: context)
            b.pointee.addSteadyFlushes(at: firstSkipped, count: skipped, events: &eventsB, context: context)
            // The voice whose points lie first leads, so the twin's shifted base pointer
            // (its own points minus the offset) never points before its own sample.
            let produced = delta >= 0
                ? a.pointee.renderOscillatorPair(&b.pointee, delta, n, outA + done, outB + done, context.tables, scratch)
                : b.pointee.renderOscillatorPair(&a.pointee, -delta, n, outB + done, outA + done, context.tables, scratch)
            if a.pointee.isShaped && a.pointee.shapedFilter.isActive { a.pointee.shapedFilter.process(outA + done, count: produced) }
            if b.pointee.isShaped && b.pointee.shapedFilter.isActive { b.pointee.shapedFilter.process(outB + done, count: produced) }
            a.pointee.ranOn(n, skipping: skipped)
            b.pointee.ranOn(n, skipping: skipped)
            done += produced
            twinFrames += produced
            if produced < n {
                a.pointee.kill()
                b.pointee.kill()
                return (done, done)
            }
        }
        let producedA = a.pointee.continueRender(from: done, count: count, into: outA, events: &eventsA,
                                                 scratch: scratch, shortcuts: shortcuts, context: context)
        let producedB = b.pointee.continueRender(from: done, count: count, into: outB, events: &eventsB,
                                                 scratch: scratch, shortcuts: shortcuts, context: context)
        return (producedA, producedB)
    }

    /// How far this voice's sample points lie from `other`'s when the two oscillators are in
    /// step: 16-bit samples of the same length and loop, read at the same relative position and
    /// rate with the same gain ramp (the two halves of a stereo pair, as banks lay them out).
    /// Nil when they are not. (Through pointers: copying two whole voices for the question
    /// showed up as two `memcpy` calls per voice and chunk.)
    static func twinOffset(_ voice: UnsafePointer<Voice>, from other: UnsafePointer<Voice>) -> Int? {
        guard voice.pointee.sample.words != nil, other.pointee.sample.words != nil,
              voice.pointee.sample.low == nil, other.pointee.sample.low == nil else { return nil }
        let o = voice.pointee.oscillator, p = other.pointee.oscillator
        let delta = o.start - p.start
        guard o.end - p.end == delta, o.loopStart - p.loopStart == delta, o.loopEnd - p.loopEnd == delta,
              o.increment == p.increment, o.isLooping == p.isLooping, o.hasLooped == p.hasLooped,
              o.loopsLeft == p.loopsLeft,
              o.isFinished == p.isFinished, o.phase == p.phase &+ UInt64(bitPattern: Int64(delta) << 32),
              voice.pointee.ramp == other.pointee.ramp else { return nil }
        return delta
    }

    /// ``renderOscillator`` for this voice and its twin (``twinOffset(_:from:)`` = `delta`).
    @inline(__always)
    mutating private func renderOscillatorPair(_ twin: inout Voice, _ delta: Int, _ n: Int,
                                               _ out: UnsafeMutablePointer<Float>, _ twinOut: UnsafeMutablePointer<Float>,
                                               _ tables: InterpolationTables, _ scratch: UnsafeMutablePointer<Float>) -> Int {
        guard let words = sample.words, let twinWords = twin.sample.words else { return 0 }
        var osc = oscillator
        var g = ramp
        let produced = osc.render(WordCubicKernel.self, data: Int16Samples(words: words),
                                  twin: Int16Samples(words: twinWords + delta), tables: tables, scratch: scratch,
                                  out: out, twinOut: twinOut, count: n, ramp: &g)
        oscillator = osc
        ramp = g
        twin.oscillator.phase = osc.phase &+ UInt64(bitPattern: Int64(delta) << 32)
        twin.oscillator.hasLooped = osc.hasLooped
        twin.oscillator.isLooping = osc.isLooping
        twin.oscillator.loopsLeft = osc.loopsLeft
        twin.oscillator.isFinished = osc.isFinished
        twin.ramp = g
        return produced
    }
}
