import PolyphonMath
import PolyphonSoundFont

/// Two-operator FM (carrier and modulator at integer multiples of the loop's bin frequency) with
/// an index that falls from `indexStart` to `indexEnd`, plus an optional high "tine" partial.
struct FMRecipe: Sendable {
    var carrier = 1.0
    var modulator = 1.0
    var indexStart = 3.0
    var indexEnd = 0.5
    var indexDecay = 0.3
    var tine: (ratio: Double, level: Double, decay: Double)? = nil
    var attackSeconds = 0.6
    var length = 8192

    func render(frequency: Double) -> GeneratedSample {
        let f0 = SpectralSynthesis.binFrequency(near: frequency, length: length, multiple: 2)
        let bin = Int((f0 * Double(length) / GeneratedSample.rate).rounded())
        let cStep = Int((carrier * Double(bin)).rounded()), mStep = Int((modulator * Double(bin)).rounded())
        let tStep = tine.map { Int(($0.ratio * Double(bin)).rounded()) } ?? 0
        let attack = Int(attackSeconds * GeneratedSample.rate), total = attack + length + 8
        let indexStep = PortableMath.exp(-1 / (indexDecay * GeneratedSample.rate))
        let tineStep = tine.map { PortableMath.exp(-1 / ($0.decay * GeneratedSample.rate)) } ?? 0
        var indexDecayLevel = 1.0, tineLevel = tine?.level ?? 0
        var points = [Double](repeating: 0, count: total)
        for n in 0..<total {
            let fade = n < attack ? 0.5 + 0.5 * SineTable.value(cycles: 0.25 + 0.5 * Double(n) / Double(attack)) : 0
            let index = indexEnd + (indexStart - indexEnd) * indexDecayLevel * fade
            // Phases as exact fractions of the loop: every operator completes whole cycles in it.
            let pm = Double(mStep * n % length) / Double(length)
            let pc = Double(cStep * n % length) / Double(length)
            var v = SineTable.value(cycles: pc + index / PortableMath.twoPi * SineTable.value(cycles: pm))
            if tine != nil, n < attack {
                let pt = Double(tStep * n % length) / Double(length)
                v += tineLevel * fade * SineTable.value(cycles: pt)
                tineLevel *= tineStep
            }
            indexDecayLevel *= indexStep
            points[n] = v
        }
        return GeneratedSample(points: points, loop: attack..<attack + length, frequency: f0)
    }
}
