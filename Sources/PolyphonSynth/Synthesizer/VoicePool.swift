import PolyphonSoundFontCore

/// The synthesizer's voices, allocated once: a note-on starts one for each region of the
/// channel's preset that holds the key and velocity, in a free slot or one stolen; and every
/// voice playing on a channel does what the channel asks of it.
///
/// Free slots are taken lowest first, so scans stop at ``limit`` instead of walking the whole
/// pool (polyphony is 256 by default; a song rarely keeps more than a few dozen voices).
final class VoicePool {
    let capacity: Int
    /// The voices, preallocated; index form avoids reference counting per voice.
    let voices: UnsafeMutablePointer<Voice>
    /// One past the highest slot that may be active.
    private(set) var limit = 0
    private var nextSerial: UInt64 = 0
    private let stealing: VoiceStealing
    let sampleRate: Double
    /// The presets' regions, and the samples they play.
    let presets: PresetTable
    var samples: SampleTable
    /// Per channel, what presets with play conditions remember (empty when no preset has any).
    let playStates: [PlayState]
    /// The random number generator's state: seeded, so renders repeat exactly.
    var randomState: UInt64 = 0x9E37_79B9_7F4A_7C15
    /// Notes begun (key presses, key releases, pedal lifts starting release regions): with the
    /// key, the number a voice's random shaping draws from (``ShapedAmplitude``), so a render
    /// repeats exactly.
    var notesBegun: UInt64 = 0
    /// The frame being dispatched (set by the synthesizer before each frame's events).
    var now: Int64 = 0
    /// The earliest frame a release held back by the minimum note length begins, or a voice
    /// waiting for its SFZ `delay` starts sounding (`.max`: none): a chunk ends there.
    var nextScheduledFrame: Int64 = .max

    init(capacity: Int, stealing: VoiceStealing, sampleRate: Double, presets: PresetTable, samples: SampleTable,
         channelCount: Int = 16) {
        self.capacity = capacity
        playStates = presets.playRules.contains { $0 != nil }
            ? (0..<channelCount).map { _ in PlayState(counterCount: presets.counterCount) } : []
        self.stealing = stealing
        self.sampleRate = sampleRate
        self.presets = presets
        self.samples = samples
        voices = .allocate(filledWith: Voice(), count: capacity)
    }

    deinit {
        voices.deinitialize(count: capacity)
        voices.deallocate()
    }

    /// Voices sounding (including releasing ones).
    var activeCount: Int {
        var n = 0
        for i in 0..<limit where voices[i].isActive { n += 1 }
        return n
    }

    /// Calls `body` for every active voice.
    @inline(__always)
    func forEachActive(_ body: (inout Voice) -> Void) {
        for i in 0..<limit where voices[i].isActive { body(&voices[i]) }
    }

    /// Calls `body` for every active voice on channel `channel`.
    @inline(__always)
    func forEachActive(onChannel channel: Int, _ body: (inout Voice) -> Void) {
        for i in 0..<limit where voices[i].isActive && voices[i].note.channel == channel { body(&voices[i]) }
    }

    /// After a render: the highest active slot bounds the next scans.
    func trimLimit() {
        while limit > 0 && !voices[limit - 1].isActive { limit -= 1 }
    }

    /// A note-on at frame ``now``: the re-struck key and (in mono mode) the channel's other
    /// notes get a note-off (pedals respected), then every region of the channel's preset that
    /// holds the key (``Channel/regionKey(forKey:)`` under a tuning) and velocity starts a voice
    /// mixing into output `bus`.
    func noteOn(_ ch: Channel, key: Int, velocity: Int, bus: Int, _ context: RenderContext) {
        guard let p = ch.presetIndex else { return }
        notesBegun &+= 1
        if let rules = presets.playRules[p] {
            conditionalNoteOn(ch, preset: p, rules: rules, key: key, velocity: velocity, bus: bus, context)
            return
        }
        let glideFrom = prepareNoteOn(ch, key: key, context)
        let serialBase = nextSerial
        let portamento = (fromKey: glideFrom, time: ch.portamentoTime)
        let regionKey = UInt8(ch.regionKey(forKey: key))
        // The ranges are tested where the regions lie: a region (its generators and modulators,
        // some 500 bytes) is large, and a preset's regions are mostly not struck.
        presets.regions[p].withUnsafeBufferPointer { regions in
            for i in regions.indices where regions[i].contains(key: regionKey, velocity: UInt8(velocity)) {
                guard let sample = samples.playable(regions[i].sampleIndex) else { continue }
                // Exclusive class: cut other voices of the same class on this channel.
                let exclusiveClass = Int(regions[i].generators[.exclusiveClass])
                if exclusiveClass != 0 {
                    cutExclusiveClass(exclusiveClass, on: ch.index, before: serialBase, context)
                }
                _ = start(region: regions[i], sample: sample, loopPeak: samples.loopPeak(regions[i].sampleIndex),
                          channel: ch, key: key, velocity: velocity, portamento: portamento, bus: bus, context: context)
            }
        }
    }

