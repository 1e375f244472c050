import PolyphonMIDI

extension Timeline {
    /// A song's timeline: every event of every track on its frame (positions rounded to the
    /// song's ticks, as its Standard MIDI File form has them), meta events included for
    /// callbacks. A note is a note-on that carries its note-off frame; a program change with a
    /// bank is bank select MSB and LSB, then the program.
    ///
    /// - Parameters:
    ///   - song: the song.
    ///   - sampleRate: output frames per second.
    ///   - channelPorts: the groups of 16 channels the synthesizer has; a port past them falls
    ///     back to the last one.
    ///   - loop: a loop to place on the frames (`Song.findLoop()` finds the one the song marks).
    public init(song: Song, sampleRate: Double, channelPorts: Int = 16, loop: MIDILoop? = nil) {
        let map = song.tempoMap
        let ticks = Double(song.ticksPerQuarterNote)
        let tickOf: (Double) -> Int = { Int(($0 * ticks).rounded()) }
        let frameOf: (Int) -> Int64 = { Timeline.frame(seconds: map.seconds(atTick: $0), leadIn: 0, sampleRate: sampleRate) }

        var keyed: [(frame: Int64, track: Int, order: Int, event: Event)] = []
        var songEvents: [SongEvent] = []
        var lastTick = 0
        var highestPort = 0
        for change in song.tempoChanges { lastTick = max(lastTick, tickOf(change.beat)) }
        for change in song.timeSignatureChanges { lastTick = max(lastTick, tickOf(change.beat)) }
        for (trackIndex, track) in song.tracks.enumerated() {
            var port = 0
            if let end = track.endBeat { lastTick = max(lastTick, tickOf(end)) }
            for event in track.events {
                let tick = tickOf(event.beat)
                lastTick = max(lastTick, tick)
                let frame = frameOf(tick)
                let source = Int32(truncatingIfNeeded: songEvents.count)
                songEvents.append(event)
                func add(_ message: MIDIMessage, noteEnd: NoteEnd? = nil, isSource: Bool = true) {
                    var e = Event(frame: frame, track: trackIndex, port: port, message: message)
                    e.noteEnd = noteEnd
                    e.source = isSource ? source : -1
                    keyed.append((frame, trackIndex, keyed.count, e))
                }
                switch event.kind {
                case .note(let note):
                    let endTick = tickOf(event.beat + note.duration)
                    lastTick = max(lastTick, endTick)
                    add(.noteOn(channel: note.channel & 0x0F, note: note.key & 0x7F, velocity: max(1, note.velocity & 0x7F)),
                        noteEnd: NoteEnd(frame: frameOf(endTick), releaseVelocity: note.releaseVelocity & 0x7F))
                case .controlChange(let channel, let controller, let value):
                    add(.controlChange(channel: channel & 0x0F, controller: controller, value: value))
                case .programChange(let channel, let program, let msb, let lsb):
                    let c = channel & 0x0F
                    if let msb { add(.controlChange(channel: c, controller: 0, value: msb), isSource: false) }
                    if let lsb { add(.controlChange(channel: c, controller: 32, value: lsb), isSource: false) }
                    add(.programChange(channel: c, program: program))
                case .pitchBend(let channel, let value):
                    add(.pitchBend(channel: channel & 0x0F, value: value & 0x3FFF))
                case .channelPressure(let channel, let pressure):
                    add(.channelPressure(channel: channel & 0x0F, pressure: pressure))
                case .polyphonicKeyPressure(let channel, let key, let pressure):
                    add(.polyphonicKeyPressure(channel: channel & 0x0F, note: key, pressure: pressure))
                case .systemExclusive(let bytes):
                    // A song's SysEx may be written with or without its F0; the timeline holds the body.
                    add(.systemExclusive(bytes.first == 0xF0 ? Array(bytes.dropFirst()) : bytes))
                case .sysExContinuation(let bytes):
                    add(.sysExContinuation(bytes))  // escapes and split packets: callbacks only
                case .meta(let meta):
                    if case .port(let newPort) = meta {
                        // Ports route the track's channels to another group of 16; ports the
                        // synthesizer lacks fall back to the last one it has.
                        port = min(Int(newPort), max(0, channelPorts - 1))
                        highestPort = max(highestPort, port)
                    }
                    add(.meta(meta))
                }
            }
        }
        keyed.sort { ($0.frame, $0.track, $0.order) < ($1.frame, $1.track, $1.order) }
        self.init(events: keyed.map(\.event), songEvents: songEvents, lastEventFrame: frameOf(lastTick),
                  duration: map.seconds(atTick: lastTick), portCount: highestPort + 1, sampleRate: sampleRate,
                  tempoMap: map, loop: loop)
    }
}
