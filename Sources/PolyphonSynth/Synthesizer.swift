import Foundation

import PolyphonSoundFont

/// A multi-timbral SoundFont synthesizer: MIDI events in, stereo audio out.
///
/// Every `send…`/`startNote…` call may carry a frame offset into the *next* `render` call
/// (offsets past its end carry over to later calls), so events land on their exact sample.
/// A synthesizer is used by one thread at a time; the bank it plays is immutable and may be
/// shared by any number of synthesizers on other threads. Rendering allocates nothing.
public final class Synthesizer {
    /// The bank being played.
    public let soundBank: SoundFont
    public let sampleRate: Double
    public let configuration: SynthesizerConfiguration

    let channels: [Channel]
    /// The voice pool, preallocated; index form avoids reference counting per voice.
    private let voices: UnsafeMutablePointer<Voice>
    private let voiceCount: Int
    /// One past the highest pool slot that may be active. Free slots are taken lowest first,
    /// so scans over the pool stop here instead of walking every slot (polyphony is 256 by
    /// default; a song rarely keeps more than a few dozen voices).
    private var voiceLimit = 0
    private var queue: EventQueue
    private let tables = InterpolationTables.shared

    /// Preset regions resolved once, so note-on only filters by key and velocity.
    private let presetRegions: [[Region]]
    private let presetLookup: [Int: Int]
    private var sampleInfo: [SampleInfo]
    private var loopPeaks: [Float]

    /// Frames rendered since creation: the clock events are scheduled against.
    public private(set) var framesRendered: Int64 = 0
    private var nextSerial: UInt64 = 0
    /// Master volume from universal SysEx, 0…1.
    private var masterVolume: Float = 1
    /// Bank-select interpretation; GS/XG resets switch it.
    private var bankSelectMode: BankSelectMode
    /// Outputs: one (the mix), one per channel, or the explicit buses notes are routed to.
    private let buses: [OutputBus]
    /// True when notes choose their bus (``SynthesizerConfiguration/outputBusCount``).
    private let routesByBus: Bool

    /// Frames rendered per internal chunk (less when an event comes sooner). Each active voice
    /// pays a fixed cost per chunk, so longer chunks are faster: 1024 measured ~5% faster on
    /// songs than 256. A caller asking for fewer frames (live output) gets just those.
    static let chunkFrames = 1024
    /// The mix of all buses for one chunk.
    private let busLeft: UnsafeMutablePointer<Float>
    private let busRight: UnsafeMutablePointer<Float>
    private let voiceBatch: VoiceBatch
    private let cutoffTable: CutoffTable

    /// Creates a synthesizer for a bank. Resolves every preset's regions up front (the seed's
    /// "preload", done once) so playing never consults the zone tables.
    public init(soundBank: SoundFont, sampleRate: Double = 44100,
                configuration: SynthesizerConfiguration = SynthesizerConfiguration()) throws {
        guard sampleRate >= 8000 && sampleRate <= 192_000 else {
            throw SynthesizerError.unsupportedSampleRate(sampleRate)
        }
        guard configuration.polyphony >= 1 && configuration.polyphony <= 65535 else {
            throw SynthesizerError.invalidConfiguration("polyphony must be 1…65535")
        }
        guard configuration.channelCount >= 1 && configuration.channelCount <= 256 else {
            throw SynthesizerError.invalidConfiguration("channel count must be 1…256")
        }
        self.soundBank = soundBank
        self.sampleRate = sampleRate
        self.configuration = configuration
        self.bankSelectMode = configuration.bankSelectMode
        channels = (0..<configuration.channelCount).map {
            Channel(index: $0, isPercussion: configuration.percussionChannels.contains($0 % 16))
        }
        voiceCount = configuration.polyphony
        voices = .allocate(capacity: configuration.polyphony)
        voices.initialize(repeating: Voice(), count: configuration.polyphony)
        queue = EventQueue(capacity: configuration.eventQueueCapacity)

        var lookup: [Int: Int] = [:]
        for (i, p) in soundBank.presets.enumerated() {
            let k = Int(p.bank) << 7 | Int(p.program & 0x7F)
            if lookup[k] == nil { lookup[k] = i }
        }
        presetLookup = lookup
        presetRegions = soundBank.presets.indices.map { soundBank.regions(forPresetAt: $0) }

        let wordCount = soundBank.sampleData.words.count
        let words = soundBank.sampleData.words.baseAddress.map { UnsafePointer($0) }
        let low = soundBank.sampleData.lowBytes?.baseAddress.map { UnsafePointer($0) }
        sampleInfo = soundBank.samples.map { h in
            let end = h.sampleType.isCompressed ? 0 : min(Int(h.end), wordCount)
            let start = min(Int(h.start), end)
            return SampleInfo(words: words, low: low, start: start, end: end,
                              loopStart: Int(h.loopStart), loopEnd: Int(h.loopEnd),
                              sampleRate: h.sampleRate >= 400 ? Double(h.sampleRate) : 44100,
                              originalPitch: h.originalPitch == 255 ? 60 : Int(min(h.originalPitch, 127)),
                              pitchCorrection: Int(h.pitchCorrection),
                              isPlayable: !h.sampleType.isROM && (h.sampleType.isCompressed || end > start))
        }
        loopPeaks = [Float](repeating: -1, count: soundBank.samples.count)

        let n = Self.chunkFrames
        busLeft = .allocate(capacity: n)
        busRight = .allocate(capacity: n)
        voiceBatch = VoiceBatch(chunkFrames: n, voices: voiceCount)
        cutoffTable = CutoffTable.make(sampleRate: sampleRate)
        let busCount = configuration.outputBusCount.map { max(1, min($0, 256)) }
            ?? (configuration.channelOutputs ? configuration.channelCount : 1)
        routesByBus = configuration.outputBusCount != nil
        buses = (0..<busCount).map { _ in
            OutputBus(capacity: n, sampleRate: sampleRate, configuration: configuration)
        }
        for ch in channels { selectPreset(ch) }
        // The modulator curve tables are lazily created globals: create them now, not on the
        // render thread at the first note.
        _ = Units.concave.count + Units.convex.count
        _ = InterpolationTables.shared
    }

