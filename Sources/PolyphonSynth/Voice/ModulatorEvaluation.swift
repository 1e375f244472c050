import PolyphonSoundFontCore

/// Evaluates SF2 modulators against a channel's state the way FluidSynth does
/// (`fluid_mod_get_value`): 7-bit sources normalised by 127, the pitch wheel by 16384, curves
/// from the concave/convex tables, output = amount × source × amount source.
enum ModulatorEvaluation {
    /// What a modulator source reads: the note and the channel it plays on.
    struct Context {
        let channel: Channel
        let key: Int
        let velocity: Int
    }

    /// The transformed value of a source: −1…1 or 0…1 depending on polarity.
    @inline(__always)
    static func value(of source: ModulatorSource, in ctx: Context) -> Float {
        var raw: Float
        // Unipolar 7-bit sources reach 1 at 127; bipolar ones are centred on 64 (so CC10 = 64
        // is the middle and 127 is +49.2 %), as FluidSynth behaves.
        var range: Float = source.isBipolar ? 128 : 127
        if source.isCC {
            raw = Float(ctx.channel.controllers[Int(source.index)])
        } else {
            switch source.index {
            case 0: return 1  // no controller: a constant full-scale input
            case 2: raw = Float(ctx.velocity)
            case 3: raw = Float(ctx.key)
            case 10: raw = Float(ctx.channel.polyPressure[max(0, min(127, ctx.key))])
            case 13: raw = Float(ctx.channel.channelPressure)
            case 14:
                raw = Float(ctx.channel.pitchWheel)
                range = 16384
            case 16: raw = ctx.channel.pitchBendRange
            default: return 0  // links and reserved sources contribute nothing here
            }
        }
        return transform(raw / range, source)
    }

    /// Maps a normalised 0…1 input through the source's curve, polarity and direction.
    @inline(__always)
    static func transform(_ x: Float, _ source: ModulatorSource) -> Float {
        let decreasing = source.isDecreasing
        let bipolar = source.isBipolar
        switch source.curve {
        case .linear?:
            switch (bipolar, decreasing) {
            case (false, false): return x
            case (false, true): return 1 - x
            case (true, false): return 2 * x - 1
            case (true, true): return 1 - 2 * x
            }
        case .concave?:
            return shaped(x, bipolar: bipolar, decreasing: decreasing, table: Units.concave)
        case .convex?:
            return shaped(x, bipolar: bipolar, decreasing: decreasing, table: Units.convex)
        case .switch?:
            let on = x >= 0.5
            switch (bipolar, decreasing) {
            case (false, false): return on ? 1 : 0
            case (false, true): return on ? 0 : 1
            case (true, false): return on ? 1 : -1
            case (true, true): return on ? -1 : 1
            }
        case nil:
            return 0
        }
    }

    @inline(__always)
    private static func lookup(_ table: [Float], _ v: Float) -> Float {
        let i = Int(v)
        return table[max(0, min(127, i))]
    }

    @inline(__always)
    private static func shaped(_ x: Float, bipolar: Bool, decreasing: Bool, table: [Float]) -> Float {
        if !bipolar {
            return decreasing ? lookup(table, 127 - 127 * x) : lookup(table, 127 * x)
        }
        if x > 0.5 {
            let v = lookup(table, 127 * 2 * (x - 0.5))
            return decreasing ? -v : v
        }
        let v = lookup(table, 127 * 2 * (0.5 - x))
        return decreasing ? v : -v
    }

    /// FluidSynth's default velocity → filter modulator (with its velocity switch as amount
    /// source). FluidSynth's `fluid_mod_get_value` returns 0 for any modulator identical to it,
    /// whatever its amount. The spec's own default (no amount source) is a different modulator
    /// to FluidSynth: a bank's copy of it counts (see ``VelocityToFilterMode/fluidSynth``).
    static let fluidVelocityToFilter = Modulator(
        source: .init(.noteOnVelocity, isDecreasing: true, curve: .linear),
        destination: .initialFilterFc, amount: -2400,
        amountSource: .init(.noteOnVelocity, curve: .switch))

    /// Sums every modulator's output per destination generator (59 = pitch in cents).
    static func sum(_ modulators: [Modulator], context: Context, velocityToFilter: VelocityToFilterMode)
        -> SIMD64<Float>
    {
        var out = SIMD64<Float>(repeating: 0)
        for m in modulators {
            let dest = Int(m.destination)
            guard dest < 61, m.amount != 0 else { continue }
            if velocityToFilter == .fluidSynth && m.isIdentical(to: fluidVelocityToFilter) { continue }
            if m.source.rawValue == 0 { continue }  // no primary source: output 0 (FluidSynth)
            let v1 = value(of: m.source, in: context)
            if v1 == 0 { continue }
            let v2 = m.amountSource.rawValue == 0 ? 1 : value(of: m.amountSource, in: context)
            var v = Float(m.amount) * v1 * v2
            if m.transform == 2 { v = abs(v) }
            // RPN 5 (GM2 modulation depth range) sets the mod wheel's vibrato depth: the wheel's
            // vibrato modulators scale from the default modulator's 50 cents to the range.
            if dest == vibratoDestination && m.source.isCC && m.source.index == 1 {
                let range = context.channel.modulationDepthRange
                if range != 50 { v *= range / 50 }
            }
            out[dest] += v
        }
        return out
    }

    private static let vibratoDestination = Int(GeneratorType.vibLfoToPitch.rawValue)

    /// True when any of the modulators reads this controller (so a CC change must update them).
    static func dependsOnController(_ modulators: [Modulator], _ cc: Int) -> Bool {
        for m in modulators {
            if m.source.isCC && Int(m.source.index) == cc { return true }
            if m.amountSource.isCC && Int(m.amountSource.index) == cc { return true }
        }
        return false
    }
}
