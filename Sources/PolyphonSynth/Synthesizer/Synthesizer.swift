import PolyphonMIDICore
import PolyphonSoundFontCore

/// A multi-timbral SoundFont synthesizer: MIDI events in, stereo audio out.
///
/// Every event may carry a frame offset into the *next* `render` call (offsets past its end
/// carry over to later calls), so events land on their exact sample. A synthesizer is used by
/// one thread at a time; the bank it plays is immutable and may be shared by any number of
/// synthesizers on other threads. Rendering allocates nothing.
///
/// How a note travels: ``startNote(_:withVelocity:onChannel:atFrame:)`` queues it; the render
/// loop dispatches it on its frame to its `Channel` (which knows the preset), each region of
/// the preset that holds the key and velocity starts a `Voice` from the `VoicePool`, and
/// every chunk the `VoiceRenderer` renders the voices (oscillator, filter, mix) into the
/// `OutputBus`es, whose reverb and chorus run last.
public final class Synthesizer {
    /// The bank being played.
    public let soundBank: SoundFont
    public let sampleRate: Double
    public let configuration: SynthesizerConfiguration

    /// Frames between the engine's control points: envelopes, LFOs, pitch, cutoff and gain are
    /// worked out this often (each change ramped sample by sample), and a render's tail is
    /// judged over blocks this long.
    public static let controlPeriod = Voice.controlPeriod

    let channels: [Channel]
    let voicePool: VoicePool
    private var queue: EventQueue
    private let presets: PresetTable
    var context: RenderContext

    /// Frames rendered since creation: the clock events are scheduled against.
    public private(set) var framesRendered: Int64 = 0
    /// Bank-select interpretation; GM/GS/XG resets switch it.
    private var bankSelectMode: BankSelectMode
    /// The buses, their effects and the master volume.
    let mixer: Mixer
    /// True when notes choose their bus (``SynthesizerConfiguration/outputBusCount``).
    private let routesByBus: Bool
    /// Tuning programs and the channels' own key tables (``Synthesizer+Tuning.swift``).
    let tunings: TuningStore
    /// Bulk tuning dumps waiting for the host to send them (``takeSystemExclusiveReplies(_:)``).
    var replies = SystemExclusiveReplies()

    /// Frames rendered per internal chunk (less when an event comes sooner). Each active voice
    /// pays a fixed cost per chunk, so longer chunks are faster: 1024 measured ~5% faster on
    /// songs than 256. A caller asking for fewer frames (live output) gets just those.
    static let chunkFrames = 1024
    let renderer: VoiceRenderer

    /// Creates a synthesizer for a bank. Resolves every preset's regions up front (the seed's
    /// "preload", done once) so playing never consults the zone tables. With `threads`, each
    /// render spreads the voices over them (``RenderThreadPool``); the output is the same.
    public convenience init(soundBank: SoundFont, sampleRate: Double = 44100,
                            configuration: SynthesizerConfiguration = SynthesizerConfiguration(),
                            threads: (any RenderThreadPool)? = nil) throws(SynthesizerError) {
        try self.init(soundBank: soundBank, sampleRate: sampleRate, configuration: configuration, presets: nil,
                      threads: threads)
    }

    /// Creates a synthesizer for a bank whose regions were resolved once for many synthesizers
    /// (unless `configuration` asks for another ``VelocityToFilterMode``, when it resolves its own).
    public convenience init(preparedBank: PreparedSoundBank, sampleRate: Double = 44100,
                            configuration: SynthesizerConfiguration = SynthesizerConfiguration(),
                            threads: (any RenderThreadPool)? = nil) throws(SynthesizerError) {
        try self.init(soundBank: preparedBank.soundBank, sampleRate: sampleRate, configuration: configuration,
                      presets: preparedBank.presets(for: configuration.velocityToFilter), threads: threads)
    }