    deinit {
        voices.deinitialize(count: voiceCount)
        voices.deallocate()
        busLeft.deallocate()
        busRight.deallocate()
        cutoffTable.deallocate()
    }

    // MARK: - Events

    /// Starts a note. Velocity 0 is a note-off, as in MIDI.
    public func startNote(_ note: UInt8, withVelocity velocity: UInt8, onChannel channel: UInt8,
                          atFrame offset: Int = 0) {
        schedule(velocity == 0 ? .noteOff : .noteOn, channel, note, velocity, atFrame: offset)
    }

    public func stopNote(_ note: UInt8, onChannel channel: UInt8, atFrame offset: Int = 0) {
        schedule(.noteOff, channel, note, 0, atFrame: offset)
    }

    public func sendController(_ controller: UInt8, withValue value: UInt8, onChannel channel: UInt8,
                               atFrame offset: Int = 0) {
        schedule(.controller, channel, controller, value, atFrame: offset)
    }

    /// Pitch wheel, 0…16383 with 8192 the centre.
    public func sendPitchBend(_ value: UInt16, onChannel channel: UInt8, atFrame offset: Int = 0) {
        schedule(.pitchBend, channel, 0, 0, value: Int(min(value, 16383)), atFrame: offset)
    }

    /// Program change with an explicit bank (bank select then program change).
    public func sendProgramChange(_ program: UInt8, bankMSB: UInt8, bankLSB: UInt8,
                                  onChannel channel: UInt8, atFrame offset: Int = 0) {
        schedule(.controller, channel, 0, bankMSB, atFrame: offset)
        schedule(.controller, channel, 32, bankLSB, atFrame: offset)
        schedule(.programChange, channel, program, 0, atFrame: offset)
    }

    public func sendProgramChange(_ program: UInt8, onChannel channel: UInt8, atFrame offset: Int = 0) {
        schedule(.programChange, channel, program, 0, atFrame: offset)
    }

    /// Channel pressure (aftertouch).
    public func sendPressure(_ pressure: UInt8, onChannel channel: UInt8, atFrame offset: Int = 0) {
        schedule(.channelPressure, channel, pressure, 0, atFrame: offset)
    }

    /// Polyphonic key pressure.
    public func sendPressure(forKey key: UInt8, withValue value: UInt8, onChannel channel: UInt8,
                             atFrame offset: Int = 0) {
        schedule(.polyPressure, channel, key, value, atFrame: offset)
    }

    /// A raw channel voice message (status byte with channel in its low nibble).
    /// For more than 16 channels, `port` selects the group of 16.
    /// `outputBus` routes a note-on to that bus when ``SynthesizerConfiguration/outputBusCount``
    /// is set (ignored otherwise).
    public func sendMIDIEvent(_ status: UInt8, data1: UInt8, data2: UInt8 = 0, port: Int = 0,
                              outputBus: Int = 0, atFrame offset: Int = 0) {
        let ch = UInt8(truncatingIfNeeded: Int(status & 0x0F) + 16 * port)
        let d1 = data1 & 0x7F, d2 = data2 & 0x7F
        switch status & 0xF0 {
        case 0x80: schedule(.noteOff, ch, d1, d2, atFrame: offset)
        case 0x90: schedule(d2 == 0 ? .noteOff : .noteOn, ch, d1, d2, bus: outputBus, atFrame: offset)
        case 0xA0: schedule(.polyPressure, ch, d1, d2, atFrame: offset)
        case 0xB0: schedule(.controller, ch, d1, d2, atFrame: offset)
        case 0xC0: schedule(.programChange, ch, d1, 0, atFrame: offset)
        case 0xD0: schedule(.channelPressure, ch, d1, 0, atFrame: offset)
        case 0xE0: schedule(.pitchBend, ch, 0, 0, value: Int(d1) | Int(d2) << 7, atFrame: offset)
        default: break
        }
    }

