import Foundation
import PolyphonTestSupport
import PolyphonSoundFont
@testable import PolyphonBuiltInBank
@testable import PolyphonSynth

/// Renders notes of the built-in bank the way the tests listen to them.
enum BuiltInBankSupport {
    /// The bank, generated once for the whole test run.
    static let bank = SoundFont.builtInGeneralMIDI

    /// A synthesizer without reverb and chorus, so measurements see the dry voices (with
    /// FluidSynth's whole-cent pitch and block timing when compared with FluidSynth).
    static func synthesizer(fluidSynthCompatible: Bool = false) throws -> Synthesizer {
        var configuration = SynthesizerConfiguration()
        configuration.reverbEnabled = false
        configuration.chorusEnabled = false
        configuration.fluidSynthCompatible = fluidSynthCompatible
        return try Synthesizer(soundBank: bank, sampleRate: 44100, configuration: configuration)
    }

    /// One note of a melodic program (channel 0) or a drum (channel 9): held for `hold`
    /// seconds, then released for `tail` seconds. Returns the left+right mono sum.
    static func note(program: Int? = nil, drumKey: UInt8? = nil, key: UInt8 = 60, velocity: UInt8 = 100,
                     hold: Double = 1, tail: Double = 0.5) throws -> Rendered {
        let synth = try synthesizer()
        let channel: UInt8 = drumKey == nil ? 0 : 9
        if let program { synth.sendProgramChange(UInt8(program), onChannel: channel) }
        synth.startNote(drumKey ?? key, withVelocity: velocity, onChannel: channel)
        var held = synth.renderSeconds(hold)
        synth.stopNote(drumKey ?? key, onChannel: channel)
        let released = synth.renderSeconds(tail)
        held.left += released.left
        held.right += released.right
        return held
    }

    /// Left + right, halved.
    static func mono(_ r: Rendered) -> [Float] { zip(r.left, r.right).map { ($0 + $1) / 2 } }

    /// RMS in dB of the mono sum between `from` and `to` seconds.
    static func rmsDB(_ x: [Float], from: Double, to: Double) -> Double {
        let a = Int(from * 44100), b = min(x.count, Int(to * 44100))
        return Measure.db(Measure.rms(x[a..<b]))
    }
}
