import PolyphonMIDI

/// An immutable, render-ready form of a ``Song``: every event with its frame, in the order the
/// render thread sends them, plus what the render thread must know about mute, solo and
/// callbacks.
///
/// The editing side builds a new timeline for every change and publishes it; the render side
/// picks it up at the start of its next block. Nothing here changes after creation, so the
/// render thread reads it without locks.
final class PlayerTimeline: @unchecked Sendable {
    /// An event and what to send for it.
    struct Event {
        /// The song frame (at rate 1, from the start of the song).
        var frame: Int64
        var track: Int
        var event: SongEvent
        var action: Action
    }

    /// What the synthesizer gets.
    enum Action {
        /// A note: note-on now, note-off at `endFrame` (the render side keeps the note-off, so
        /// an edit can never orphan a sounding note).
        case note(channel: UInt8, port: Int, key: UInt8, velocity: UInt8, releaseVelocity: UInt8, endFrame: Int64)
        /// A controller, pitch bend or pressure message.
        case message(MIDIMessage, port: Int)
        /// Bank select MSB and LSB (when given), then program change.
        case program(channel: UInt8, program: UInt8, bankMSB: UInt8?, bankLSB: UInt8?, port: Int)
        case sysEx([UInt8])
        /// Nothing for the synthesizer (meta events: callbacks only).
        case none
    }

    /// A point of the metric grid.
    struct GridPoint {
        var frame: Int64
        var beat: PlayerBeat
    }

    /// Which callbacks the render thread produces.
    struct CallbackFlags {
        var eventCategories: Set<SongEvent.Category>? = nil
        var eventTracks: Set<Int>? = nil
        var events = false
        var beats = false
        var bars = false
        var markers = false
        var lyrics = false
    }

    let song: Song
    let sampleRate: Double
    let tempoMap: TempoMap
    let events: [Event]
    /// The frame after which the song is over and only its tail remains.
    let endFrame: Int64
    /// The frame of the song's last event (``endFrame`` is one later when that frame carries
    /// something for the synthesizer).
    let lastEventFrame: Int64
    /// The song's length in seconds at rate 1.
    let duration: Double
    let grid: [GridPoint]
    /// Per track: whether its notes sound (mute and solo resolved).
    let audible: [Bool]
    /// Per category raw value and per track: whether played events of it produce callbacks.
    let eventCallbackCategories: [Bool]
    let eventCallbackTracks: [Bool]
    let flags: CallbackFlags
    /// Publication number, increasing; set by the player.
    var generation = 0

