import Foundation
import PolyphonMIDI
import PolyphonSynth

/// A note as it sounds in a render: for transcription data sets, where a label a few
/// milliseconds off teaches a model the wrong thing.
///
/// Frames are the render's own: the frame the note-on (or the release) lands on, the lead-in
/// counted, the same arithmetic the renderer places events with, so a label and the audio agree
/// to the sample. Seconds are those frames divided by the sample rate.
public struct NoteLabel: Sendable, Hashable, Codable {
    /// Frame on which the note starts.
    public var onsetFrame: Int64
    /// Frame on which its release begins: the note-off, or the sustain pedal's release when the
    /// pedal held the note, or the end of the song for a note never released.
    public var offsetFrame: Int64
    public var onsetSeconds: Double
    public var offsetSeconds: Double
    /// MIDI key, 0–127.
    public var pitch: Int
    /// Note-on velocity, 1–127.
    public var velocity: Int
    /// Channel, 1–16 on the first port, 17–32 on the second …
    public var channel: Int
    /// General MIDI program the channel had selected when the note began (drum kits: the kit).
    public var program: Int
    /// Whether the note is a drum hit (channel 10 of its port).
    public var isDrum: Bool
    /// Index of the file's track the note-on came from.
    public var track: Int
}

extension Timeline {
    /// Every note of the song as a render with these settings plays it, ordered by onset (then
    /// channel, then pitch), following the synthesizer's note rules (FluidSynth 2.6's):
    ///
    /// - A note ends at its note-off (or note-on with velocity 0). While the sustain pedal
    ///   (CC64 ≥ 64) is down, a released note sounds on until the pedal lifts.
    /// - A release asked for earlier than `minimumNoteLength` after the onset begins then (in
    ///   whole control periods, as the synthesizer counts them), whatever the pedal does meanwhile.
    /// - A key struck again: the earlier note gets a note-off that respects the pedal (it ends
    ///   there, or sounds on until the pedal lifts).
    /// - All sound off (CC120) ends a channel's notes at once; all notes off (CC123, and the mode
    ///   changes CC124–127) releases them as note-offs do; reset all controllers (CC121) lifts the
    ///   pedal. The sostenuto pedal is not followed.
    /// - With `liftPedalsAtEnd`, where the render's tail begins the pedals lift and every note
    ///   still sounding is released; without it such notes are labelled as ending at the last
    ///   event (in the audio they ring on into the tail).
    /// - Parameters:
    ///   - minimumNoteLength: `SynthesizerConfiguration.minimumNoteLength` of the render.
    ///   - liftPedalsAtEnd: ``RenderOptions/liftPedalsAtEnd`` of the render.
    public func noteLabels(minimumNoteLength: Double = SynthesizerConfiguration().minimumNoteLength,
                           liftPedalsAtEnd: Bool = true) -> [NoteLabel] {
        Self.noteLabels(of: Self.withNoteOffs(events), lastEventFrame: lastEventFrame, portCount: portCount, sampleRate: sampleRate,
                        minimumNoteLength: minimumNoteLength, liftPedalsAtEnd: liftPedalsAtEnd)
    }

