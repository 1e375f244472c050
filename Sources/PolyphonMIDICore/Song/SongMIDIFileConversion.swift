extension Song {
    /// Reads a song from a Standard MIDI File, losing nothing a synthesizer or an editor needs.
    ///
    /// - Each note-on is paired with the next note-off (or note-on with velocity 0) of the same
    ///   track, channel and key, first in first out, as mido and DAWs pair overlapping notes; a
    ///   note still open at the end of its track ends there. A note-off with no open note is
    ///   dropped: it silences nothing.
    /// - Bank select (CC 0 and CC 32) immediately before a program change on the same channel
    ///   and tick becomes part of that ``SongEvent/Kind/programChange(channel:program:bankMSB:bankLSB:)``.
    /// - Tempo and time signature events of every track become the song's ``tempoChanges`` and
    ///   ``timeSignatureChanges`` (the tempo is global in formats 0 and 1; format-2 files are
    ///   read the same way). Every other meta event, sysex packet and unknown meta type stays in
    ///   its track at its position. A track's end-of-track event is kept as ``Track/endBeat``
    ///   when it is later than the track's last event.
    /// - With a PPQN division the song keeps the file's resolution, so every position is exact;
    ///   an SMPTE file is converted to quarter notes through its tempo map on a 480-tick grid.
    public init(midiFile file: MIDIFile) {
        let fileTicks = file.ticksPerQuarterNote
        self.init(ticksPerQuarterNote: fileTicks ?? 480)
        let map = TempoMap(division: file.division, tempoEvents: file.tracks.flatMap { track in
            track.events.compactMap { event -> (tick: Int, microsecondsPerQuarterNote: UInt32)? in
                if case .meta(.tempo(let microseconds)) = event.message { return (event.tick, microseconds) }
                return nil
            }
        })
        let beatOf: (Int) -> Double = { tick in
            if let fileTicks { return Double(tick) / Double(fileTicks) }
            return map.beats(atTick: tick)
        }
        var tempoEvents: [(tick: Int, order: Int, change: TempoChange)] = []
        var signatureEvents: [(tick: Int, order: Int, change: TimeSignatureChange)] = []
        var order = 0
        for fileTrack in file.tracks {
            let trackIndex = addTrack()
            var items: [(tick: Int, kind: SongEvent.Kind)] = []
            var openNotes: [Int: [Int]] = [:]   // channel << 7 | key → indices into items, oldest first
            var lastTick = 0
            var endTick: Int?
            for event in fileTrack.events {
                order += 1
                if !event.message.isEndOfTrack { lastTick = max(lastTick, event.tick) }
                let message = event.message
                if message.isNoteOff {
                    let (channel, key, velocity): (UInt8, UInt8, UInt8)
                    switch message {
                    case .noteOff(let c, let k, let v): (channel, key, velocity) = (c, k, v)
                    case .noteOn(let c, let k, _): (channel, key, velocity) = (c, k, 0)
                    default: continue
                    }
                    let slot = Int(channel & 0x0F) << 7 | Int(key & 0x7F)
                    guard var open = openNotes[slot], !open.isEmpty else { continue }
                    let index = open.removeFirst()
                    openNotes[slot] = open
                    if case .note(var note) = items[index].kind {
                        note.duration = beatOf(event.tick) - beatOf(items[index].tick)
                        note.releaseVelocity = velocity
                        items[index].kind = .note(note)
                    }
                    continue
                }
                switch message {
                case .noteOn(let channel, let key, let velocity):
                    let slot = Int(channel & 0x0F) << 7 | Int(key & 0x7F)
                    openNotes[slot, default: []].append(items.count)
                    // The duration is set when the note-off arrives (or at the end of the track).
                    items.append((event.tick, .note(SongNote(key: key, velocity: velocity, duration: -1, channel: channel))))
                case .programChange(let channel, let program):
                    var msb: UInt8?, lsb: UInt8?
                    // Fold a bank select written just before the program change into it.
                    while let last = items.last, last.tick == event.tick,
                          case .controlChange(let c, let controller, let value) = last.kind, c == channel,
                          (controller == 0 && msb == nil) || (controller == 32 && lsb == nil) {
                        if controller == 0 { msb = value } else { lsb = value }
                        items.removeLast()
                    }
                    items.append((event.tick, .programChange(channel: channel, program: program, bankMSB: msb, bankLSB: lsb)))
                case .controlChange(let channel, let controller, let value):
                    items.append((event.tick, .controlChange(channel: channel, controller: controller, value: value)))
                case .pitchBend(let channel, let value):
                    items.append((event.tick, .pitchBend(channel: channel, value: value)))
                case .channelPressure(let channel, let pressure):
                    items.append((event.tick, .channelPressure(channel: channel, pressure: pressure)))
                case .polyphonicKeyPressure(let channel, let key, let pressure):
                    items.append((event.tick, .polyphonicKeyPressure(channel: channel, key: key, pressure: pressure)))
                case .systemExclusive(let bytes):
                    items.append((event.tick, .systemExclusive(bytes)))
                case .sysExContinuation(let bytes):
                    items.append((event.tick, .sysExContinuation(bytes)))
                case .meta(.tempo(let microseconds)):
                    tempoEvents.append((event.tick, order, TempoChange(beat: beatOf(event.tick), microsecondsPerQuarterNote: microseconds)))
                case .meta(.timeSignature(let signature)):
                    signatureEvents.append((event.tick, order, TimeSignatureChange(beat: beatOf(event.tick), signature: signature)))
                case .meta(.endOfTrack):
                    endTick = event.tick
                case .meta(let meta):
                    items.append((event.tick, .meta(meta)))
                case .noteOff:
                    break  // handled above
                }
            }
            let trackEnd = endTick ?? lastTick
            for (tick, kind) in items {
                var kind = kind
                if case .note(var note) = kind, note.duration < 0 {
                    note.duration = max(0, beatOf(trackEnd) - beatOf(tick))
                    kind = .note(note)
                }
                add(kind, at: beatOf(tick), toTrack: trackIndex)
            }
            // An open note already lasts to the end of the track: no explicit end needed.
            let hasOpenNotes = openNotes.values.contains { !$0.isEmpty }
            if let endTick, endTick > lastTick, !hasOpenNotes { setEnd(ofTrack: trackIndex, to: beatOf(endTick)) }
        }
        // The last of several changes at one tick wins, as in TempoMap.
        tempoEvents.sort { ($0.tick, $0.order) < ($1.tick, $1.order) }
        for event in tempoEvents {
            let beat = quantized(event.change.beat)
            tempoChanges.removeAll { $0.beat == beat }
            tempoChanges.append(TempoChange(beat: beat, microsecondsPerQuarterNote: event.change.microsecondsPerQuarterNote))
        }
        signatureEvents.sort { ($0.tick, $0.order) < ($1.tick, $1.order) }
        for event in signatureEvents { setTimeSignature(event.change.signature, at: event.change.beat) }
    }

    /// The song as a Standard MIDI File.
    ///
    /// - Parameters:
    ///   - ticksPerQuarterNote: the file's resolution (default 480); positions are rounded to it.
    ///   - format: ``MIDIFileFormat/multipleTracks`` (default) writes one track chunk per song
    ///     track; ``MIDIFileFormat/singleTrack`` merges them.
    /// - Returns: a file whose first track also carries the tempo and time signature changes.
    ///   Each note becomes a note-on and a note-off (`0x80` with the release velocity). At one
    ///   tick, tempo and time signatures come first, then note-offs, then the other events in
    ///   song order, so FIFO pairing on reading gives back the same notes; the note-off of a
    ///   zero-length note follows its note-on.
    public func midiFile(ticksPerQuarterNote: Int = 480, format: MIDIFileFormat = .multipleTracks) -> MIDIFile {
        let ticks = min(max(ticksPerQuarterNote, 1), 32767)
        let tickOf: (Double) -> Int = { Int(($0 * Double(ticks)).rounded()) }
        var fileTracks: [MIDITrack] = []
        let songTracks = tracks.isEmpty ? [Track()] : tracks
        for (trackIndex, track) in songTracks.enumerated() {
            // (tick, priority, sequence): priorities order simultaneous events (see above).
            var keyed: [(tick: Int, priority: Int, sequence: Int, message: MIDIMessage)] = []
            var sequence = 0
            func append(_ tick: Int, _ priority: Int, _ message: MIDIMessage) {
                keyed.append((tick, priority, sequence, message))
                sequence += 1
            }
            if trackIndex == 0 {
                for change in tempoChanges {
                    append(tickOf(change.beat), 0, .meta(.tempo(microsecondsPerQuarterNote: change.microsecondsPerQuarterNote)))
                }
                for change in timeSignatureChanges {
                    append(tickOf(change.beat), 0, .meta(.timeSignature(change.signature)))
                }
            }
            for event in track.events {
                let tick = tickOf(event.beat)
                switch event.kind {
                case .note(let note):
                    append(tick, 2, .noteOn(channel: note.channel, note: note.key, velocity: max(note.velocity, 1)))
                    let end = tickOf(event.beat + note.duration)
                    append(end, end == tick ? 3 : 1, .noteOff(channel: note.channel, note: note.key, velocity: note.releaseVelocity))
                case .controlChange(let channel, let controller, let value):
                    append(tick, 2, .controlChange(channel: channel, controller: controller, value: value))
                case .programChange(let channel, let program, let msb, let lsb):
                    if let msb { append(tick, 2, .controlChange(channel: channel, controller: 0, value: msb)) }
                    if let lsb { append(tick, 2, .controlChange(channel: channel, controller: 32, value: lsb)) }
                    append(tick, 2, .programChange(channel: channel, program: program))
                case .pitchBend(let channel, let value):
                    append(tick, 2, .pitchBend(channel: channel, value: value))
                case .channelPressure(let channel, let pressure):
                    append(tick, 2, .channelPressure(channel: channel, pressure: pressure))
                case .polyphonicKeyPressure(let channel, let key, let pressure):
                    append(tick, 2, .polyphonicKeyPressure(channel: channel, note: key, pressure: pressure))
                case .systemExclusive(let bytes):
                    append(tick, 2, .systemExclusive(bytes))
                case .sysExContinuation(let bytes):
                    append(tick, 2, .sysExContinuation(bytes))
                case .meta(let meta):
                    append(tick, 2, .meta(meta))
                }
            }
            keyed.sort { ($0.tick, $0.priority, $0.sequence) < ($1.tick, $1.priority, $1.sequence) }
            var events = keyed.map { MIDIEvent(tick: $0.tick, message: $0.message) }
            let lastTick = events.last?.tick ?? 0
            events.append(MIDIEvent(tick: max(lastTick, track.endBeat.map(tickOf) ?? 0), message: .meta(.endOfTrack)))
            fileTracks.append(MIDITrack(events: events))
        }
        let file = MIDIFile(format: .multipleTracks, division: .ticksPerQuarterNote(UInt16(ticks)), tracks: fileTracks)
        return file.converted(to: format)
    }
}