    private init(soundBank: SoundFont, sampleRate: Double, configuration: SynthesizerConfiguration,
                 presets: PresetTable?, threads: (any RenderThreadPool)?) throws(SynthesizerError) {
        guard sampleRate >= 8000 && sampleRate <= 192_000 else {
            throw SynthesizerError.unsupportedSampleRate(sampleRate)
        }
        guard configuration.polyphony >= 1 && configuration.polyphony <= 65535 else {
            throw SynthesizerError.invalidConfiguration("polyphony must be 1…65535")
        }
        guard configuration.channelCount >= 1 && configuration.channelCount <= 256 else {
            throw SynthesizerError.invalidConfiguration("channel count must be 1…256")
        }
        guard configuration.tuningProgramCapacity >= 0 && configuration.tuningProgramCapacity <= 16384 else {
            throw SynthesizerError.invalidConfiguration("tuning program capacity must be 0…16384")
        }
        self.soundBank = soundBank
        self.sampleRate = sampleRate
        self.configuration = configuration
        self.bankSelectMode = configuration.bankSelectMode
        channels = (0..<configuration.channelCount).map {
            Channel(index: $0, isPercussion: configuration.percussionChannels.contains($0 % 16))
        }
        queue = EventQueue(capacity: configuration.eventQueueCapacity)
        self.presets = presets ?? PresetTable(soundBank: soundBank, velocityToFilter: configuration.velocityToFilter)
        voicePool = VoicePool(capacity: configuration.polyphony, stealing: configuration.voiceStealing,
                              sampleRate: sampleRate, presets: self.presets, samples: SampleTable(soundBank: soundBank),
                              channelCount: configuration.channelCount)
        context = RenderContext(outputRate: sampleRate,
                                outputGain: configuration.gain * SynthesizerConfiguration.fluidSynthLevelFactor,
                                velocityToFilter: configuration.velocityToFilter,
                                interpolation: configuration.interpolation, tables: InterpolationTables.shared,
                                cutoffTable: CutoffTable.make(sampleRate: sampleRate),
                                minimumNoteFrames: RenderContext.minimumNoteFrames(seconds: configuration.minimumNoteLength,
                                                                                   rate: sampleRate))
        context.fluidSynthBlockTiming = configuration.fluidSynthCompatible
        context.wholeCentPitch = configuration.fluidSynthCompatible
        tunings = TuningStore(programCapacity: configuration.tuningProgramCapacity,
                              channelCount: configuration.channelCount, defaultTuning: configuration.tuning)

        let n = Self.chunkFrames
        renderer = VoiceRenderer(chunkFrames: n, voices: configuration.polyphony, threads: threads)
        if configuration.channelLevelMetering {
            renderer.meter = ChannelLevelMeter(channelCount: configuration.channelCount, sampleRate: sampleRate)
        }
        let busCount = configuration.outputBusCount.map { max(1, min($0, 256)) }
            ?? (configuration.channelOutputs ? configuration.channelCount : 1)
        routesByBus = configuration.outputBusCount != nil
        mixer = Mixer(busCount: busCount, chunkFrames: n, sampleRate: sampleRate, configuration: configuration,
                      threads: threads)
        for ch in channels {
            ch.selectPreset(self.presets, bankSelectMode: bankSelectMode)
            ch.defaultTuning = tunings.defaultTable
        }
        // The modulator curve tables are lazily created globals: create them now, not on the
        // render thread at the first note.
        _ = Units.concave.count + Units.convex.count
    }

    deinit {
        context.cutoffTable.deallocate()
        replies.deallocate()
    }

    // MARK: - Events

    /// Starts a note. Velocity 0 is a note-off, as in MIDI.
    public func startNote(_ note: UInt8, withVelocity velocity: UInt8, onChannel channel: UInt8,
                          atFrame offset: Int = 0) {
        schedule(velocity == 0 ? .noteOff(channel: channel, key: note & 0x7F)
                               : .noteOn(channel: channel, key: note & 0x7F, velocity: velocity & 0x7F, bus: 0),
                 atFrame: offset)
    }