    /// The labels of `events` played in order (``noteLabels(minimumNoteLength:liftPedalsAtEnd:)``),
    /// the song's last event on `lastEventFrame`; `tailStart` is where the render's tail begins
    /// (by default as a timeline of these events computes it).
    static func noteLabels(of events: [Event], lastEventFrame: Int64, tailStart: Int64? = nil, portCount: Int,
                           sampleRate: Double, minimumNoteLength: Double, liftPedalsAtEnd: Bool) -> [NoteLabel] {
        struct Pending { var channel: Int; var label: NoteLabel; var due: Int64 }
        let minimumFrames: Int64 = {
            guard minimumNoteLength > 0, minimumNoteLength.isFinite else { return 0 }
            let frames = Int64(min(minimumNoteLength * sampleRate, 1e9))
            let period = Int64(Synthesizer.controlPeriod)
            return (frames + period - 1) / period * period
        }()
        let channelCount = 16 * max(1, portCount)
        var instruments = ChannelInstruments(portCount: portCount)
        var pedal = [Bool](repeating: false, count: channelCount)
        // Per channel: the note of each key that is down; the notes the pedal holds.
        var down = [[Int: NoteLabel]](repeating: [:], count: channelCount)
        var sustained = [[NoteLabel]](repeating: [], count: channelCount)
        // Releases held back by the minimum note length.
        var pending: [Pending] = []
        var done: [NoteLabel] = []

        func finish(_ label: NoteLabel, at frame: Int64) {
            var l = label
            l.offsetFrame = frame
            l.offsetSeconds = Double(frame) / sampleRate
            done.append(l)
        }
        func release(_ c: Int, _ label: NoteLabel, at frame: Int64, respectingPedal: Bool) {
            if respectingPedal && pedal[c] {
                sustained[c].append(label)
                return
            }
            let due = label.onsetFrame + minimumFrames
            if frame < due { pending.append(Pending(channel: c, label: label, due: due)) } else { finish(label, at: frame) }
        }
        func liftPedal(_ c: Int, at frame: Int64) {
            pedal[c] = false
            for label in sustained[c] { release(c, label, at: frame, respectingPedal: false) }
            sustained[c] = []
        }
        // Held-back releases due before `frame` begin (one due on an event's frame comes after
        // that frame's events).
        func releasePending(before frame: Int64) {
            guard !pending.isEmpty else { return }
            pending.sort { $0.due < $1.due }
            while let p = pending.first, p.due < frame {
                pending.removeFirst()
                finish(p.label, at: p.due)
            }
        }

        for e in events {
            releasePending(before: e.frame)
            instruments.apply(e)
            guard let c = ChannelInstruments.channel(of: e), c < channelCount else { continue }
            switch e.message {
            case .noteOn(_, let key, let velocity) where velocity > 0:
                let k = Int(key & 0x7F)
                if let earlier = down[c].removeValue(forKey: k) { release(c, earlier, at: e.frame, respectingPedal: true) }
                let instrument = instruments.instrument(onChannel: c)
                let seconds = Double(e.frame) / sampleRate
                down[c][k] = NoteLabel(
                    onsetFrame: e.frame, offsetFrame: e.frame, onsetSeconds: seconds, offsetSeconds: seconds,
                    pitch: k, velocity: Int(velocity & 0x7F), channel: c + 1, program: instrument.program,
                    isDrum: instrument.isDrumKit, track: e.track)
            case .noteOn(_, let key, _), .noteOff(_, let key, _):
                if let label = down[c].removeValue(forKey: Int(key & 0x7F)) {
                    release(c, label, at: e.frame, respectingPedal: true)
                }
            case .controlChange(_, 64, let value):
                if value >= 64 { pedal[c] = true } else { liftPedal(c, at: e.frame) }
            case .controlChange(_, 120, _):
                for label in down[c].values { finish(label, at: e.frame) }
                for label in sustained[c] { finish(label, at: e.frame) }
                for p in pending where p.channel == c { finish(p.label, at: e.frame) }
                down[c] = [:]
                sustained[c] = []
                pending.removeAll { $0.channel == c }
            case .controlChange(_, 121, _):
                liftPedal(c, at: e.frame)
            case .controlChange(_, let cc, _) where cc >= 123:
                for label in down[c].values { release(c, label, at: e.frame, respectingPedal: true) }
                down[c] = [:]
            default:
                break
            }
        }
        // The render's tail begins on the last event's frame, or on the frame after it when that
        // frame carries events (they get a step of their own).
        let tailStart = tailStart ?? ((events.last?.frame ?? -1) >= lastEventFrame ? lastEventFrame + 1 : lastEventFrame)
        releasePending(before: tailStart + 1)
        if liftPedalsAtEnd {
            for c in 0..<channelCount {
                liftPedal(c, at: tailStart)
                for label in down[c].values { release(c, label, at: tailStart, respectingPedal: false) }
                down[c] = [:]
            }
        }
        releasePending(before: .max)
        for c in 0..<channelCount {
            for label in down[c].values { finish(label, at: lastEventFrame) }
            for label in sustained[c] { finish(label, at: lastEventFrame) }
        }
        return done.sorted { ($0.onsetFrame, $0.channel, $0.pitch, $0.offsetFrame) < ($1.onsetFrame, $1.channel, $1.pitch, $1.offsetFrame) }
    }
}

/// How note labels are written beside the audio.
public enum NoteLabelFormat: String, Sendable, CaseIterable {
    /// A header line, then one line per note.
    case csv
    /// One JSON object: `sampleRate` and the array `notes`.
    case json

    /// The file's contents for `labels` at `sampleRate`.
    public func encode(_ labels: [NoteLabel], sampleRate: Double) throws -> Data {
        switch self {
        case .csv:
            var text = "onset_seconds,offset_seconds,onset_frame,offset_frame,pitch,velocity,channel,program,is_drum,track\n"
            for l in labels {
                text += "\(l.onsetSeconds),\(l.offsetSeconds),\(l.onsetFrame),\(l.offsetFrame),\(l.pitch),\(l.velocity),"
                text += "\(l.channel),\(l.program),\(l.isDrum ? 1 : 0),\(l.track)\n"
            }
            return Data(text.utf8)
        case .json:
            struct File: Encodable { var sampleRate: Double; var notes: [NoteLabel] }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            var data = try encoder.encode(File(sampleRate: sampleRate, notes: labels))
            data.append(0x0A)
            return data
        }
    }
}
