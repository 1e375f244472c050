import Foundation
import PolyphonAudio
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

/// A take as a Standard MIDI File and as audio rendered by the native engine.
enum TakeExport {
    /// Ticks per quarter note of exported files: at 120 bpm a tick is 0.52 ms.
    static let ticksPerQuarterNote = 960

    /// A type 1 file: a conductor track (tempo, time signature, the take's name) and one track
    /// per layer named after it, every message on the tick nearest its frame — through the song's
    /// tempo map and at its resolution when the take has one, else at the take's tempo.
    static func midiFile(_ take: Take, events: [Take.Event]) -> MIDIFile {
        let tpq = take.tempoMap?.ticksPerQuarterNote ?? ticksPerQuarterNote
        let ticksPerSecond = Double(tpq) * take.tempo / 60
        func tick(_ frame: Int64) -> Int {
            take.tempoMap?.tick(frame, sampleRate: take.sampleRate) ?? Int((Double(frame) / take.sampleRate * ticksPerSecond).rounded())
        }
        func tempo(_ microseconds: Double) -> MIDIMessage {
            .meta(.tempo(microsecondsPerQuarterNote: UInt32(max(1, min(16_777_215, microseconds.rounded())))))
        }
        func meter(_ numerator: Int, _ denominator: Int) -> MIDIMessage {
            .meta(.timeSignature(TimeSignature(numerator: UInt8(numerator), denominatorExponent: UInt8(denominator.trailingZeroBitCount))))
        }
        var conductorEvents = [MIDIEvent(tick: 0, message: .meta(.text(.trackName, MIDIText("Polyphon jam"))))]
        if let map = take.tempoMap {
            conductorEvents += map.tempos.map { MIDIEvent(tick: $0.tick, message: tempo($0.microsecondsPerQuarterNote)) }
            conductorEvents += map.meters.map { MIDIEvent(tick: $0.tick, message: meter($0.numerator, $0.denominator)) }
            conductorEvents = conductorEvents.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }.map(\.element)
        } else {
            conductorEvents += [MIDIEvent(tick: 0, message: tempo(60_000_000 / take.tempo)), MIDIEvent(tick: 0, message: meter(take.beatsPerBar, 4))]
        }
        let conductor = MIDITrack(events: conductorEvents + [MIDIEvent(tick: conductorEvents.last?.tick ?? 0, message: .meta(.endOfTrack))])
        var tracks = [conductor]
        for (l, layer) in take.layers.enumerated() {
            var track = [MIDIEvent(tick: 0, message: .meta(.text(.trackName, MIDIText(layer.name)))),
                         MIDIEvent(tick: 0, message: .meta(.text(.instrumentName, MIDIText(layer.name))))]
            let mine = events.filter { $0.layer == l }.enumerated()
                .sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
            for event in mine { track.append(MIDIEvent(tick: tick(event.frame), message: event.message)) }
            track.append(MIDIEvent(tick: track.last?.tick ?? 0, message: .meta(.endOfTrack)))
            tracks.append(MIDITrack(events: track))
        }
        return MIDIFile(format: .multipleTracks, division: .ticksPerQuarterNote(UInt16(tpq)), tracks: tracks)
    }

    /// The render settings that make a native render hear what the page heard: the page's rate
    /// and effects, `polyphon render`'s gain and interpolation, and a tail that rings out.
    static func renderOptions(_ take: Take, limits: JamLimits) -> RenderOptions {
        var options = RenderOptions()
        options.sampleRate = take.sampleRate
        options.synthesizer.reverbEnabled = take.reverb
        options.synthesizer.chorusEnabled = take.chorus
        options.maxTail = limits.maxTailSeconds
        return options
    }

    /// The take's events on their frames, as the page's synthesizer played them.
    static func schedule(_ take: Take, events: [Take.Event]) -> Timeline {
        Timeline(events: events.map { Timeline.Event(frame: $0.frame, track: $0.layer, message: $0.message) },
                     sampleRate: take.sampleRate)
    }

    /// Renders the take through `bank` into an audio file's bytes; stops with
    /// ``RenderCancelledError`` after `limits.maxRenderSeconds`.
    static func audio(_ take: Take, events: [Take.Event], bank: SoundFont, format: AudioFileFormat,
                      sampleFormat: SampleFormat, limits: JamLimits) throws -> Data {
        let path = NSTemporaryDirectory() + "polyphon-jam-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).\(format.fileExtension)"
        defer { unlink(path) }
        let renderer = OfflineRenderer(soundBank: bank, options: renderOptions(take, limits: limits),
                                       cancellation: RenderCancellation(timeLimit: limits.maxRenderSeconds))
        _ = try renderer.render(schedule(take, events: events),
                                to: AudioFileTarget(path: path, format: format, sampleFormat: sampleFormat))
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