    public func stopNote(_ note: UInt8, onChannel channel: UInt8, atFrame offset: Int = 0) {
        schedule(.noteOff(channel: channel, key: note & 0x7F), atFrame: offset)
    }

    public func sendController(_ controller: UInt8, withValue value: UInt8, onChannel channel: UInt8,
                               atFrame offset: Int = 0) {
        schedule(.controlChange(channel: channel, controller: controller & 0x7F, value: value & 0x7F), atFrame: offset)
    }

    /// Pitch wheel, 0…16383 with 8192 the centre.
    public func sendPitchBend(_ value: UInt16, onChannel channel: UInt8, atFrame offset: Int = 0) {
        schedule(.pitchBend(channel: channel, value: min(value, 16383)), atFrame: offset)
    }

    /// Program change with an explicit bank (bank select then program change).
    public func sendProgramChange(_ program: UInt8, bankMSB: UInt8, bankLSB: UInt8,
                                  onChannel channel: UInt8, atFrame offset: Int = 0) {
        sendController(0, withValue: bankMSB, onChannel: channel, atFrame: offset)
        sendController(32, withValue: bankLSB, onChannel: channel, atFrame: offset)
        sendProgramChange(program, onChannel: channel, atFrame: offset)
    }

    public func sendProgramChange(_ program: UInt8, onChannel channel: UInt8, atFrame offset: Int = 0) {
        schedule(.programChange(channel: channel, program: program & 0x7F), atFrame: offset)
    }

    /// Channel pressure (aftertouch).
    public func sendPressure(_ pressure: UInt8, onChannel channel: UInt8, atFrame offset: Int = 0) {
        schedule(.channelPressure(channel: channel, pressure: pressure & 0x7F), atFrame: offset)
    }

    /// Polyphonic key pressure.
    public func sendPressure(forKey key: UInt8, withValue value: UInt8, onChannel channel: UInt8,
                             atFrame offset: Int = 0) {
        schedule(.keyPressure(channel: channel, key: key & 0x7F, pressure: value & 0x7F), atFrame: offset)
    }

    /// Sends a MIDI message. For more than 16 channels, `port` selects the group of 16 the
    /// message's channel is in. `outputBus` routes a note-on to that bus when
    /// ``SynthesizerConfiguration/outputBusCount`` is set (ignored otherwise). Meta events and
    /// system-exclusive continuation packets play no part in synthesis and are ignored.
    public func send(_ message: MIDIMessage, port: Int = 0, outputBus: Int = 0, atFrame offset: Int = 0) {
        @inline(__always) func channel(_ c: UInt8) -> UInt8 { UInt8(truncatingIfNeeded: Int(c & 0x0F) + 16 * port) }
        switch message {
        case .noteOff(let c, let key, _):
            schedule(.noteOff(channel: channel(c), key: key & 0x7F), atFrame: offset)
        case .noteOn(let c, let key, let velocity):
            let v = velocity & 0x7F
            schedule(v == 0 ? .noteOff(channel: channel(c), key: key & 0x7F)
                            : .noteOn(channel: channel(c), key: key & 0x7F, velocity: v,
                                      bus: UInt8(truncatingIfNeeded: max(0, min(outputBus, 255)))),
                     atFrame: offset)
        case .polyphonicKeyPressure(let c, let key, let pressure):
            schedule(.keyPressure(channel: channel(c), key: key & 0x7F, pressure: pressure & 0x7F), atFrame: offset)
        case .controlChange(let c, let controller, let value):
            schedule(.controlChange(channel: channel(c), controller: controller & 0x7F, value: value & 0x7F),
                     atFrame: offset)
        case .programChange(let c, let program):
            schedule(.programChange(channel: channel(c), program: program & 0x7F), atFrame: offset)
        case .channelPressure(let c, let pressure):
            schedule(.channelPressure(channel: channel(c), pressure: pressure & 0x7F), atFrame: offset)
        case .pitchBend(let c, let value):
            schedule(.pitchBend(channel: channel(c), value: value & 0x3FFF), atFrame: offset)
        case .systemExclusive(let body):
            body.withUnsafeBufferPointer { scheduleSysEx($0, atFrame: offset) }
        case .sysExContinuation, .meta:
            break
        }
    }

