// The code of PolyphonSynth's article "Play in a historical temperament" and the README's line.
import Foundation
import Testing
import PolyphonTestSupport
// snippet: werckmeister-at-415
import PolyphonSoundFont
import PolyphonSynth

/// Werckmeister III (1691) as a Scala scale: the twelve pitches of an octave above C, in cents
/// (or ratios), the last one the octave.
let werckmeisterIII = """
    Werckmeister III (1691)
     12
     90.225
     192.180
     294.135
     390.225
     498.045
     588.270
     696.090
     792.180
     888.270
     996.090
     1092.180
     2/1
    """

/// A Scala keyboard mapping for baroque pitch: key 60 plays the scale's first degree, key 69
/// (A4) sounds at 415 Hz, one degree a key.
let baroquePitch = "12\n0\n127\n60\n69\n415.0\n12\n0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n"

/// A synthesizer whose melodic channels play Werckmeister III at A = 415 Hz; drum channels stay
/// in equal temperament.
func makeWerckmeisterSynthesizer(bank: SoundFont) throws -> Synthesizer {
    let scale = try ScalaScale(bytes: Array(werckmeisterIII.utf8))
    let mapping = try KeyboardMapping(bytes: Array(baroquePitch.utf8))
    var configuration = SynthesizerConfiguration()
    configuration.tuning = try Tuning(scale: scale, keyboardMapping: mapping)
    return try Synthesizer(soundBank: bank, sampleRate: 44_100, configuration: configuration)
}
// end snippet

// snippet: meantone-beside-equal
/// Two tunings at once: quarter-comma meantone on channel 1 (each pitch class's distance from
/// equal temperament in cents, C first), equal temperament on channel 2. Tuning programs are
/// numbered as the MIDI Tuning Standard numbers them, and a channel selects one as RPN 3 does.
func playMeantoneBesideEqualTemperament(_ synth: Synthesizer) throws {
    let meantone = try Tuning(pitchClassOffsets: [0, -23.951, -6.843, 10.265, -13.686, 3.422,
                                                  -20.529, -3.421, -27.373, -10.265, 6.843, -17.108],
                              name: "Meantone 1/4")
    try synth.setTuning(meantone, program: 1)
    synth.selectTuning(program: 1, onChannel: 0)
    synth.selectEqualTemperament(onChannel: 1)
    synth.startNote(64, withVelocity: 100, onChannel: 0)              // E4: a pure major third above C
    synth.startNote(64, withVelocity: 100, onChannel: 1, atFrame: 44_100)
}
// end snippet

@Suite struct HistoricalTemperamentSnippets {
    /// SnippetFixtures' sine plays 441 Hz for 440 (A4 + 3.9 cents): every expected pitch is scaled by this.
    static let bankRatio = 441.0 / 440

    static func pitch(_ left: [Float], from: Double, to: Double) -> Double {
        Measure.frequency(left[Int(from * 44_100)..<Int(to * 44_100)], rate: 44_100)
    }

    /// The pitch of `key` on `channel` played alone by the article's synthesizer.
    static func werckmeisterPitch(_ key: UInt8, channel: UInt8 = 0) throws -> Double {
        let synth = try makeWerckmeisterSynthesizer(bank: SnippetFixtures.sineBank())
        synth.startNote(key, withVelocity: 100, onChannel: channel)
        return pitch(synth.render(frameCount: 22_050).left, from: 0.1, to: 0.45)
    }

    @Test func aPlaysAt415AndTheOtherKeysInWerckmeisterIII() throws {
        #expect(abs(Measure.cents(try Self.werckmeisterPitch(69), 415 * Self.bankRatio)) < 0.1)
        // E4 is the scale's 390.225 cents above C, A4 its 888.270.
        let e4 = 415 * Self.bankRatio * pow(2, (390.225 - 888.270) / 1200)
        #expect(abs(Measure.cents(try Self.werckmeisterPitch(64), e4)) < 0.1)
        #expect(abs(Measure.cents(try Self.werckmeisterPitch(69, channel: 9), 440 * Self.bankRatio)) < 0.1, "drums stay equal-tempered")
    }

    @Test func meantoneAndEqualTemperamentPlayAtOnce() throws {
        let synth = try Synthesizer(soundBank: SnippetFixtures.sineBank(), sampleRate: 44_100)
        try playMeantoneBesideEqualTemperament(synth)
        let left = synth.render(frameCount: 88_200).left
        let meantone = Self.pitch(left, from: 0.1, to: 0.9)
        let equal = 440 * Self.bankRatio * pow(2, -5.0 / 12)
        #expect(abs(Measure.cents(meantone, equal) + 13.686) < 0.1, "meantone E4 at \(meantone) Hz")
        #expect(synth.tuning(onChannel: 0).name == "Meantone 1/4")
        #expect(synth.tuning(onChannel: 1).isEqualTemperament)
    }
}
