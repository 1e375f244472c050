import Foundation
import Testing
import PolyphonAudio
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont

/// The README's example, run as written (with the bank installed by Debian's fluid-soundfont-gm).
@Suite struct ReadmeExampleTests {
    static let fluid = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
    static var fluidAvailable: Bool {
        ProcessInfo.processInfo.environment["CI"] == "true" || FileManager.default.fileExists(atPath: fluid)
    }

    @Test(.enabled(if: fluidAvailable))
    func theSeedSongRendersToAFileWithFluidR3() throws {
        try #require(FileManager.default.fileExists(atPath: Self.fluid), "fluid-soundfont-gm is not installed")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("polyphon-readme-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: output) }

        // --- README example ---
        var song = Song()
        song.replaceTempo(240)
        song.addTrack(program: 48) { track in          // String Ensemble 1, channel 0, velocity 64
            track.notes([64, 63, 64, 63, 64, 59, 62, 60], beats: 1)
            track.chord([57, 45], beats: 3)
        }
        let bank = try SoundFont(contentsOf: URL(fileURLWithPath: "/usr/share/sounds/sf2/FluidR3_GM.sf2"))
        let player = try MIDIPlayer(song: song, soundBank: bank)
        player.prepareToPlay()
        player.onEvent(PlayerEventFilter(categories: [.note])) { callback in
            if case .event(let event, _) = callback.kind { print("note at beat \(event.beat), frame \(callback.frame)") }
        }
        let frames = try player.render(to: AudioFileTarget(path: output, format: .wav, sampleFormat: .int16))
        // --- end of example ---

        #expect(player.synthesizer.presetName(onChannel: 0) == "Strings")
        let audio = try AudioFile(contentsOf: output)
        #expect(audio.frameCount == Int(frames))
        // 11 beats at 240 BPM = 2.75 s, then the strings' release and the reverb tail.
        #expect(audio.duration > 2.75 && audio.duration < 12)
        let peak = audio.channels.flatMap { $0 }.map(abs).max() ?? 0
        #expect(peak > 0.01)
        print("README example: \(frames) frames (\(audio.duration) s), peak \(peak)")
    }
}
