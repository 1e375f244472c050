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
    /// One stem per instrument the song plays (Slakh-style): each note sounds on the output of
    /// the General MIDI program (or drum kit) its channel had selected when the note began, with
    /// its own share of reverb and chorus. Two channels playing the same program share a stem.
    case program
}

/// A stem the renderer produced.
public struct Stem: Sendable, Hashable {
    /// Channel index (channel mode), track index (track mode), or program (program mode:
    /// 0–127, drum kits 128 + kit).
    public var index: Int
    /// "ch10", "track03-Bass", "program033-Fingered-Bass", "drums000-Standard" … for file names.
    public var label: String
}

extension OfflineRenderer {
    /// Renders stems in one pass: `stemSink(stem)` is asked once per stem for its sink, `mix`
    /// receives their sum. Stems are the channels, tracks or instruments that play notes.
    ///
    /// One synthesizer plays everything, routing each note to its channel's, track's or
    /// instrument's output, so the stems add up to the mix within float rounding and the mix is
    /// the plain render.
    @discardableResult
    public func renderStems(_ file: MIDIFile, mode: StemMode, stemSink: (Stem) throws -> Sink,
                            mix: Sink? = nil, progress: ((RenderProgress) -> Void)? = nil) throws -> RenderSummary {
        try options.maxDuration.check(file, leadIn: options.leadIn)
        let schedule = Timeline(file: file, sampleRate: options.sampleRate, leadIn: options.leadIn)
        let plan = try loopPlan(schedule)
        if soundBank.sampleData.decoder != nil {
            _ = try? soundBank.preloadSamples(forPresetsAt: schedule.presetsPlayed(in: soundBank))
        }
        var config = options.synthesizer
        config.channelCount = max(config.channelCount, 16 * schedule.portCount)
        let block = max(64, options.blockSize)

        // The stem of every note-on (others: none), and which stems play notes.
        var ownerOfEvent = [Int](repeating: -1, count: schedule.events.count)
        var instruments = ChannelInstruments(portCount: schedule.portCount)
        for (i, e) in schedule.events.enumerated() {
            instruments.apply(e)
            guard case .noteOn(let channel, _, let velocity) = e.message, velocity > 0 else { continue }
            let c = Int(channel & 0x0F) + 16 * e.port
            switch mode {
            case .channel: ownerOfEvent[i] = c
            case .track: ownerOfEvent[i] = e.track
            case .program:
                let instrument = instruments.instrument(onChannel: c)
                ownerOfEvent[i] = instrument.program + (instrument.isDrumKit ? 128 : 0)
            }
        }
        let owners = Set(ownerOfEvent.filter { $0 >= 0 }).sorted()
        let stems = owners.map { Stem(index: $0, label: stemLabel(mode: mode, owner: $0, file: file)) }
        let sinks = try stems.map(stemSink)

        // Channel mode: the synthesizer's own channel outputs. Otherwise one bus per stem, chosen
        // by each note-on.
        var busOfOwner: [Int: Int] = [:]
        for (k, owner) in owners.enumerated() { busOfOwner[owner] = k }
        var busOfEvent = [Int](repeating: 0, count: mode == .channel ? 0 : schedule.events.count)
        if mode == .channel {
            config.channelOutputs = true
        } else {
            config.outputBusCount = max(1, owners.count)
            for (i, owner) in ownerOfEvent.enumerated() where owner >= 0 { busOfEvent[i] = busOfOwner[owner] ?? 0 }
        }
        let synth = try makeSynthesizer(config)
        // Buffers: the mix, and one pair per channel (channel mode) or per stem.
        let pairs = mode == .channel ? config.channelCount : max(1, owners.count)
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: block * 2 * (pairs + 1))
        defer { storage.deallocate() }
        let mixL = storage, mixR = storage + block
        let buffers = (0..<pairs).map { StereoBuffer(left: storage + block * (2 + 2 * $0), right: storage + block * (3 + 2 * $0)) }

        var written: Int64 = 0
        var peak: Float = 0
        // Leading silence is the mix's: every stem drops the same frames, so they stay aligned
        // with the mix and with each other.
        var trimmed: Int64 = 0
        var leading = options.trimLeadingSilence
        let (maxVoices, elapsed) = try drive(plan, synth: synth, block: block, outputBuses: busOfEvent,
                                             progress: progress) { rendered in
            synth.render(left: mixL, right: mixR, channels: buffers, frameCount: rendered)
            var start = 0
            if leading {
                while start < rendered && mixL[start] == 0 && mixR[start] == 0 { start += 1 }
                if start < rendered { leading = false }
                trimmed += Int64(start)
            }
            let n = rendered - start
            guard n > 0 else { return }
            for (k, owner) in owners.enumerated() {
                let b = buffers[mode == .channel ? owner : k]
                try sinks[k](b.left + start, b.right + start, n)
            }
            peak = LoudnessMeter.largestMagnitude(in: UnsafeBufferPointer(start: mixL + start, count: n), floor: peak)
            peak = LoudnessMeter.largestMagnitude(in: UnsafeBufferPointer(start: mixR + start, count: n), floor: peak)
            try mix?(mixL + start, mixR + start, n)
            written += Int64(n)
        }
        return RenderSummary(frames: written, sampleRate: options.sampleRate, peak: peak,
                             maxVoices: maxVoices, elapsed: elapsed, trimmedFrames: trimmed)
    }

    /// A stem's name for file names: letters and digits kept, anything else a hyphen.
    private func stemLabel(mode: StemMode, owner: Int, file: MIDIFile) -> String {
        func safe(_ name: String) -> String {
            let s = String(name.map { $0.isLetter || $0.isNumber ? $0 : "-" })
            return s.isEmpty ? "" : "-" + s
        }
        switch mode {
        case .channel:
            return String(format: "ch%02d", owner + 1)
        case .track:
            return String(format: "track%02d", owner) + safe(owner < file.tracks.count ? (file.tracks[owner].name ?? "") : "")
        case .program:
            let isKit = owner >= 128, program = owner % 128
            let name = soundBank.presets.first { Int($0.bank) == (isKit ? 128 : 0) && Int($0.program) == program }?.name ?? ""
            return String(format: isKit ? "drums%03d" : "program%03d", program) + safe(name)
        }
    }
}
