import ArgumentParser
import Foundation
import PolyphonAudio
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont

/// `polyphon demo`: renders a short song built in code, so a fresh machine has something to
/// hear with no MIDI file and no SoundFont installed (the built-in bank plays it then).
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Render a short demo song (built in code) to an audio file.",
        discussion: """
            The melody is the one the seed's MusicSequence example builds: String Ensemble 1 at \
            240 BPM, 64 63 64 63 64 59 62 60, then 57 and 45 together — here with a bass line, \
            a piano and drums added so several GM families are heard.
            """)

    @Option(name: .shortAndLong, help: "Output file (format from the extension).")
    var output = "demo.wav"

    @Option(help: ArgumentHelp("Also write the song as a Standard MIDI File.", valueName: "file.mid"))
    var midi: String?

    @OptionGroup var bank: BankOption

    @Flag(name: .shortAndLong, help: "No summary line.")
    var quiet = false

    /// The seed's melody on strings, plus piano chords, a bass and a drum groove: 4 bars at 240 BPM.
    static func song() -> MIDIFile {
        let q = 480  // ticks per beat
        func note(_ ch: UInt8, _ key: UInt8, _ beat: Double, _ beats: Double, _ vel: UInt8 = 64) -> [MIDIEvent] {
            let on = Int(beat * Double(q)), off = Int((beat + beats) * Double(q))
            return [MIDIEvent(tick: on, message: .noteOn(channel: ch, note: key, velocity: vel)),
                    MIDIEvent(tick: off, message: .noteOff(channel: ch, note: key, velocity: 0))]
        }
        var conductor = [MIDIEvent(tick: 0, message: .meta(.text(.trackName, MIDIText("Polyphon demo")))),
                         MIDIEvent(tick: 0, message: .meta(.tempo(microsecondsPerQuarterNote: 250_000)))]
        conductor.append(MIDIEvent(tick: 0, message: .meta(.timeSignature(TimeSignature(numerator: 4, denominatorExponent: 2)))))
        var strings = [MIDIEvent(tick: 0, message: .meta(.text(.trackName, MIDIText("Strings")))),
                       MIDIEvent(tick: 0, message: .programChange(channel: 0, program: 48)),
                       MIDIEvent(tick: 0, message: .controlChange(channel: 0, controller: 91, value: 60))]
        for (i, key) in [64, 63, 64, 63, 64, 59, 62, 60].enumerated() { strings += note(0, UInt8(key), Double(i), 1, 80) }
        strings += note(0, 57, 8, 3, 80) + note(0, 45, 8, 3, 80)
        var piano = [MIDIEvent(tick: 0, message: .meta(.text(.trackName, MIDIText("Piano")))),
                     MIDIEvent(tick: 0, message: .programChange(channel: 1, program: 0)),
                     MIDIEvent(tick: 0, message: .controlChange(channel: 1, controller: 91, value: 40))]
        for (beat, chord) in [(0.0, [52, 57, 60]), (4.0, [52, 56, 59]), (8.0, [45, 52, 57, 60])] {
            for k in chord { piano += note(1, UInt8(k), beat, beat == 8 ? 4 : 3.5, 70) }
        }
        var bass = [MIDIEvent(tick: 0, message: .meta(.text(.trackName, MIDIText("Bass")))),
                    MIDIEvent(tick: 0, message: .programChange(channel: 2, program: 33))]
        for (i, key) in [33, 33, 40, 33, 28, 28, 35, 28, 33, 33, 33].enumerated() { bass += note(2, UInt8(key), Double(i), 0.9, 100) }
        var drums = [MIDIEvent(tick: 0, message: .meta(.text(.trackName, MIDIText("Drums"))))]
        for beat in 0..<11 {
            drums += note(9, beat % 2 == 0 ? 36 : 38, Double(beat), 0.5, 100)
            drums += note(9, 42, Double(beat), 0.25, 70) + note(9, 42, Double(beat) + 0.5, 0.25, 50)
        }
        drums += note(9, 49, 8, 2, 100)
        func track(_ events: [MIDIEvent]) -> MIDITrack {
            let sorted = events.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }.map(\.element)
            return MIDITrack(events: sorted + [MIDIEvent(tick: sorted.last?.tick ?? 0, message: .meta(.endOfTrack))])
        }
        return MIDIFile(format: .multipleTracks, division: .ticksPerQuarterNote(UInt16(q)),
                        tracks: [track(conductor), track(strings), track(piano), track(bass), track(drums)])
    }

    func run() throws {
        let (soundBank, _) = try bank.load(quiet: quiet)
        if let midi {
            do { try Data(Self.song().serialized()).write(to: URL(fileURLWithPath: midi)) } catch {
                throw CLIError("\(midi): cannot write: \(error.localizedDescription)")
            }
        }
        guard let format = AudioFileFormat(path: output) else {
            throw CLIError("\(output): cannot tell the audio format from the extension")
        }
        let summary = try OfflineRenderer(soundBank: soundBank).render(
            Self.song(), to: AudioFileTarget(path: output, format: format, sampleFormat: .int16,
                                             normalization: PeakNormalization(targetDecibels: -1)))
        if !quiet {
            print(String(format: "%@: %.2f s, peak %.1f dBFS, %.1f LUFS, %.0f× real time", output,
                         summary.render.duration, summary.peakDecibels, summary.loudness, summary.render.speed))
        }
    }
}
