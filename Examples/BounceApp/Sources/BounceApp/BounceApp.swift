import Foundation
import PolyphonAudio
import PolyphonBuiltInBank
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

/// Bounces the seed's song — built in code as with MusicSequence, played as with AVMIDIPlayer —
/// to a WAV file, as fast as the CPU allows:
///
///     swift run -c release BounceApp [SOUNDFONT] [-o song.wav]
///
/// The SoundFont (SF2, SF3 or DLS) defaults to the built-in General MIDI bank.
@main
struct BounceApp {
    static func main() {
        do {
            let (bankPath, outputPath) = try arguments(Array(CommandLine.arguments.dropFirst()))
            try bounce(bankPath: bankPath, to: outputPath)
        } catch {
            FileHandle.standardError.write(Data("BounceApp: \(error)\n".utf8))
            exit(1)
        }
    }

    /// The song: one track playing String Ensemble 1 at 240 BPM, eight notes of one beat each,
    /// then a two-note chord held for three beats.
    static func song() -> Song {
        var song = Song(beatsPerMinute: 240)
        song.addTrack(program: 48) { track in       // String Ensemble 1; channel 0, velocity 64
            track.notes([64, 63, 64, 63, 64, 59, 62, 60], beats: 1)
            track.chord([57, 45], beats: 3)
        }
        return song
    }

    static func bounce(bankPath: String?, to outputPath: String) throws {
        let bank = try bankPath.map { try SoundFont(contentsOfAnyBank: $0) } ?? SoundFont.builtInGeneralMIDI
        var configuration = SynthesizerConfiguration()
        configuration.interpolation = .cubic         // FluidSynth's default: 4-point
        let player = try MIDIPlayer(song: song(), soundBank: bank, sampleRate: 44_100, configuration: configuration)
        player.prepareToPlay()
        player.currentPosition = 0

        let started = Date()
        let frames = try player.render(to: AudioFileTarget(path: outputPath, format: .wav, sampleFormat: .int16))
        let elapsed = Date().timeIntervalSince(started)
        let seconds = Double(frames) / player.sampleRate
        print(String(format: "%@: %.2f s of audio in %.3f s, %.0f× real time (bank: %@)",
                     outputPath, seconds, elapsed, seconds / max(elapsed, 1e-9), bankPath ?? "built-in"))
    }

    /// `[SOUNDFONT] [-o OUTPUT]`; the output defaults to `song.wav`.
    static func arguments(_ arguments: [String]) throws -> (bank: String?, output: String) {
        var bank: String?
        var output = "song.wav"
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "-o" || argument == "--output" {
                guard let value = rest.popFirst() else { throw UsageError("-o needs a file name") }
                output = value
            } else if bank == nil && !argument.hasPrefix("-") {
                bank = argument
            } else {
                throw UsageError("usage: BounceApp [SOUNDFONT] [-o OUTPUT.wav]")
            }
        }
        return (bank, output)
    }

    struct UsageError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
