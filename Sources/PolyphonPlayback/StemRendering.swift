import Foundation
import PolyphonMIDI
import PolyphonSoundFont
import PolyphonSynth

/// How a render is split into stems.
public enum StemMode: String, Sendable, CaseIterable {
    /// One stem per MIDI channel (per port): each carries its channel's dry sound and its share
    /// of reverb and chorus.
    case channel
    /// One stem per track of the file. Every track's synthesizer hears all controller, program,
    /// pitch-bend and SysEx events (so channel state is right) but only its own notes.
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
    /// The stems add up to the mix within float rounding. (Track stems differ from a plain mix
    /// only where two tracks play the same key on the same channel at once, or share an
    /// exclusive class: in one synthesizer those notes would cut each other.)
    @discardableResult
    public func renderStems(_ file: MIDIFile, mode: StemMode, stemSink: (Stem) throws -> Sink,
                            mix: Sink? = nil, progress: ((RenderProgress) -> Void)? = nil) throws -> RenderSummary {
        let schedule = MIDISchedule(file: file, sampleRate: options.sampleRate, leadIn: options.leadIn)
        var config = options.synthesizer
        config.channelCount = max(config.channelCount, 16 * schedule.portCount)
        let block = max(64, options.blockSize)

        // Which stems play notes, and which events each synthesizer hears.
        var noteOwners = Set<Int>()
        for e in schedule.events {
            if case .channel(let status, _, let v, let port) = e.kind, status & 0xF0 == 0x90, v > 0 {
                noteOwners.insert(mode == .channel ? Int(status & 0x0F) + 16 * port : e.track)
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

        let synths: [Synthesizer]
        if mode == .channel {
            config.channelOutputs = true
            synths = [try Synthesizer(soundBank: soundBank, sampleRate: options.sampleRate, configuration: config)]
        } else {
            synths = try owners.map { _ in
                try Synthesizer(soundBank: soundBank, sampleRate: options.sampleRate, configuration: config)
            }
        }
        let channelCount = config.channelCount
        // Buffers: the mix, and one pair per channel (channel mode) or per synth (track mode).
        let pairs = mode == .channel ? channelCount : synths.count
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: block * 2 * (pairs + 1))
        defer { storage.deallocate() }
        let mixL = storage, mixR = storage + block
        let buffers = (0..<pairs).map { StereoBuffer(left: storage + block * (2 + 2 * $0), right: storage + block * (3 + 2 * $0)) }

        let started = DispatchTime.now().uptimeNanoseconds
        let lastFrame = schedule.lastEventFrame
        let tailLimit = lastFrame + Int64(max(0, options.maxTail) * options.sampleRate)
        var frame: Int64 = 0, next = 0, written: Int64 = 0
        var peak: Float = 0, maxVoices = 0
        let events = schedule.events
        while true {
            if frame >= lastFrame && options.endAtLastEvent { break }
            // The events at the last frame are dispatched in a one-frame step, then the tail
            // runs in control-period steps from the frame after (the player uses the same grid,
            // so a bounce and a live play end on the same frame).
            let inTail = frame >= lastFrame && next >= events.count
            if inTail {
                if frame >= tailLimit { break }
                if synths.allSatisfy({ $0.isIdle && $0.effectsAreSilent }) { break }
            }
            var n = inTail ? 64 : block
            if !inTail { n = Int(min(Int64(n), max(1, lastFrame - frame))) }
            if inTail { n = Int(min(Int64(n), tailLimit - frame)) }
            if n <= 0 { break }
            let end = frame + Int64(n)
            while next < events.count && events[next].frame < end {
                let e = events[next]
                let offset = Int(max(0, e.frame - frame))
                if mode == .channel {
                    MIDISchedule.send(e, to: synths[0], atFrame: offset)
                } else {
                    var isNote = false
                    if case .channel(let status, _, _, _) = e.kind { isNote = status & 0xE0 == 0x80 }
                    for (k, owner) in owners.enumerated() where !isNote || owner == e.track {
                        MIDISchedule.send(e, to: synths[k], atFrame: offset)
                    }
                }
                next += 1
            }
            if mode == .channel {
                synths[0].render(left: mixL, right: mixR, channels: buffers, frameCount: n)
                maxVoices = max(maxVoices, synths[0].activeVoiceCount)
                for (k, owner) in owners.enumerated() {
                    try sinks[k](buffers[owner].left, buffers[owner].right, n)
                }
            } else {
                mixL.update(repeating: 0, count: n)
                mixR.update(repeating: 0, count: n)
                var voices = 0
                for (k, synth) in synths.enumerated() {
                    synth.render(left: buffers[k].left, right: buffers[k].right, frameCount: n)
                    voices += synth.activeVoiceCount
                    for i in 0..<n { mixL[i] += buffers[k].left[i]; mixR[i] += buffers[k].right[i] }
                    try sinks[k](buffers[k].left, buffers[k].right, n)
                }
                maxVoices = max(maxVoices, voices)
            }
            for i in 0..<n { peak = max(peak, abs(mixL[i]), abs(mixR[i])) }
            try mix?(mixL, mixR, n)
            written += Int64(n)
            frame = end
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        progress?(RenderProgress(fraction: 1, framesRendered: frame,
                                 speed: elapsed > 0 ? Double(frame) / options.sampleRate / elapsed : 0))
        return RenderSummary(frames: written, sampleRate: options.sampleRate, peak: peak,
                             maxVoices: maxVoices, elapsed: elapsed)
    }
}
