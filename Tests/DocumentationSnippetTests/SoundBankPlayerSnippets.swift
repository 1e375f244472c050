// The code of PolyphonPlayback's article "Play notes with SoundBankPlayer".
import Foundation
import Testing
import PolyphonTestSupport
// snippet: load-sample-bank
import PolyphonAudio
import PolyphonPlayback
import PolyphonSoundFont

/// Loads a SoundBankPlayer bank: a property list (the sample rate, then name, last note and root
/// note of each sample) and the CAF, WAV or AIFF files beside it.
func loadSampleBank(_ plistPath: String) throws -> SoundFont {
    try SoundFont(contentsOfAnyBank: plistPath, audioLoader: { path in
        let file = try AudioFile(contentsOf: path)
        return SampleBankAudio(sampleRate: file.sampleRate, channels: file.channels)
    })
}
// end snippet

// snippet: play-notes
/// Plays a chord, then a note over it, then lets go: 1024 frames into `left` and `right`.
func playChord(on piano: SoundFont, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) throws {
    let player = try SoundBankPlayer(soundBanks: [piano])   // 32 voices; the oldest note is stolen
    player.queueNote(60, gain: 0.8)
    player.queueNote(64, gain: 0.8)
    player.queueNote(67, gain: 0.8)
    player.playQueuedNotes()                                // all three start on the same sample
    player.render(left: left, right: right, frameCount: 512)
    player.noteOn(72, gain: 0.5)
    player.render(left: left + 512, right: right + 512, frameCount: 512)
    player.allNotesOff()
}
// end snippet

// snippet: two-banks
/// Two instruments at once: `bank:` picks which of the player's banks plays a note.
func playTwoInstruments(piano: SoundFont, vibraphone: SoundFont) throws -> SoundBankPlayer {
    let player = try SoundBankPlayer(soundBanks: [piano, vibraphone], sampleRate: 48_000)
    player.sustain = true                                   // notes ring on after noteOff
    player.noteOn(48, gain: 0.7, bank: 0)
    player.noteOn(72, gain: 0.6, bank: 1)
    player.noteOff(48, bank: 0)
    return player
}
// end snippet

@Suite struct SoundBankPlayerSnippets {
    /// A one-sample bank as the seed writes them: `sine.wav` (A4) beside `Sine.plist`.
    static func writeSampleBank(in directory: TemporaryDirectory) throws -> String {
        let writer = try makeAudioFileWriter(path: directory.file("sine.wav"), sampleFormat: .int16,
                                             channelCount: 1, sampleRate: 44_100)
        try writer.write(planar: [SineBank.sine(frameCount: 44_100).map { Float($0) / 32_768 }])
        try writer.close()
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array>
            <string>44100</string><string>sine</string><string>127</string><string>69</string>
            </array></plist>
            """
        try Data(plist.utf8).write(to: URL(fileURLWithPath: directory.file("Sine.plist")))
        return directory.file("Sine.plist")
    }

    @Test func aPropertyListBankPlaysAChordThatStartsOnOneSample() throws {
        let directory = try TemporaryDirectory()
        let bank = try loadSampleBank(Self.writeSampleBank(in: directory))
        #expect(bank.presets.count == 1)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 1024)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: 1024)
        defer { left.deallocate(); right.deallocate() }
        try playChord(on: bank, left: left, right: right)
        #expect(left[0] == 0 && right[0] == 0)                 // every voice starts at sample 0, phase 0
        let peak = (0..<1024).map { abs(left[$0]) }.max() ?? 0
        #expect(peak > 0.05)
    }

    @Test func twoBanksPlayTogetherAndSustainHoldsTheReleasedNote() throws {
        let directory = try TemporaryDirectory()
        let bank = try loadSampleBank(Self.writeSampleBank(in: directory))
        let player = try playTwoInstruments(piano: bank, vibraphone: bank)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 4410)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: 4410)
        defer { left.deallocate(); right.deallocate() }
        player.render(left: left, right: right, frameCount: 4410)     // 0.1 s: the released note held
        #expect(player.activeVoiceCount == 2)
    }
}