    /// The releases and glide a note-on begins with: a new note on a key that is still sounding
    /// releases the old one (FluidSynth; not for SFZ instruments, `releasingStruckKey` false,
    /// where sfizz lets them ring and `note_polyphony` limits them), and in mono mode the new
    /// note replaces whatever the channel was playing. Returns the key to glide from (−1: none).
    func prepareNoteOn(_ ch: Channel, key: Int, releasingStruckKey: Bool = true, _ context: RenderContext) -> Int {
        if releasingStruckKey { releaseForNewNote(on: ch, key: key, context) }
        var glideFrom = ch.takePortamentoSource()
        if ch.isMono {
            releaseForNewNote(on: ch, key: nil, context)
            if glideFrom < 0 && ch.legato { glideFrom = ch.lastKey }
        }
        ch.lastKey = key
        return glideFrom
    }

    /// Starts a voice for `region` in a free slot, or one stolen (``takeSlot(now:)``). Returns
    /// the slot, nil when none could be had.
    @discardableResult
    func start(region: Region, sample: SampleInfo, loopPeak: Float, channel: Channel, key: Int, velocity: Int,
               portamento: (fromKey: Int, time: Float), bus: Int, context: RenderContext) -> Int? {
        guard let slot = takeSlot(now: now) else { return nil }
        nextSerial += 1
        limit = max(limit, slot + 1)
        voices[slot].start(region: region, sample: sample, loopPeak: loopPeak, channel: channel, key: key,
                           velocity: velocity, frame: now, serial: nextSerial, portamento: portamento,
                           noteSeed: noteSeed(key: key), context: context)
        voices[slot].note.bus = bus
        return slot
    }

    /// The number of the note begun now on `key`, seeding its random draws (``NoteDraw``).
    @inline(__always)
    func noteSeed(key: Int) -> UInt64 { notesBegun << 7 | UInt64(key & 127) }

    /// A free slot, or the least important voice stolen: released voices first, then the
    /// quietest and oldest — never one started at this very frame.
    private func takeSlot(now: Int64) -> Int? {
        for i in 0..<capacity where !voices[i].isActive { return i }
        var best: Int?
        var bestScore = Float.infinity
        for i in 0..<capacity {
            if voices[i].note.startFrame == now { continue }
            var score: Float = 0
            if stealing == .oldest {
                // Lower serial = older: steal the smallest.
                score = Float(voices[i].note.serial)
                if score < bestScore { bestScore = score; best = i }
                continue
            }
            if voices[i].isReleased { score -= 2000 } else if voices[i].note.isSustained { score -= 1000 }
            // Quieter voices lose: gain in dB (≤ 0) adds directly.
            score += 20 * Math.log10(max(voices[i].currentGain, 1e-9))
            // Older voices lose ties: a second of age counts as 10 dB.
            score -= Float(now - voices[i].note.startFrame) / Float(sampleRate) * 10
            if score < bestScore {
                bestScore = score
                best = i
            }
        }
        if let best { voices[best].kill() }
        return best
    }

    // MARK: - What channels ask of their voices

    /// Releases `v` now, or at the frame it has played the minimum note length.
    @inline(__always)
    func release(_ v: inout Voice, _ context: RenderContext) {
        v.release(now: now, context)
        if v.note.deferredReleaseFrame != 0 { nextScheduledFrame = min(nextScheduledFrame, v.note.deferredReleaseFrame) }
    }

    /// The key went up on `v`.
    @inline(__always)
    private func noteOff(_ v: inout Voice, _ channel: Channel, _ context: RenderContext) {
        v.noteOff(channel, now: now, context)
        if v.note.deferredReleaseFrame != 0 { nextScheduledFrame = min(nextScheduledFrame, v.note.deferredReleaseFrame) }
    }

    /// Begins the releases held back until now, and finds the next frame the pool acts on
    /// (``nextScheduledFrame``). The pedals are not asked again: the note-off was decided when
    /// it came (FluidSynth 2.6 releases the held-back voice unconditionally).
    func beginDeferredReleases(_ context: RenderContext) {
        var next = Int64.max
        forEachActive { v in
            if v.note.startFrame > now { next = min(next, v.note.startFrame) }
            let due = v.note.deferredReleaseFrame
            guard due != 0 else { return }
            guard due <= now else { next = min(next, due); return }
            v.release(context)
        }
        nextScheduledFrame = next
    }