    /// A system-exclusive message, with or without the leading F0 / trailing F7.
    /// Understood: GM/GM2 on and off, master volume, GS reset and rhythm-part assignment,
    /// XG system on.
    public func sendMIDISysExEvent(_ data: [UInt8], atFrame offset: Int = 0) {
        // Copied straight from the caller's bytes into the preallocated pool (no intermediate
        // array), so a real-time caller does not allocate while the pool has room.
        let body = data.first == 0xF0 ? data[1...] : data[...]
        let start = queue.sysExPool.count
        queue.sysExPool.append(contentsOf: body)
        queue.push(ScheduledEvent(frame: framesRendered + Int64(max(0, offset)), kind: .sysEx,
                                  channel: 0, data1: 0, data2: 0, data3: 0, value: start,
                                  length: body.count))
    }

    /// Releases every note on every channel (as CC123 on all channels).
    public func allNotesOff(atFrame offset: Int = 0) {
        schedule(.allNotesOff, 0, 0, 0, atFrame: offset)
    }

    /// Silences every voice at once (as CC120 on all channels).
    public func allSoundOff(atFrame offset: Int = 0) {
        schedule(.allSoundOff, 0, 0, 0, atFrame: offset)
    }

    /// Returns every channel to its power-on state and silences all voices.
    public func reset(atFrame offset: Int = 0) {
        schedule(.reset, 0, 0, 0, atFrame: offset)
    }

    private func schedule(_ kind: ScheduledEvent.Kind, _ channel: UInt8, _ d1: UInt8, _ d2: UInt8,
                          value: Int = 0, bus: Int = 0, atFrame offset: Int) {
        queue.push(ScheduledEvent(frame: framesRendered + Int64(max(0, offset)), kind: kind,
                                  channel: channel, data1: d1, data2: d2,
                                  data3: UInt8(truncatingIfNeeded: max(0, min(bus, 255))), value: value,
                                  length: 0))
    }

    // MARK: - State

    /// Voices currently sounding (including releasing ones).
    public var activeVoiceCount: Int {
        var n = 0
        for i in 0..<voiceLimit where voices[i].isActive { n += 1 }
        return n
    }

    /// True when nothing sounds and no event is waiting: rendering more would give silence
    /// (effect tails aside).
    public var isIdle: Bool { queue.isEmpty && activeVoiceCount == 0 }

    /// Whether stereo pairs in step share one phase stream, and how many frames did (tests).
    var pairsStereoTwins: Bool {
        get { voiceBatch.pairsTwins }
        set { voiceBatch.pairsTwins = newValue }
    }
    var stereoTwinFrames: Int { voiceBatch.twinFrames }

    /// Whether voices whose filters have settled share filters (``SharedFilters``), and how
    /// many voice frames did (tests).
    var sharesFilters: Bool {
        get { voiceBatch.sharesFilters }
        set { voiceBatch.sharesFilters = newValue }
    }
    var sharedFilterFrames: Int { voiceBatch.sharedFrames }

    /// Whether steady voices run through control points that would change nothing, how many
    /// points they passed so far (and how many of those inside a longer oscillator run), and
    /// how many active voices are steady now (tests).
    var skipsSteadyControlPoints: Bool {
        get { voiceBatch.skipsSteadyPoints }
        set { voiceBatch.skipsSteadyPoints = newValue }
    }
    var steadyPointsPassed: (all: Int, runThrough: Int) {
        (voiceBatch.steadyPoints, voiceBatch.steadyPointsRunThrough)
    }
    var steadyVoiceCount: Int {
        var n = 0
        for i in 0..<voiceLimit where voices[i].isActive && voices[i].isHeldSteady { n += 1 }
        return n
    }

    /// True when the effect units' tails have died away (always true with effects off).
    public var effectsAreSilent: Bool { !effectsActive }

    /// Reverb parameters; changes take effect at the next render without a click.
    public var reverbSettings: ReverbSettings {
        get { buses[0].reverb?.settings ?? configuration.reverb }
        set { for b in buses { b.reverb?.settings = newValue } }
    }

    /// Chorus parameters; changes take effect at the next render.
    public var chorusSettings: ChorusSettings {
        get { buses[0].chorus?.settings ?? configuration.chorus }
        set { for b in buses { b.chorus?.settings = newValue } }
    }

    /// The program currently selected on a channel.
    public func program(onChannel channel: UInt8) -> UInt8 {
        Int(channel) < channels.count ? channels[Int(channel)].program : 0
    }

    /// The name of the preset a channel plays, if the bank has one for it.
    public func presetName(onChannel channel: UInt8) -> String? {
        guard Int(channel) < channels.count, let i = channels[Int(channel)].presetIndex else { return nil }
        return soundBank.presets[i].name
    }