    init(song: Song, sampleRate: Double, channelPorts: Int, muted: Set<Int>, soloed: Set<Int>, flags: CallbackFlags) {
        self.song = song
        self.sampleRate = sampleRate
        self.flags = flags
        let map = song.tempoMap
        tempoMap = map
        let ticks = Double(song.ticksPerQuarterNote)
        let tickOf: (Double) -> Int = { Int(($0 * ticks).rounded()) }
        let frameOf: (Int) -> Int64 = { Int64((map.seconds(atTick: $0) * sampleRate).rounded()) }

        var keyed: [(frame: Int64, track: Int, index: Int, event: Event)] = []
        var lastTick = 0
        var lastSynthFrame: Int64 = -1
        for change in song.tempoChanges { lastTick = max(lastTick, tickOf(change.beat)) }
        for change in song.timeSignatureChanges { lastTick = max(lastTick, tickOf(change.beat)) }
        for (trackIndex, track) in song.tracks.enumerated() {
            var port = 0
            if let end = track.endBeat { lastTick = max(lastTick, tickOf(end)) }
            for (index, event) in track.events.enumerated() {
                let tick = tickOf(event.beat)
                lastTick = max(lastTick, tick)
                let frame = frameOf(tick)
                let action: Action
                switch event.kind {
                case .note(let note):
                    let endTick = tickOf(event.beat + note.duration)
                    lastTick = max(lastTick, endTick)
                    let endFrame = frameOf(endTick)
                    lastSynthFrame = max(lastSynthFrame, endFrame)
                    action = .note(channel: note.channel & 0x0F, port: port, key: note.key & 0x7F,
                                   velocity: max(1, note.velocity & 0x7F), releaseVelocity: note.releaseVelocity & 0x7F,
                                   endFrame: endFrame)
                case .controlChange(let channel, let controller, let value):
                    action = .message(.controlChange(channel: channel & 0x0F, controller: controller, value: value), port: port)
                case .programChange(let channel, let program, let msb, let lsb):
                    action = .program(channel: channel & 0x0F, program: program, bankMSB: msb, bankLSB: lsb, port: port)
                case .pitchBend(let channel, let value):
                    action = .message(.pitchBend(channel: channel & 0x0F, value: value & 0x3FFF), port: port)
                case .channelPressure(let channel, let pressure):
                    action = .message(.channelPressure(channel: channel & 0x0F, pressure: pressure), port: port)
                case .polyphonicKeyPressure(let channel, let key, let pressure):
                    action = .message(.polyphonicKeyPressure(channel: channel & 0x0F, note: key, pressure: pressure), port: port)
                case .systemExclusive(let bytes):
                    action = .sysEx(bytes)  // without F0: the synthesizer accepts both, and this form it takes without copying
                case .sysExContinuation:
                    action = .none  // escapes and split packets carry no complete message for the synth
                case .meta(.port(let newPort)):
                    // Ports route the track's channels to another group of 16, as in MIDISchedule;
                    // ports the synthesizer lacks fall back to the last one it has.
                    port = min(Int(newPort), max(0, channelPorts - 1))
                    action = .none
                case .meta:
                    action = .none
                }
                if case .none = action {} else { lastSynthFrame = max(lastSynthFrame, frame) }
                keyed.append((frame, trackIndex, index, Event(frame: frame, track: trackIndex, event: event, action: action)))
            }
        }
        keyed.sort { ($0.frame, $0.track, $0.index) < ($1.frame, $1.track, $1.index) }
        events = keyed.map(\.event)
        let lastFrame = frameOf(lastTick)
        // As the offline renderer does: when the last frame carries something for the
        // synthesizer, that frame is rendered before the tail begins.
        endFrame = lastSynthFrame == lastFrame ? lastFrame + 1 : lastFrame
        lastEventFrame = lastFrame
        duration = map.seconds(atTick: lastTick)

        let anySolo = !soloed.isEmpty
        audible = song.tracks.indices.map { !muted.contains($0) && (!anySolo || soloed.contains($0)) }
        eventCallbackCategories = SongEvent.Category.allCases.map { flags.eventCategories?.contains($0) ?? true }
        eventCallbackTracks = song.tracks.indices.map { flags.eventTracks?.contains($0) ?? true }

        // The metric grid, up to the end of the song: beats of the time signature's unit.
        var grid: [GridPoint] = []
        if flags.beats || flags.bars {
            let lengthBeats = map.beats(atTick: lastTick)
            var position = 0.0
            var bar = 0
            let changes = song.timeSignatureChanges
            while position < lengthBeats || (position == 0 && lengthBeats == 0) {
                let signature = song.timeSignature(atBeat: position)
                let unit = signature.denominator > 0 ? 4 / Double(signature.denominator) : 1
                let beatsPerBar = max(1, Int(signature.numerator))
                for beatInBar in 0..<beatsPerBar {
                    let at = position + Double(beatInBar) * unit
                    if at >= lengthBeats && !(at == 0) { break }
                    // A signature change in the middle of a bar starts a new bar there.
                    if beatInBar > 0, changes.contains(where: { $0.beat > position && $0.beat <= at }) { break }
                    grid.append(GridPoint(frame: Int64((map.seconds(atBeats: at) * sampleRate).rounded()),
                                          beat: PlayerBeat(bar: bar, beatInBar: beatInBar, position: at)))
                }
                let nextBar = position + Double(beatsPerBar) * unit
                let interrupting = changes.first { $0.beat > position && $0.beat < nextBar }?.beat
                position = interrupting ?? nextBar
                bar += 1
                if lengthBeats == 0 { break }
            }
        }
        self.grid = grid
    }