    /// A channel voice message as its bytes (status with the channel in its low nibble), read
    /// once into a `MIDIMessage` and sent (``send(_:port:outputBus:atFrame:)``).
    public func sendMIDIEvent(_ status: UInt8, data1: UInt8, data2: UInt8 = 0, port: Int = 0,
                              outputBus: Int = 0, atFrame offset: Int = 0) {
        guard let message = MIDIMessage(channelVoiceStatus: status, data1: data1, data2: data2) else { return }
        send(message, port: port, outputBus: outputBus, atFrame: offset)
    }

    /// A system-exclusive message, with or without the leading F0 / trailing F7.
    /// Understood: GM/GM2 on and off, master volume, GS reset and rhythm-part assignment,
    /// GS reverb and chorus macros and levels, XG system on (``SystemExclusive``), and every
    /// MIDI Tuning Standard message (``MIDITuningMessage``; dump requests are answered through
    /// ``takeSystemExclusiveReplies(_:)``).
    public func sendMIDISysExEvent(_ data: [UInt8], atFrame offset: Int = 0) {
        data.withUnsafeBufferPointer { sendMIDISysExEvent($0, atFrame: offset) }
    }

    /// A system-exclusive message read in place from the caller's memory (a device's or a
    /// queue's buffer), with or without the leading F0 / trailing F7. The bytes are copied
    /// into storage the synthesizer reserves up front (64 KiB a render call), so a real-time
    /// caller allocates nothing.
    public func sendMIDISysExEvent(_ data: UnsafeBufferPointer<UInt8>, atFrame offset: Int = 0) {
        scheduleSysEx(data.first == 0xF0 ? UnsafeBufferPointer(rebasing: data.dropFirst()) : data, atFrame: offset)
    }

    /// Bytes of SysEx bodies the synthesizer takes between two render calls without allocating.
    package static var sysExBytesPerRenderCall: Int { EventQueue.sysExPoolCapacity }

    private func scheduleSysEx(_ body: UnsafeBufferPointer<UInt8>, atFrame offset: Int) {
        // Copied straight from the caller's bytes into the preallocated pool, so a real-time
        // caller does not allocate while the pool has room.
        let (start, length) = queue.storeSysEx(body)
        schedule(.systemExclusive(start: start, length: length), atFrame: offset)
    }

    /// Lifts the sustain and sostenuto pedals on every channel where they are down (as CC64 and
    /// CC66 with value 0 there), so the notes they hold release — what FluidSynth's player does
    /// when a song ends. Channels whose pedals are up are left alone.
    public func liftPedals(atFrame offset: Int = 0) {
        schedule(.liftPedals, atFrame: offset)
    }

    /// Releases every note on every channel (as CC123 on all channels, pedals ignored).
    public func allNotesOff(atFrame offset: Int = 0) {
        schedule(.allNotesOff, atFrame: offset)
    }

    /// Silences every voice at once (as CC120 on all channels).
    public func allSoundOff(atFrame offset: Int = 0) {
        schedule(.allSoundOff, atFrame: offset)
    }

    /// Returns every channel to its power-on state and silences all voices.
    public func reset(atFrame offset: Int = 0) {
        schedule(.reset, atFrame: offset)
    }

    func schedule(_ kind: ScheduledEvent.Kind, atFrame offset: Int) {
        queue.push(ScheduledEvent(frame: framesRendered + Int64(max(0, offset)), kind: kind))
    }

    // MARK: - State

    /// Voices currently sounding (including releasing ones).
    public var activeVoiceCount: Int { voicePool.activeCount }

