// The code of the repository's SFZ page (Documentation/sfz.md): an instrument read, looked at
// and played, and stacked over a SoundFont.
import Foundation
import Testing
import PolyphonSoundFont
import PolyphonTestSupport
// snippet: sfz-read-and-play
import PolyphonSFZ
import PolyphonSynth

/// Reads an SFZ instrument, says what it could not read, and plays middle C on it for a second.
func playMiddleC(onInstrumentAt path: String) throws -> (left: [Float], right: [Float]) {
    let piano = try SFZInstrument(contentsOf: path)                     // throws SFZError if not SFZ
    for warning in piano.warnings { print(warning) }                    // "Piano.sfz:12: lokey=500: …"
    let region = piano.regions[0]                                       // every inherited opcode applied
    let sample = try piano.sampleStore!.sample(at: region.sampleIndex!) // decoded once, shared
    let playback = region.resolvedPlayback(sample: sample.metadata)     // end, loop, loop mode, keycenter
    print("region 1 plays \(playback.end) points, keycenter \(playback.keycenter)")
    try piano.preloadSamples()                                          // decode ahead, on every core
    let bank = SFZSoundBank(piano, releasingDecodedSamples: true)       // the zones the engine plays
    let synthesizer = try Synthesizer(soundBank: bank.soundFont)
    synthesizer.startNote(60, withVelocity: 100, onChannel: 0)
    return synthesizer.render(frameCount: 44_100)
}
// end snippet

// snippet: sfz-stack-over-a-soundfont
/// A song's piano from an SFZ instrument, every other program from a General MIDI bank.
func pianoOverGeneralMIDI(piano path: String, generalMIDI: String) throws -> Synthesizer {
    let piano = try SFZInstrument(contentsOf: path)
    try piano.preloadSamples()
    let pianoBank = SFZSoundBank(piano, placement: .preset(bank: 0, program: 0), releasingDecodedSamples: true)
    let bank = try SoundFont(stacking: [pianoBank.soundFont, try SoundFont(contentsOf: generalMIDI)])
    return try Synthesizer(soundBank: bank)                             // no sample copied: the SF2 stays mapped
}
// end snippet

@Suite struct SFZInstrumentSnippets {
    @Test func theSFZPageReadsPlaysAndStacksAnInstrument() throws {
        let directory = try TemporaryDirectory(prefix: "polyphon-sfz-snippets")
        let library = try SFZPianoLibrary(in: directory.path, compressedSamples: false)
        let out = try playMiddleC(onInstrumentAt: library.path)
        // Middle C at velocity 100 plays the loud layer, 40 cents sharp.
        let f = Measure.frequency(out.left[4_410..<22_050], rate: 44_100)
        #expect(abs(Measure.cents(f, SFZPianoLibrary.frequency(key: 60, detune: SFZPianoLibrary.loudDetune))) < 1, "\(f) Hz")

        let generalMIDI = directory.file("gm.sf2")
        try Data(SineBank.everyProgram().serialized()).write(to: URL(fileURLWithPath: generalMIDI))
        let synthesizer = try pianoOverGeneralMIDI(piano: library.path, generalMIDI: generalMIDI)
        synthesizer.sendProgramChange(40, onChannel: 1)
        synthesizer.startNote(69, withVelocity: 100, onChannel: 1)
        let violin = synthesizer.renderSeconds(0.3)
        let g = Measure.frequency(violin.left[violin.frame(0.1)..<violin.frame(0.3)], rate: violin.rate)
        #expect(abs(Measure.cents(g, 441)) < 1, "program 40 from the SoundFont: \(g) Hz")
    }
}
