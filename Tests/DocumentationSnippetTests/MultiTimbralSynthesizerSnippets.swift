// The code of PolyphonSynth's article "A multi-timbral synthesizer: banks, programs, preload",
// its overview, and the README's engine example.
import Testing
import PolyphonTestSupport
// snippet: three-instruments
import PolyphonSoundFont
import PolyphonSynth

/// Piano on channel 1, strings on channel 2, a bass drum on channel 10: one synthesizer, one
/// bank, every event on its exact sample.
func playThreeInstruments(bank: SoundFont) throws -> (left: [Float], right: [Float]) {
    let synth = try Synthesizer(soundBank: bank, sampleRate: 44_100)   // every preset resolved now
    synth.sendProgramChange(0, onChannel: 0)                           // Acoustic Grand Piano
    synth.sendProgramChange(48, onChannel: 1)                          // String Ensemble 1
    synth.startNote(60, withVelocity: 100, onChannel: 0)
    synth.startNote(48, withVelocity: 80, onChannel: 1, atFrame: 11_025)
    synth.startNote(36, withVelocity: 120, onChannel: 9)               // channel 10 plays drums
    synth.stopNote(60, onChannel: 0, atFrame: 22_050)                  // lands on exactly that sample
    return synth.render(frameCount: 44_100)
}
// end snippet

// snippet: configure-channels
/// A synthesizer with two drum channels, fewer voices and no reverb, choosing presets by bank.
func makeConfiguredSynthesizer(bank: SoundFont) throws -> Synthesizer {
    var configuration = SynthesizerConfiguration()
    configuration.percussionChannels = [9, 10]       // channels 10 and 11 play drum kits (bank 128)
    configuration.polyphony = 128
    configuration.reverbEnabled = false
    configuration.bankSelectMode = .gs               // bank select MSB picks the bank (the default)
    let synth = try Synthesizer(soundBank: bank, sampleRate: 48_000, configuration: configuration)
    synth.sendProgramChange(25, bankMSB: 8, bankLSB: 0, onChannel: 2)   // falls back to bank 0 if absent
    synth.sendProgramChange(40, onChannel: 10)                         // drum kit 40 (Brush) on channel 11
    return synth
}
// end snippet

// snippet: preload
/// Many synthesizers for one bank — a render per core, a server's requests: the presets are
/// resolved once and shared, and an SF3 bank's samples for the programs used are decoded ahead
/// on every core instead of on a render thread.
func makeSynthesizers(count: Int, bank: SoundFont, programs: [Int]) throws -> [Synthesizer] {
    try bank.preloadSamples(forPresetsAt: programs.compactMap { bank.presetIndex(bank: 0, program: $0) })
    let prepared = PreparedSoundBank(bank)
    return try (0..<count).map { _ in try Synthesizer(preparedBank: prepared, sampleRate: 44_100) }
}
// end snippet

// snippet: render-callback
/// An audio callback: events carry frame offsets into the next render call, so a note asked for
/// halfway through the buffer starts halfway through it. Nothing here allocates or locks.
func renderBlock(_ synth: Synthesizer, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                 frameCount: Int) {
    synth.send(.noteOn(channel: 0, note: 64, velocity: 90), atFrame: frameCount / 2)
    synth.render(left: left, right: right, frameCount: frameCount)
}
// end snippet

@Suite struct MultiTimbralSynthesizerSnippets {
    @Test func threeChannelsSoundAndTheNotesStartOnTheirFrames() throws {
        let (left, _) = try playThreeInstruments(bank: SnippetFixtures.sineBank())
        #expect(left.count == 44_100)
        #expect((left[0..<100].map(abs).max() ?? 0) > 0)
        #expect((left[22_050...].map(abs).max() ?? 0) > 0)            // strings and drum still sound
    }

    @Test func theConfigurationIsTheOneAskedFor() throws {
        let synth = try makeConfiguredSynthesizer(bank: SnippetFixtures.sineBank())
        _ = synth.render(frameCount: 64)                              // events apply as they render
        #expect(synth.configuration.polyphony == 128)
        #expect(synth.program(onChannel: 2) == 25)
        #expect(synth.presetName(onChannel: 2) == "Sine 25")          // bank 8 absent: bank 0
        #expect(synth.presetName(onChannel: 10) == "Sine drums")      // drum kit 40 absent: kit 0
    }

    @Test func sharedBanksMakeIndependentSynthesizers() throws {
        let synths = try makeSynthesizers(count: 3, bank: SnippetFixtures.sineBank(), programs: [0, 48])
        synths[0].startNote(69, withVelocity: 100, onChannel: 0)
        #expect((synths[0].render(frameCount: 512).left.map(abs).max() ?? 0) > 0)
        #expect(synths[1].render(frameCount: 512).left.allSatisfy { $0 == 0 })
    }

    @Test func aNoteSentForHalfwayStartsHalfway() throws {
        let synth = try Synthesizer(soundBank: SnippetFixtures.sineBank(), sampleRate: 44_100)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 512)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: 512)
        defer { left.deallocate(); right.deallocate() }
        renderBlock(synth, left: left, right: right, frameCount: 512)
        #expect((0..<256).allSatisfy { left[$0] == 0 })
        #expect((256..<512).contains { left[$0] != 0 })
    }
}