    /// True when nothing sounds and no event is waiting: rendering more would give silence
    /// (effect tails aside).
    public var isIdle: Bool { queue.isEmpty && activeVoiceCount == 0 }

    /// True when the effect units' tails have died away (always true with effects off).
    public var effectsAreSilent: Bool { mixer.effectsAreSilent }

    /// Reverb parameters; changes take effect at the next render without a click.
    public var reverbSettings: ReverbSettings {
        get { mixer.reverbSettings ?? configuration.reverb }
        set { mixer.reverbSettings = newValue }
    }

    /// Chorus parameters; changes take effect at the next render.
    public var chorusSettings: ChorusSettings {
        get { mixer.chorusSettings ?? configuration.chorus }
        set { mixer.chorusSettings = newValue }
    }

    /// Remembers where the reverb's and chorus's modulation is, on every bus, so that
    /// ``recallEffectModulation()`` can return there: a loop remembers at its start and recalls
    /// at every jump back, so each pass sweeps as the first did. Allocates nothing.
    public func rememberEffectModulation() {
        for b in mixer.buses { b.reverb?.rememberModulation(); b.chorus?.rememberModulation() }
    }

    /// Returns the reverb's and chorus's modulation to where ``rememberEffectModulation()``
    /// found it (before the next frame renders). Allocates nothing.
    public func recallEffectModulation() {
        for b in mixer.buses { b.reverb?.recallModulation(); b.chorus?.recallModulation() }
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

    /// Measures each channel's output level while rendering (see ``channelLevel(_:)``); off
    /// by default. Metering only reads the voices' signals: the rendered samples are the same
    /// bytes either way. Turning it on allocates the meter (one `Float` pair per channel), so
    /// set it outside the audio callback; turning it off frees it and forgets the levels.
    public var channelLevelMetering: Bool {
        get { renderer.meter != nil }
        set {
            guard newValue != channelLevelMetering else { return }
            renderer.meter = newValue ? ChannelLevelMeter(channelCount: channels.count, sampleRate: sampleRate) : nil
        }
    }

    /// A channel's output level in dBFS (0: a full-scale sample), or −∞ when it is silent or
    /// ``channelLevelMetering`` is off: the peak of its voices' signals after their filters,
    /// gain and pan, before effects and master volume, with a peak meter's ballistics — it
    /// rises to a rendered chunk's peak at once and falls by 20 dB a second, to −∞ below −120 dBFS. Reading it takes
    /// no lock; read it on the render thread or between renders.
    public func channelLevel(_ channel: Int) -> Float {
        renderer.meter?.level(ofChannel: channel) ?? -.infinity
    }

    // MARK: - Rendering

    /// Renders `frameCount` frames of stereo audio into two caller buffers (overwriting them).
    public func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                       frameCount: Int) {
        renderChunks(frameCount) { done, n in
            (left + done).copyFloats(from: mixer.left, count: n)
            (right + done).copyFloats(from: mixer.right, count: n)
        }
    }

