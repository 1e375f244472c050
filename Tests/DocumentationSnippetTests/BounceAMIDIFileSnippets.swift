// The code of PolyphonPlayback's article "Bounce a MIDI file to audio", and the README's render
// example, run on a bank and a song built in code.
import Foundation
import Testing
import PolyphonAudio
import PolyphonTestSupport
// snippet: bounce-a-midi-file
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont

/// Renders a Standard MIDI File through a SoundFont into a 16-bit WAV file.
func bounce(midiFile midiPath: String, soundFont bankPath: String, to wavPath: String) throws {
    let song = try MIDIFile(contentsOfFile: midiPath)
    let bank = try SoundFont(contentsOf: bankPath)        // memory-mapped: opening takes milliseconds
    let renderer = OfflineRenderer(soundBank: bank)
    let summary = try renderer.render(song, to: AudioFileTarget(path: wavPath, format: .wav, sampleFormat: .int16))
    print("\(summary.render.duration) s of audio at \(summary.render.speed)× real time, \(summary.loudness) LUFS")
}
// end snippet

// snippet: bounce-with-options
/// Renders at 48 kHz without reverb into a 24-bit FLAC file normalised to −1 dBFS, reporting
/// progress.
func bounceToFLAC(_ song: MIDIFile, bank: SoundFont, to flacPath: String) throws -> FileRenderSummary {
    var options = RenderOptions()
    options.sampleRate = 48_000
    options.synthesizer.reverbEnabled = false
    options.synthesizer.interpolation = .sinc
    options.maxTail = 5                                  // seconds of tail after the last event, at most
    let renderer = OfflineRenderer(soundBank: bank, options: options)
    let target = AudioFileTarget(path: flacPath, format: .flac, sampleFormat: .int24,
                                 normalization: PeakNormalization(targetDecibels: -1))
    return try renderer.render(song, to: target) { progress in
        print("\(Int(progress.fraction * 100)) % at \(Int(progress.speed))× real time")
    }
}
// end snippet

// snippet: bounce-into-memory
/// Renders a song into two arrays instead of a file.
func bounceIntoMemory(_ song: MIDIFile, bank: SoundFont) throws -> (left: [Float], right: [Float]) {
    var left: [Float] = [], right: [Float] = []
    try OfflineRenderer(soundBank: bank).render(song, into: { l, r, frameCount in
        left.append(contentsOf: UnsafeBufferPointer(start: l, count: frameCount))
        right.append(contentsOf: UnsafeBufferPointer(start: r, count: frameCount))
    })
    return (left, right)
}
// end snippet

// snippet: bounce-many-files
import Foundation
import PolyphonSynth

/// Renders many files on every core with one bank: the bank's presets are resolved once and
/// shared, so each render costs only its own synthesizer.
func bounceAll(_ midiPaths: [String], soundFont bankPath: String) throws {
    let prepared = PreparedSoundBank(try SoundFont(contentsOf: bankPath))
    DispatchQueue.concurrentPerform(iterations: midiPaths.count) { i in
        let renderer = OfflineRenderer(preparedBank: prepared)
        let wavPath = (midiPaths[i] as NSString).deletingPathExtension + ".wav"
        do {
            let song = try MIDIFile(contentsOfFile: midiPaths[i])
            _ = try renderer.render(song, to: AudioFileTarget(path: wavPath, format: .wav, sampleFormat: .int16))
        } catch {
            print("\(midiPaths[i]): \(error)")           // one bad file does not stop the others
        }
    }
}
// end snippet

@Suite struct BounceAMIDIFileSnippets {
    /// The seed song as a Standard MIDI File in `directory`.
    static func seedMIDIFile(in directory: TemporaryDirectory, name: String = "seed.mid") throws -> String {
        let path = directory.file(name)
        try makeSeedSong().write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aMIDIFileBouncesToAWAVFileAsLongAsTheSongAndItsTail() throws {
        let directory = try TemporaryDirectory()
        let midi = try Self.seedMIDIFile(in: directory)
        try bounce(midiFile: midi, soundFont: SnippetFixtures.sineBankFile(in: directory), to: directory.file("seed.wav"))
        let audio = try AudioFile(contentsOf: directory.file("seed.wav"))
        // 11 beats at 240 BPM = 2.75 s, then the release and the reverb's tail.
        #expect(audio.duration > 2.75 && audio.duration < 14)
        #expect((audio.channels[0].map(abs).max() ?? 0) > 0.01)
    }

    @Test func optionsSetTheRateAndNormaliseThePeak() throws {
        // FLAC goes through libsndfile, loaded at run time: required under CI, skipped without it.
        let libsndfile = try? Libsndfile.load()
        try #require(libsndfile != nil || !RealFiles.isCI, "libsndfile1 is not installed")
        guard libsndfile != nil else { return }
        let directory = try TemporaryDirectory()
        let song = try MIDIFile(contentsOfFile: Self.seedMIDIFile(in: directory))
        let summary = try bounceToFLAC(song, bank: SnippetFixtures.sineBank(), to: directory.file("seed.flac"))
        #expect(abs(summary.peakDecibels - -1) < 0.01)
        let audio = try AudioFile(contentsOf: directory.file("seed.flac"))
        #expect(audio.sampleRate == 48_000)
    }

    @Test func aSongRendersIntoMemoryTheSameSamplesAsIntoAFile() throws {
        let directory = try TemporaryDirectory()
        let midi = try Self.seedMIDIFile(in: directory)
        let bank = SnippetFixtures.sineBank()
        let (left, right) = try bounceIntoMemory(MIDIFile(contentsOfFile: midi), bank: bank)
        #expect(left.count == right.count && left.count > 44_100 * 2)
        _ = try OfflineRenderer(soundBank: bank).render(MIDIFile(contentsOfFile: midi),
            to: AudioFileTarget(path: directory.file("float.wav"), format: .wav, sampleFormat: .float32))
        #expect(try AudioFile(contentsOf: directory.file("float.wav")).channels[0] == left)
    }

    @Test func manyFilesRenderBesideTheirInputsAndABadOneIsSkipped() throws {
        let directory = try TemporaryDirectory()
        let good = try ["a.mid", "b.mid"].map { try Self.seedMIDIFile(in: directory, name: $0) }
        let bad = directory.file("bad.mid")
        try Data("not MIDI".utf8).write(to: URL(fileURLWithPath: bad))
        try bounceAll(good + [bad], soundFont: SnippetFixtures.sineBankFile(in: directory))
        #expect(FileManager.default.fileExists(atPath: directory.file("a.wav")))
        #expect(FileManager.default.fileExists(atPath: directory.file("b.wav")))
        #expect(!FileManager.default.fileExists(atPath: directory.file("bad.wav")))
    }
}
