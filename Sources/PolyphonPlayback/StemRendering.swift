import Foundation
import PolyphonAudio
import PolyphonMIDI
import PolyphonSoundFont
import PolyphonSynth

/// How a render is split into stems.
public enum StemMode: String, Sendable, CaseIterable {
    /// One stem per MIDI channel (per port): each carries its channel's dry sound and its share
    /// of reverb and chorus.
    case channel
    /// One stem per track of the file: each note sounds on its track's output, with its own
    /// share of reverb and chorus.
    case track
}

/// A stem the renderer produced.
public struct Stem: Sendable, Hashable {
    /// Channel index (channel mode) or track index (track mode).
    public var index: Int
    /// "ch10", "track03 Bass", … for file names.
    public var label: String
}

extension OfflineRenderer {
    /// Renders stems in one pass: `stemSink(stem)` is asked once per stem for its sink, `mix`
    /// receives their sum. Stems are the channels or tracks that play notes.
    ///
    /// One synthesizer plays everything, routing each note to its channel's or track's output,
    /// so the stems add up to the mix within float rounding and the mix is the plain render.
    @discardableResult
    public func renderStems(_ file: MIDIFile, mode: StemMode, stemSink: (Stem) throws -> Sink,
                            mix: Sink? = nil, progress: ((RenderProgress) -> Void)? = nil) throws -> RenderSummary {
        try options.maxDuration.check(file, leadIn: options.leadIn)
        let schedule = MIDISchedule(file: file, sampleRate: options.sampleRate, leadIn: options.leadIn)
        if soundBank.sampleData.decoder != nil {
            _ = try? soundBank.preloadSamples(forPresetsAt: schedule.presetsPlayed(in: soundBank))
        }
        var config = options.synthesizer
        config.channelCount = max(config.channelCount, 16 * schedule.portCount)
        let block = max(64, options.blockSize)

        // Which stems play notes, and which events each synthesizer hears.
        var noteOwners = Set<Int>()
        for e in schedule.events {
            if case .noteOn(let channel, _, let velocity) = e.message, velocity > 0 {
                noteOwners.insert(mode == .channel ? Int(channel & 0x0F) + 16 * e.port : e.track)
            }
        }
        let owners = noteOwners.sorted()
        let stems = owners.map { i -> Stem in
            if mode == .channel { return Stem(index: i, label: String(format: "ch%02d", i + 1)) }
            let name = i < file.tracks.count ? (file.tracks[i].name ?? "") : ""
            let safe = name.map { $0.isLetter || $0.isNumber ? $0 : "-" }
            return Stem(index: i, label: String(format: "track%02d", i) + (safe.isEmpty ? "" : "-" + String(safe)))
        }
        let sinks = try stems.map(stemSink)

        var busOfTrack: [Int: Int] = [:]
        if mode == .channel {
            config.channelOutputs = true
        } else {
            config.outputBusCount = max(1, owners.count)
            for (k, owner) in owners.enumerated() { busOfTrack[owner] = k }
        }
        let synth = try Synthesizer(soundBank: soundBank, sampleRate: options.sampleRate, configuration: config)
        // Buffers: the mix, and one pair per channel (channel mode) or per track stem.
        let pairs = mode == .channel ? config.channelCount : max(1, owners.count)
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: block * 2 * (pairs + 1))
        defer { storage.deallocate() }
        let mixL = storage, mixR = storage + block
        let buffers = (0..<pairs).map { StereoBuffer(left: storage + block * (2 + 2 * $0), right: storage + block * (3 + 2 * $0)) }

        var written: Int64 = 0
        var peak: Float = 0
        let (maxVoices, elapsed) = try drive(schedule, synth: synth, block: block,
                                             outputBus: { busOfTrack[$0] ?? 0 }, progress: progress) { n in
            synth.render(left: mixL, right: mixR, channels: buffers, frameCount: n)
            for (k, owner) in owners.enumerated() {
                let b = buffers[mode == .channel ? owner : k]
                try sinks[k](b.left, b.right, n)
            }
            peak = LoudnessMeter.largestMagnitude(in: UnsafeBufferPointer(start: mixL, count: n), floor: peak)
            peak = LoudnessMeter.largestMagnitude(in: UnsafeBufferPointer(start: mixR, count: n), floor: peak)
            try mix?(mixL, mixR, n)
            written += Int64(n)
        }
        return RenderSummary(frames: written, sampleRate: options.sampleRate, peak: peak,
                             maxVoices: maxVoices, elapsed: elapsed)
    }
}