    /// Renders the mix and, at the same time, each channel's own share of it (its dry signal
    /// plus its reverb and chorus) into `channels[c]`: the channel outputs add up to the mix.
    /// Requires ``SynthesizerConfiguration/channelOutputs`` (or ``SynthesizerConfiguration/outputBusCount``,
    /// one pair per bus); `channels` holds one buffer pair per output.
    public func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                       channels: [StereoBuffer], frameCount: Int) {
        precondition((configuration.channelOutputs || routesByBus) && channels.count >= mixer.busCount,
                     "separate outputs need channelOutputs or outputBusCount, and one buffer pair per bus")
        renderChunks(frameCount) { done, n in
            (left + done).copyFloats(from: mixer.left, count: n)
            (right + done).copyFloats(from: mixer.right, count: n)
            for (c, b) in mixer.buses.enumerated() {
                (channels[c].left + done).copyFloats(from: b.left, count: n)
                (channels[c].right + done).copyFloats(from: b.right, count: n)
            }
        }
    }

    /// Renders into one interleaved stereo buffer (L R L R …) of `frameCount` frames.
    public func render(interleaved: UnsafeMutablePointer<Float>, frameCount: Int) {
        renderChunks(frameCount) { done, n in
            let out = interleaved + 2 * done
            for i in 0..<n {
                out[2 * i] = mixer.left[i]
                out[2 * i + 1] = mixer.right[i]
            }
        }
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

    /// The render loop shared by every output form: chunks end at the next scheduled event so
    /// it lands on its frame; `deliver(offset, count)` copies each chunk out of the buses.
    @inline(__always)
    private func renderChunks(_ frameCount: Int, _ deliver: (Int, Int) -> Void) {
        DenormalMode.flushingToZero {
            var done = 0
            while done < frameCount {
                let t0 = renderer.profile?.clock() ?? 0
                dispatchDueEvents()
                if let profile = renderer.profile { profile.dispatchTime &+= profile.clock() &- t0 }
                var n = min(frameCount - done, Self.chunkFrames)
                if let next = queue.nextFrame {
                    n = min(n, Int(max(1, next - framesRendered)))
                }
                // A release held back by the minimum note length begins, and a delayed voice
                // starts, on its own frame.
                if voicePool.nextScheduledFrame != .max {
                    n = min(n, Int(max(1, voicePool.nextScheduledFrame - framesRendered)))
                }
                if let profile = renderer.profile {
                    let t1 = profile.clock()
                    renderChunk(n)
                    deliver(done, n)
                    profile.chunks += 1
                    profile.chunkFrames += n
                    profile.chunkTime &+= profile.clock() &- t1
                } else {
                    renderChunk(n)
                    deliver(done, n)
                }
                done += n
                framesRendered += Int64(n)
            }
            dispatchDueEvents()
        }
    }

    /// One chunk: every voice into its bus, then the mixer's effects, master volume and sum.
    private func renderChunk(_ n: Int) {
        mixer.begin(n)
        renderer.render(voices: voicePool.voices, voiceCount: voicePool.limit, count: n, context: context,
                        clock: framesRendered, into: mixer.targets, busCount: mixer.busCount)
        voicePool.trimLimit()
        if let profile = renderer.profile {
            let t0 = profile.clock()
            mixer.finish(n)
            profile.effectsTime &+= profile.clock() &- t0
        } else {
            mixer.finish(n)
        }
        if let meter = renderer.meter { meter.finishChunk(frames: n) }
    }

    // MARK: - Dispatch

    private func dispatchDueEvents() {
        voicePool.now = framesRendered
        while let f = queue.nextFrame, f <= framesRendered, let e = queue.pop() {
            dispatch(e.kind)
        }
        queue.compactIfDrained()
        // After the frame's events, as FluidSynth checks held-back releases after its block's events.
        if voicePool.nextScheduledFrame <= framesRendered { voicePool.beginDeferredReleases(context) }
    }

    private func dispatch(_ kind: ScheduledEvent.Kind) {
        func channel(_ c: UInt8) -> Channel? { Int(c) < channels.count ? channels[Int(c)] : nil }
        switch kind {
        case .noteOn(let c, let key, let velocity, let bus):
            guard let ch = channel(c) else { return }
            voicePool.noteOn(ch, key: Int(key), velocity: Int(velocity),
                             bus: min(routesByBus ? Int(bus) : ch.index, mixer.busCount - 1), context)
        case .noteOff(let c, let key):
            if let ch = channel(c) { voicePool.noteOff(ch, key: Int(key), context) }
        case .controlChange(let c, let controller, let value):
            guard let ch = channel(c) else { return }
            let command = ch.controlChange(Int(controller), value: value, bankSelectMode: bankSelectMode)
            if case .selectTuning(let bank, let program) = command {
                ch.tuning = tunings.programCreating(Int(program), bank: Int(bank))
            }
            voicePool.apply(command, on: ch, context)
            if !voicePool.playStates.isEmpty { voicePool.pedalMoved(ch, controller: Int(controller), context) }
            voicePool.channelChanged(ch, context)
        case .programChange(let c, let program):
            guard let ch = channel(c) else { return }
            // An SFZ preset's controller defaults move the channel's sounding voices too.
            if ch.programChange(program, presets: presets, bankSelectMode: bankSelectMode) {
                voicePool.channelChanged(ch, context)
            }
        case .pitchBend(let c, let value):
            guard let ch = channel(c) else { return }
            ch.pitchBend(value)
            voicePool.channelChanged(ch, context)
        case .channelPressure(let c, let pressure):
            guard let ch = channel(c) else { return }
            ch.pressure(pressure)
            voicePool.channelChanged(ch, context)
        case .keyPressure(let c, let key, let pressure):
            guard let ch = channel(c) else { return }
            ch.keyPressure(Int(key), pressure)
            voicePool.keyPressureChanged(ch, key: Int(key), context)
        case .systemExclusive(let start, let length):
            let pool = queue.sysExPool
            let s = Int(start), l = Int(length)
            guard s >= 0, l >= 0, s + l <= pool.count else { return }
            let handled = pool.withUnsafeBufferPointer { applyTuningMessage(UnsafeBufferPointer(rebasing: $0[s..<(s + l)])) }
            if handled { return }
            let message = pool.withUnsafeBufferPointer { SystemExclusive(UnsafeBufferPointer(rebasing: $0[s..<(s + l)])) }
            if let message { apply(message) }
        case .selectTuning(let c, let bank, let program):
            if let ch = channel(c) { selectTuning(on: ch, table: tunings.programCreating(Int(program), bank: Int(bank))) }
        case .equalTemperament(let c):
            if let ch = channel(c) { selectTuning(on: ch, table: tunings.equalTemperament) }
        case .allNotesOff:
            for ch in channels { voicePool.releaseAll(ch, respectingPedals: false, context) }
        case .liftPedals:
            for ch in channels {
                for pedal in stride(from: 64, through: 66, by: 2) where ch.controllers[pedal] >= 64 {
                    let command = ch.controlChange(pedal, value: 0, bankSelectMode: bankSelectMode)
                    voicePool.apply(command, on: ch, context)
                    voicePool.channelChanged(ch, context)
                }
            }
        case .allSoundOff:
            voicePool.killAll()
            renderer.router.pool.clear()
        case .reset:
            resetAll()
        }
    }

    private func apply(_ message: SystemExclusive) {
        switch message {
        case .generalMIDI(let subID):
            bankSelectMode = subID == 0x02 ? configuration.bankSelectMode : (subID == 0x03 ? .mma : .gm)
            resetAll()
        case .masterVolume(let volume):
            mixer.masterVolume = volume
        case .gsReset:
            bankSelectMode = .gs
            resetAll()
        case .gsReverbMacro(let type):
            reverbSettings = .gs(type: type)
        case .gsReverbLevel(let level):
            reverbSettings.level = level
        case .gsChorusMacro(let type):
            chorusSettings = .gs(type: type)
        case .gsChorusLevel(let level):
            chorusSettings.level = level
        case .gsRhythmPart(let c, let isDrums):
            if c < channels.count, channels[c].setPercussion(isDrums, presets: presets, bankSelectMode: bankSelectMode) {
                voicePool.channelChanged(channels[c], context)
            }
        case .xgSystemOn:
            bankSelectMode = .xg
            resetAll()
        }
    }

    private func resetAll() {
        voicePool.killAll()
        renderer.router.pool.clear()
        for ch in channels {
            ch.resetAll()
            ch.selectPreset(presets, bankSelectMode: bankSelectMode)
        }
        mixer.masterVolume = 1
    }
}