    /// The same events with other mute, solo or callback settings; the event list is shared.
    init(copying other: PlayerTimeline, muted: Set<Int>, soloed: Set<Int>, flags: CallbackFlags) {
        song = other.song
        sampleRate = other.sampleRate
        tempoMap = other.tempoMap
        events = other.events
        endFrame = other.endFrame
        lastEventFrame = other.lastEventFrame
        duration = other.duration
        self.flags = flags
        if flags.beats || flags.bars, other.grid.isEmpty, !(other.flags.beats || other.flags.bars) {
            grid = PlayerTimeline(song: song, sampleRate: sampleRate, channelPorts: 1, muted: [], soloed: [], flags: flags).grid
        } else {
            grid = other.grid
        }
        let anySolo = !soloed.isEmpty
        audible = song.tracks.indices.map { !muted.contains($0) && (!anySolo || soloed.contains($0)) }
        eventCallbackCategories = SongEvent.Category.allCases.map { flags.eventCategories?.contains($0) ?? true }
        eventCallbackTracks = song.tracks.indices.map { flags.eventTracks?.contains($0) ?? true }
    }

    /// The first event at or after a song frame (binary search; allocation-free).
    func firstEvent(atOrAfter frame: Double) -> Int {
        var low = 0, high = events.count
        while low < high {
            let middle = (low + high) / 2
            if Double(events[middle].frame) < frame { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The first grid point at or after a song frame.
    func firstGridPoint(atOrAfter frame: Double) -> Int {
        var low = 0, high = grid.count
        while low < high {
            let middle = (low + high) / 2
            if Double(grid[middle].frame) < frame { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The song frame (fractional) at a position in quarter notes.
    func frame(atBeat beat: Double) -> Double {
        tempoMap.seconds(atBeats: beat) * sampleRate
    }

    /// The position in quarter notes at a song frame.
    func beat(atFrame frame: Double) -> Double {
        tempoMap.beats(atSeconds: frame / sampleRate)
    }

    /// The messages that bring a freshly reset synthesizer to the state the song has put it in
    /// just before `frame` ("chase"): every sysex in order, then per channel the last bank and
    /// program, the last value of each controller, pitch bend and pressures, in the order of
    /// their last occurrence (so an RPN selection still comes before its data entry).
    func chase(before frame: Int64) -> [ChaseMessage] {
        var sysEx: [ChaseMessage] = []
        var latest: [Int: (order: Int, messages: [ChaseMessage])] = [:]
        var order = 0
        for event in events where event.frame < frame {
            order += 1
            switch event.action {
            case .message(let message, let port):
                // Controllers are chased one by one; polyphonic pressure per key.
                let kind: Int, detail: Int
                switch message {
                case .controlChange(_, let controller, _):
                    // Channel mode messages act once; replaying them would change nothing or cut notes.
                    if controller >= 120 { continue }
                    kind = 0xB0; detail = Int(controller)
                case .polyphonicKeyPressure(_, let key, _): kind = 0xA0; detail = Int(key)
                case .channelPressure: kind = 0xD0; detail = 0
                case .pitchBend: kind = 0xE0; detail = 0
                default: continue
                }
                let channel = port * 16 + Int(message.channel ?? 0)
                latest[channel << 16 | kind << 8 | detail] = (order, [ChaseMessage(message: message, port: port)])
            case .program(let c, let program, let msb, let lsb, let port):
                let channel = port * 16 + Int(c)
                var messages: [ChaseMessage] = []
                if let msb { messages.append(ChaseMessage(message: .controlChange(channel: c, controller: 0, value: msb), port: port)) }
                if let lsb { messages.append(ChaseMessage(message: .controlChange(channel: c, controller: 32, value: lsb), port: port)) }
                messages.append(ChaseMessage(message: .programChange(channel: c, program: program), port: port))
                latest[channel << 16 | 0xC0 << 8] = (order, messages)
            case .sysEx(let bytes):
                sysEx.append(ChaseMessage(message: .systemExclusive(bytes), port: 0))
            case .note, .none:
                break
            }
        }
        return sysEx + latest.values.sorted { $0.order < $1.order }.flatMap(\.messages)
    }
}

/// One message a seek sends to restore the song's state.
struct ChaseMessage {
    var message: MIDIMessage
    var port: Int
}

/// What the render thread does on a seek: where to go and what to send first. Built on the
/// control thread (it allocates); the player keeps it alive until the render thread has used it.
final class SeekPlan: @unchecked Sendable {
    /// The song frame to continue from.
    let frame: Double
    let chase: [ChaseMessage]
    /// The command serial of the command carrying it.
    var serial = 0

    init(frame: Double, chase: [ChaseMessage]) {
        self.frame = frame
        self.chase = chase
    }
}