    /// A key struck again, or a new note in mono mode: voices of `key` (every key when nil) on
    /// the channel get a note-off — except those started at this very frame. As in FluidSynth
    /// since 2.2.2 the pedals are respected: a voice the sustain pedal holds keeps sounding until
    /// the pedal lifts, one whose key is still down becomes sustained while the pedal is down.
    private func releaseForNewNote(on channel: Channel, key: Int?, _ context: RenderContext) {
        forEachActive(onChannel: channel.index) { v in
            guard (key == nil || v.note.key == key) && v.note.startFrame != now && !v.note.ignoresNoteOff else { return }
            if v.note.isKeyReleased {
                // Already up: released (or releasing), or held by a pedal that keeps holding it.
                if !v.note.isSustained && !v.note.isSostenutoHeld { release(&v, context) }
            } else {
                noteOff(&v, channel, context)
            }
        }
    }

    /// Exclusive class `exclusiveClass` on the channel: voices of that class started before
    /// serial `serialBase` release very fast.
    private func cutExclusiveClass(_ exclusiveClass: Int, on channel: Int, before serialBase: UInt64, _ context: RenderContext) {
        forEachActive(onChannel: channel) { v in
            if v.note.exclusiveClass == exclusiveClass && v.note.serial <= serialBase { v.quickRelease(context) }
        }
    }

    /// The key went up; regions of the channel's preset that a key coming up triggers start.
    func noteOff(_ channel: Channel, key: Int, _ context: RenderContext) {
        forEachActive(onChannel: channel.index) { v in
            if v.note.key == key { noteOff(&v, channel, context) }
        }
        if let p = channel.presetIndex, let rules = presets.playRules[p] {
            conditionalNoteOff(channel, preset: p, rules: rules, key: key, context)
        }
    }

    /// Every key on the channel goes up (pedals respected), or every voice releases.
    func releaseAll(_ channel: Channel, respectingPedals: Bool, _ context: RenderContext) {
        forEachActive(onChannel: channel.index) { v in
            if respectingPedals { noteOff(&v, channel, context) } else { release(&v, context) }
        }
    }

    /// Carries out what a controller asks of the channel's voices.
    func apply(_ command: Channel.VoiceCommand, on channel: Channel, _ context: RenderContext) {
        switch command {
        case .none:
            break
        case .releaseSustained:
            forEachActive(onChannel: channel.index) { v in
                guard v.note.isSustained else { return }
                // An SFZ zone's own pedal may still hold (a lower `sustain_lo`, another controller).
                let pedal = v.note.sustainPedal
                if pedal.holds(channel.controllers[Int(pedal.controller)]) { return }
                v.note.isSustained = false
                if !v.note.isSostenutoHeld { release(&v, context) }
            }
            if !playStates.isEmpty && playStates[channel.index].pendingCount > 0 {
                startPendingReleases(channel, controller: 64, context)
            }
        case .holdWithSostenuto:
            forEachActive(onChannel: channel.index) { v in
                if !v.note.isKeyReleased { v.note.isSostenutoHeld = true }
            }
        case .releaseSostenuto:
            forEachActive(onChannel: channel.index) { v in
                guard v.note.isSostenutoHeld else { return }
                v.note.isSostenutoHeld = false
                if v.note.isKeyReleased && !channel.sustain { release(&v, context) }
                else if v.note.isKeyReleased { v.note.isSustained = true }
            }
        case .soundOff:
            forEachActive(onChannel: channel.index) { v in v.kill() }
            if !playStates.isEmpty { playStates[channel.index].forgetKeys() }
        case .releasePedalHeld:
            forEachActive(onChannel: channel.index) { v in
                if v.note.isSustained || v.note.isSostenutoHeld { release(&v, context) }
            }
        case .notesOff:
            releaseAll(channel, respectingPedals: true, context)
            if !playStates.isEmpty { playStates[channel.index].forgetKeys() }
        case .selectTuning:
            retune(channel, context)
        }
    }

    /// The channel's tuning changed in real time: its voices take their keys' new pitches.
    func retune(_ channel: Channel, _ context: RenderContext) {
        forEachActive(onChannel: channel.index) { v in v.retune(channel, context) }
    }

    /// The channel's controllers, bend, pressure or NRPNs changed: its voices re-read them.
    func channelChanged(_ channel: Channel, _ context: RenderContext) {
        forEachActive(onChannel: channel.index) { v in v.channelChanged(channel, context) }
    }

    /// A key's pressure changed: that key's voices on the channel re-read it.
    func keyPressureChanged(_ channel: Channel, key: Int, _ context: RenderContext) {
        forEachActive(onChannel: channel.index) { v in
            if v.note.key == key { v.channelChanged(channel, context) }
        }
    }

    /// Silences every voice at once.
    func killAll() {
        forEachActive { v in v.kill() }
    }
}
