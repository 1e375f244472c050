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
        // 7-bit sources count in 128ths, so 127 is 127/128 (SF2 2.04 §8.4); the pitch wheel in
        // 16384ths. CC10 = 64 is the middle of a bipolar source.
        var range: Float = 128
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
        return transform(raw, range: range, source)
    }

    /// Maps a source's value through its direction, polarity and curve as the SF2 2.04 text
    /// (§8.4) says and FluidSynth 2.6 does (`fluid_mod_transform_source_value`): a positive
    /// unipolar source runs from 0 to (range − 1)/range, a negative one from (range − 1)/range
    /// down to 0; a bipolar one from −1 to (range − 1)/range (its top value kept as it is).
    /// Concave and convex read their 128-point tables at 128 × that value, interpolated, and
    /// stop at (range − 1)/range; a bipolar source's negative half mirrors the positive one.
    /// (FluidSynth 2.3.1 inverted against 1, not against the top value, and read the tables
    /// at 127 × value: softer at full scale, and differently bent in between.)
    @inline(__always)
    static func transform(_ raw: Float, range: Float, _ source: ModulatorSource) -> Float {
        let top = (range - 1) / range
        var v = source.isDecreasing ? top - raw / range : raw / range
        if source.isBipolar {
            if v != top { v = 2 * v - 1 }
            switch source.curve {
            case .linear?: return v
            case .concave?: return v >= 0 ? min(curve(Units.concave, 128 * v), top) : -curve(Units.concave, -128 * v)
            case .convex?: return v >= 0 ? min(curve(Units.convex, 128 * v), top) : -curve(Units.convex, -128 * v)
            case .switch?: return v >= 0 ? 1 : -1
            case nil: return 0
            }
        }
        switch source.curve {
        case .linear?: return v
        case .concave?: return min(curve(Units.concave, 128 * v), top)
        case .convex?: return min(curve(Units.convex, 128 * v), top)
        case .switch?: return v >= 0.5 ? 1 : 0
        case nil: return 0
        }
    }

    /// A 128-point curve read at `x` (0…127), interpolated between its points.
    @inline(__always)
    private static func curve(_ table: [Float], _ x: Float) -> Float {
        guard x > 0 else { return 0 }
        let i = Int(x)
        if i >= 127 { return table[127] }
        return table[i] + (table[i + 1] - table[i]) * (x - Float(i))
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