    // MARK: - Rendering

    /// Renders `frameCount` frames of stereo audio into two caller buffers (overwriting them).
    public func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                       frameCount: Int) {
        renderChunks(frameCount) { done, n in
            (left + done).update(from: busLeft, count: n)
            (right + done).update(from: busRight, count: n)
        }
    }

    /// Renders the mix and, at the same time, each channel's own share of it (its dry signal
    /// plus its reverb and chorus) into `channels[c]`: the channel outputs add up to the mix.
    /// Requires ``SynthesizerConfiguration/channelOutputs``; `channels` holds one buffer pair per
    /// channel (``SynthesizerConfiguration/channelCount``).
    public func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                       channels: [StereoBuffer], frameCount: Int) {
        precondition((configuration.channelOutputs || routesByBus) && channels.count >= buses.count,
                     "separate outputs need channelOutputs or outputBusCount, and one buffer pair per bus")
        renderChunks(frameCount) { done, n in
            (left + done).update(from: busLeft, count: n)
            (right + done).update(from: busRight, count: n)
            for (c, b) in buses.enumerated() {
                (channels[c].left + done).update(from: b.left, count: n)
                (channels[c].right + done).update(from: b.right, count: n)
            }
        }
    }

    /// Renders into one interleaved stereo buffer (L R L R …) of `frameCount` frames.
    public func render(interleaved: UnsafeMutablePointer<Float>, frameCount: Int) {
        renderChunks(frameCount) { done, n in
            let out = interleaved + 2 * done
            for i in 0..<n {
                out[2 * i] = busLeft[i]
                out[2 * i + 1] = busRight[i]
            }
        }
    }

    /// The render loop shared by every output form: chunks end at the next scheduled event so
    /// it lands on its frame; `deliver(offset, count)` copies each chunk out of the buses.
    @inline(__always)
    private func renderChunks(_ frameCount: Int, _ deliver: (Int, Int) -> Void) {
        DenormalMode.flushingToZero { renderChunksFlushingDenormals(frameCount, deliver) }
    }

    @inline(__always)
    private func renderChunksFlushingDenormals(_ frameCount: Int, _ deliver: (Int, Int) -> Void) {
        var done = 0
        while done < frameCount {
            dispatchDueEvents()
            var n = min(frameCount - done, Self.chunkFrames)
            if let next = queue.nextFrame {
                n = min(n, Int(max(1, next - framesRendered)))
            }
            renderChunk(n)
            deliver(done, n)
            done += n
            framesRendered += Int64(n)
        }
        dispatchDueEvents()
    }

    /// Convenience for arrays: renders `frameCount` frames and returns (left, right).
    /// Allocates; real-time code uses the pointer variants.
    public func render(frameCount: Int) -> (left: [Float], right: [Float]) {
        var l = [Float](repeating: 0, count: frameCount)
        var r = [Float](repeating: 0, count: frameCount)
        l.withUnsafeMutableBufferPointer { lp in
            r.withUnsafeMutableBufferPointer { rp in
                if frameCount > 0 { render(left: lp.baseAddress!, right: rp.baseAddress!, frameCount: frameCount) }
            }
        }
        return (l, r)
    }

    private func renderChunk(_ n: Int) {
        for b in buses { b.clear(n) }
        let interp = configuration.interpolation
        if buses.count == 1 {
            let target = buses[0].target
            voiceBatch.render(voices: voices, voiceCount: voiceLimit, count: n, interpolation: interp,
                              tables: tables, clock: framesRendered, sharedTarget: target, bus: { _ in 0 },
                              busTarget: { _ in target })
        } else {
            let voices = self.voices, buses = self.buses
            voiceBatch.render(voices: voices, voiceCount: voiceLimit, count: n, interpolation: interp,
                              tables: tables, clock: framesRendered, sharedTarget: nil,
                              bus: { min(voices[$0].bus, buses.count - 1) }, busTarget: { buses[$0].target })
        }
        while voiceLimit > 0 && !voices[voiceLimit - 1].isActive { voiceLimit -= 1 }
        runEffects(n)
        if masterVolume != 1 {
            let m = masterVolume
            for b in buses {
                for i in 0..<n { b.left[i] *= m; b.right[i] *= m }
            }
        }
        if buses.count == 1 {
            busLeft.update(from: buses[0].left, count: n)
            busRight.update(from: buses[0].right, count: n)
        } else {
            busLeft.update(repeating: 0, count: n)
            busRight.update(repeating: 0, count: n)
            for b in buses {
                for i in 0..<n { busLeft[i] += b.left[i]; busRight[i] += b.right[i] }
            }
        }
    }

    /// Effect tails are judged at the end of blocks of this many frames, counted from the frame
    /// the effects started at.
    static let effectGrid = 64
    /// True from the first frame anything is sent to an effect until the tails are over.
    private var effectsActive = false
    /// Frames the effects have run since they started.
    private var effectFrames = 0
    /// In the current grid block: something was sent or a voice sounded (on any bus), and the
    /// loudest output otherwise (the tails alone, all buses summed).
    private var blockHadSignal = false
    private var blockTail: Float = 0

    /// Runs reverb and chorus on every bus, or on none: they start at the exact frame something
    /// is first sent anywhere (so their modulation starts with the sound, however far into the
    /// render that is), and stop at the end of a grid block — counted from that start — in which
    /// nothing was sent, no voice sounded and the tails, all buses summed, stayed below −120 dBFS.
    /// Their tails are then cleared. Everything is counted from the start frame, never from where
    /// render calls or chunks begin, so output is the same bit for bit however calls are sliced;
    /// deciding on every bus together (on the summed output) keeps channel buses starting and
    /// stopping exactly as one shared bus would.
    private func runEffects(_ n: Int) {
        var start = 0
        while start < n {
            if !effectsActive {
                var first = n
                for b in buses { if let f = b.firstSend(from: start, to: first) { first = f } }
                guard first < n else { return }
                effectsActive = true
                effectFrames = 0
                blockHadSignal = false
                blockTail = 0
                start = first
            }
            let m = min(n - start, Self.effectGrid - effectFrames % Self.effectGrid)
            let measuring = !blockHadSignal
            for b in buses where b.runEffects(from: start, count: m, measuring: measuring) { blockHadSignal = true }
            if !blockHadSignal { blockTail = max(blockTail, summedPeak(from: start, count: m)) }
            effectFrames += m
            start += m
            if effectFrames % Self.effectGrid == 0 {
                if !blockHadSignal && blockTail < 1e-6 {
                    effectsActive = false
                    for b in buses { b.clearTails() }
                }
                blockHadSignal = false
                blockTail = 0
            }
        }
    }

    /// The largest magnitude of the buses' output, summed as the main output sums them.
    private func summedPeak(from start: Int, count m: Int) -> Float {
        var peak: Float = 0
        if buses.count == 1 {
            let l = buses[0].left + start, r = buses[0].right + start
            for i in 0..<m { peak = max(peak, abs(l[i]), abs(r[i])) }
            return peak
        }
        for i in start..<(start + m) {
            var l: Float = 0, r: Float = 0
            for b in buses {
                l += b.left[i]
                r += b.right[i]
            }
            peak = max(peak, abs(l), abs(r))
        }
        return peak
    }

    private func dispatchDueEvents() {
        while let f = queue.nextFrame, f <= framesRendered, let e = queue.pop() {
            dispatch(e)
        }
        queue.compactIfDrained()
    }

    private func dispatch(_ e: ScheduledEvent) {
        if e.kind == .sysEx {
            handleSysEx(start: e.value, length: e.length)
            return
        }
        if e.kind == .allNotesOff {
            for ch in channels { releaseAll(ch, sustainRespected: false) }
            return
        }
        if e.kind == .allSoundOff {
            for i in 0..<voiceLimit where voices[i].isActive { voices[i].kill() }
            voiceBatch.clearSharedFilters()
            return
        }
        if e.kind == .reset {
            resetAll()
            return
        }
        guard Int(e.channel) < channels.count else { return }
        let ch = channels[Int(e.channel)]
        switch e.kind {
        case .noteOn: noteOn(ch, key: Int(e.data1), velocity: Int(e.data2), bus: Int(e.data3))
        case .noteOff: noteOff(ch, key: Int(e.data1))
        case .controller: controlChange(ch, Int(e.data1), e.data2)
        case .programChange:
            ch.program = e.data1
            selectPreset(ch)
        case .pitchBend:
            ch.pitchWheel = UInt16(e.value)
            channelChanged(ch)
        case .channelPressure:
            ch.channelPressure = e.data1
            channelChanged(ch)
        case .polyPressure:
            ch.polyPressure[Int(e.data1)] = e.data2
            for i in 0..<voiceLimit where voices[i].isActive && voices[i].channel == ch.index && voices[i].key == Int(e.data1) {
                voices[i].channelChanged(ch)
            }
        default: break
        }
    }

    // MARK: - Notes

    private func noteOn(_ ch: Channel, key: Int, velocity: Int, bus: Int = 0) {
        guard let p = ch.presetIndex else { return }
        let now = framesRendered
        // A new note on a key that is still sounding releases the old one (FluidSynth).
        for i in 0..<voiceLimit where voices[i].isActive && voices[i].channel == ch.index && voices[i].key == key && voices[i].startFrame != now {
            voices[i].release(ch)
        }
        var glideFrom = -1
        if ch.portamento {
            glideFrom = ch.controllers[84] != 0 ? Int(ch.controllers[84]) : ch.lastKey
            ch.controllers[84] = 0
        }
        if ch.isMono {
            // Mono mode: the new note replaces whatever the channel was playing.
            for i in 0..<voiceLimit where voices[i].isActive && voices[i].channel == ch.index && voices[i].startFrame != now {
                voices[i].release(ch)
            }
            if glideFrom < 0 && ch.legato { glideFrom = ch.lastKey }
        }
        ch.lastKey = key
        let serialBase = nextSerial
        for region in presetRegions[p] where region.contains(key: UInt8(key), velocity: UInt8(velocity)) {
            let si = region.sampleIndex
            guard si >= 0 && si < sampleInfo.count, sampleInfo[si].isPlayable else { continue }
            if sampleInfo[si].words == nil || (soundBank.samples[si].sampleType.isCompressed && sampleInfo[si].end == 0) {
                guard decode(si) else { continue }
            }
            // Exclusive class: cut other voices of the same class on this channel.
            let excl = Int(region.generators[.exclusiveClass])
            if excl != 0 {
                for i in 0..<voiceLimit where voices[i].isActive && voices[i].channel == ch.index && voices[i].exclusiveClass == excl
                    && voices[i].serial <= serialBase {
                    voices[i].quickRelease(ch)
                }
            }
            guard let slot = freeVoice() else { continue }
            nextSerial += 1
            voiceLimit = max(voiceLimit, slot + 1)
            voices[slot].start(region: region, sample: sampleInfo[si], loopPeak: loopPeak(si), channel: ch,
                        key: key, velocity: velocity, frame: now, serial: nextSerial,
                        outputRate: sampleRate, gain: configuration.gain * SynthesizerConfiguration.fluidSynthLevelFactor,
                        velocityToFilter: configuration.velocityToFilter, cutoffTable: cutoffTable,
                        portamentoFromKey: glideFrom, portamentoTime: ch.portamentoTime)
            voices[slot].bus = routesByBus ? bus : ch.index

        }
    }

    private func noteOff(_ ch: Channel, key: Int) {
        for i in 0..<voiceLimit where voices[i].isActive && voices[i].channel == ch.index && voices[i].key == key {
            voices[i].noteOff(ch)
        }
    }

    private func releaseAll(_ ch: Channel, sustainRespected: Bool) {
        for i in 0..<voiceLimit where voices[i].isActive && voices[i].channel == ch.index {
            if sustainRespected { voices[i].noteOff(ch) } else { voices[i].release(ch) }
        }
    }

    /// A free voice, or the least important one stolen: released voices first, then the
    /// quietest and oldest — never one started at this very frame.
    private func freeVoice() -> Int? {
        // A free voice first. (Scoring the active voices in front of it cost a copy of each
        // whole voice: the compiler copies one to read `isReleased` through the pool.)
        for i in 0..<voiceCount where !voices[i].isActive { return i }
        var best: Int?
        var bestScore = Float.infinity
        let now = framesRendered
        for i in 0..<voiceCount {
            if voices[i].startFrame == now { continue }
            var score: Float = 0
            if configuration.voiceStealing == .oldest {
                // Lower serial = older: steal the smallest.
                score = Float(voices[i].serial)
                if score < bestScore { bestScore = score; best = i }
                continue
            }
            if voices[i].isReleased { score -= 2000 } else if voices[i].isSustained { score -= 1000 }
            // Quieter voices lose: gain in dB (≤ 0) adds directly.
            score += 20 * log10(max(voices[i].currentGain, 1e-9))
            // Older voices lose ties: a second of age counts as 10 dB.
            score -= Float(now - voices[i].startFrame) / Float(sampleRate) * 10
            if score < bestScore {
                bestScore = score
                best = i
            }
        }
        if let best { voices[best].kill() }
        return best
    }

    /// SF3: decodes a compressed sample on first use (cached by the bank, shared by every
    /// synthesizer playing it). Renderers preload what a song uses so this never runs while
    /// playing live. Returns false when the sample cannot be decoded.
    private func decode(_ i: Int) -> Bool {
        guard let p = try? soundBank.playableSample(at: i), let base = p.words.baseAddress else {
            sampleInfo[i].isPlayable = false
            return false
        }
        sampleInfo[i].words = base
        sampleInfo[i].low = p.lowBytes?.baseAddress
        sampleInfo[i].start = p.start
        sampleInfo[i].end = p.end
        sampleInfo[i].loopStart = p.loopStart
        sampleInfo[i].loopEnd = p.loopEnd
        loopPeaks[i] = -1
        return true
    }

    /// Largest absolute sample value in a sample's loop (full sample if unlooped), cached:
    /// used to decide when a quiet looping voice can no longer be heard.
    private func loopPeak(_ i: Int) -> Float {
        if loopPeaks[i] >= 0 { return loopPeaks[i] }
        let info = sampleInfo[i]
        var lo = info.loopStart, hi = info.loopEnd
        if !(lo >= info.start && hi <= info.end && hi > lo) { lo = info.start; hi = info.end }
        var peak: Int32 = 0
        if let words = info.words {
            var j = lo
            while j < hi {
                peak = max(peak, abs(Int32(words[j])))
                j += 1
            }
        }
        let v = Float(peak) / 32768
        loopPeaks[i] = v
        return v
    }

    // MARK: - Controllers

    private func channelChanged(_ ch: Channel) {
        for i in 0..<voiceLimit where voices[i].isActive && voices[i].channel == ch.index { voices[i].channelChanged(ch) }
    }

    private func controlChange(_ ch: Channel, _ cc: Int, _ value: UInt8) {
        let old = ch.controllers[cc]
        ch.controllers[cc] = value
        switch cc {
        case 0:
            ch.bankMSB = value
            if bankSelectMode == .xg { ch.isPercussion = value == 127 || value == 126 }
        case 32:
            ch.bankLSB = value
        case 6, 38:
            dataEntry(ch, isMSB: cc == 6, value: value)
        case 96, 97:
            dataIncrement(ch, up: cc == 96)
        case 98:
            ch.nrpnSelected = true
            ch.nrpn = ((ch.nrpn ?? 0) & ~0x7F) | Int(value)
            ch.rpn = nil
        case 99:
            ch.nrpnSelected = true
            ch.nrpn = ((ch.nrpn ?? 0) & 0x7F) | Int(value) << 7
            if value == 120 { ch.sf2NRPNIndex = 0 }
            ch.rpn = nil
        case 100:
            ch.nrpnSelected = false
            ch.rpn = ((ch.rpn ?? 0) & ~0x7F) | Int(value)
        case 101:
            ch.nrpnSelected = false
            ch.rpn = ((ch.rpn ?? 0) & 0x7F) | Int(value) << 7
        case 64:
            if old >= 64 && value < 64 {
                for i in 0..<voiceLimit where voices[i].isActive && voices[i].channel == ch.index && voices[i].isSustained {
                    voices[i].isSustained = false
                    if !voices[i].isSostenutoHeld { voices[i].release(ch) }
                }
            }
        case 66:
            if old < 64 && value >= 64 {
                for i in 0..<voiceLimit where voices[i].isActive && voices[i].channel == ch.index && !voices[i].isKeyReleased {
                    voices[i].isSostenutoHeld = true
                }
            } else if old >= 64 && value < 64 {
                for i in 0..<voiceLimit where voices[i].isActive && voices[i].channel == ch.index && voices[i].isSostenutoHeld {
                    voices[i].isSostenutoHeld = false
                    if voices[i].isKeyReleased && !ch.sustain { voices[i].release(ch) } else if voices[i].isKeyReleased { voices[i].isSustained = true }
                }
            }
        case 120:
            for i in 0..<voiceLimit where voices[i].isActive && voices[i].channel == ch.index { voices[i].kill() }
        case 121:
            ch.resetControllers()
            // Pedals went up: release what they held.
            for i in 0..<voiceLimit where voices[i].isActive && voices[i].channel == ch.index && (voices[i].isSustained || voices[i].isSostenutoHeld) {
                voices[i].release(ch)
            }
        case 123, 124, 125:
            releaseAll(ch, sustainRespected: true)
        case 126:
            ch.isMono = true
            releaseAll(ch, sustainRespected: true)
        case 127:
            ch.isMono = false
            releaseAll(ch, sustainRespected: true)
        default:
            break
        }
        channelChanged(ch)
    }

    private func dataEntry(_ ch: Channel, isMSB: Bool, value: UInt8) {
        if ch.nrpnSelected, let n = ch.nrpn {
            sf2NRPN(ch, number: n, isMSB: isMSB, value: value)
            return
        }
        guard let rpn = ch.rpn else { return }
        let msb = ch.controllers[6], lsb = ch.controllers[38]
        switch rpn {
        case 0: ch.pitchBendRange = Float(msb) + Float(lsb) / 100
        case 1: ch.fineTuning = Float(Int(msb) << 7 | Int(lsb) - 8192) / 8192 * 100
        case 2: ch.coarseTuning = Float(Int(msb) - 64)
        case 5: ch.modulationDepthRange = Float(msb) * 100 + Float(lsb) * 100 / 128
        default: break
        }
    }

    private func dataIncrement(_ ch: Channel, up: Bool) {
        guard !ch.nrpnSelected, let rpn = ch.rpn else { return }
        switch rpn {
        case 0: ch.pitchBendRange = max(0, ch.pitchBendRange + (up ? 1 : -1))
        case 2: ch.coarseTuning += up ? 1 : -1
        default: break
        }
    }

    /// SF2 2.04 §9.6: NRPN MSB 120 addresses generators; LSBs 100–102 add 100/1000/10000 to
    /// the index, others select it; data entry sets a 14-bit offset (8192 = 0), scaled for
    /// some generators.
    private func sf2NRPN(_ ch: Channel, number: Int, isMSB: Bool, value: UInt8) {
        guard number >> 7 == 120 else { return }
        let lsb = number & 0x7F
        guard isMSB else { return }
        var index = ch.sf2NRPNIndex
        switch lsb {
        case 100: index += 100
        case 101: index += 1000
        case 102: index += 10000
        default: index += lsb
        }
        guard index < GeneratorType.slotCount, let gen = GeneratorType(rawValue: UInt16(index)) else { return }
        let raw = Int(ch.controllers[6]) << 7 | Int(ch.controllers[38])
        var amount = Float(raw - 8192)
        switch gen {
        case .initialFilterFc, .modLfoToFilterFc, .modEnvToFilterFc, .freqModLFO, .freqVibLFO,
             .delayModLFO, .delayVibLFO, .delayModEnv, .attackModEnv, .holdModEnv, .decayModEnv,
             .releaseModEnv, .delayVolEnv, .attackVolEnv, .holdVolEnv, .decayVolEnv, .releaseVolEnv,
             .modLfoToPitch, .vibLfoToPitch, .modEnvToPitch:
            amount *= 2
        default: break
        }
        ch.generatorOffsets[index] = amount
        ch.sf2NRPNIndex = 0
    }

    /// Chooses the preset for the channel's bank-select state and program, with fallbacks:
    /// drums → bank 128 program 0; melodic → bank 0 same program → bank 0 program 0.
    private func selectPreset(_ ch: Channel) {
        let prog = Int(ch.program)
        let bank: Int
        if ch.isPercussion {
            bank = 128
        } else {
            switch bankSelectMode {
            case .gm: bank = 0
            case .gs: bank = Int(ch.bankMSB)
            case .xg: bank = Int(ch.bankLSB)
            case .mma: bank = Int(ch.bankMSB) << 7 | Int(ch.bankLSB)
            }
        }
        if let i = presetLookup[bank << 7 | prog] { ch.presetIndex = i; return }
        if ch.isPercussion {
            ch.presetIndex = presetLookup[128 << 7] ?? presetLookup[prog]
            return
        }
        ch.presetIndex = presetLookup[prog] ?? presetLookup[0]
    }

    private func resetAll() {
        for i in 0..<voiceLimit where voices[i].isActive { voices[i].kill() }
        voiceBatch.clearSharedFilters()
        for ch in channels {
            ch.resetAll()
            selectPreset(ch)
        }
        masterVolume = 1
    }

    // MARK: - SysEx

    private func handleSysEx(start: Int, length: Int) {
        let pool = queue.sysExPool
        guard length >= 3, start + length <= pool.count else { return }
        @inline(__always) func b(_ i: Int) -> Int { i < length ? Int(pool[start + i]) : -1 }
        switch b(0) {
        case 0x7E where b(2) == 0x09:
            // Universal non-real-time: GM1 on (1), GM off (2), GM2 on (3).
            bankSelectMode = b(3) == 0x02 ? configuration.bankSelectMode : .gm
            if b(3) == 0x03 { bankSelectMode = .mma }
            resetAll()
        case 0x7F where b(2) == 0x04 && b(3) == 0x01:
            // Universal real-time master volume: 14-bit LSB, MSB.
            let v = b(4) | b(5) << 7
            if v >= 0 { masterVolume = Float(v) / 16383 }
        case 0x41 where b(2) == 0x42 && b(3) == 0x12:
            // Roland GS data set: address b4 b5 b6, data b7.
            let a = (b(4), b(5), b(6))
            if a == (0x40, 0x00, 0x7F) {
                bankSelectMode = .gs
                resetAll()
            } else if a.0 == 0x40 && a.1 == 0x01 && b(7) >= 0 {
                // GS effect parameters: reverb macro/level, chorus macro/level.
                let v = b(7)
                switch a.2 {
                case 0x30: reverbSettings = .gs(type: v)
                case 0x33: reverbSettings.level = Double(v) / 127
                case 0x38: chorusSettings = .gs(type: v)
                case 0x3A: chorusSettings.level = Double(v) / 127 * 2
                default: break
                }
            } else if a.0 == 0x40 && (a.1 & 0xF0) == 0x10 && a.2 == 0x15 {
                // Part → channel: parts 1…9 are channels 1…9? No: part 0 is channel 10.
                let part = a.1 & 0x0F
                let channel = part == 0 ? 9 : (part <= 9 ? part - 1 : part)
                if channel < channels.count {
                    channels[channel].isPercussion = b(7) != 0
                    selectPreset(channels[channel])
                }
            }
        case 0x43 where (b(1) & 0xF0) == 0x10 && b(2) == 0x4C:
            // Yamaha XG: system on (00 00 7E 00) or all parameters reset (00 00 7F 00).
            if b(3) == 0 && b(4) == 0 && (b(5) == 0x7E || b(5) == 0x7F) {
                bankSelectMode = .xg
                resetAll()
            }
        default:
            break
        }
    }
}
