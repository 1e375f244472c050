extension MIDIFile {
    /// The file rewritten in another format, without losing or reordering events.
    ///
    /// - To format 0: every track merged into one, in time order; simultaneous events keep file
    ///   order (earlier track first, then order within the track). The end-of-track events are
    ///   replaced by one at the latest of them, so the song keeps its length.
    /// - Format 0 to format 1: split by channel. Track 0 is the conductor track with every meta
    ///   and sysex event; then one track per channel the file uses, in channel order, holding
    ///   that channel's messages in their original order. No events are added (no track names):
    ///   each track only gets its end of track, at the song's end tick.
    /// - Between formats 1 and 2 (and 0 to 2) the tracks are kept as they are, only the format
    ///   changes: both store one pattern per track.
    ///
    /// The result has no warnings: it is a new, clean file.
    public func converted(to newFormat: MIDIFileFormat) -> MIDIFile {
        if newFormat == format { return self }
        switch (format, newFormat) {
        case (_, .singleTrack):
            return MIDIFile(format: .singleTrack, division: division, tracks: [mergedTrack()])
        case (.singleTrack, .multipleTracks):
            return MIDIFile(format: .multipleTracks, division: division, tracks: tracksSplitByChannel())
        default:
            return MIDIFile(format: newFormat, division: division, tracks: tracks)
        }
    }

    /// All events of all tracks in one track, in time order, ending with one end of track.
    func mergedTrack() -> MIDITrack {
        let ordered = timedEvents()
        var events: [MIDIEvent] = []
        events.reserveCapacity(ordered.count)
        var endTick = 0
        for event in ordered {
            endTick = max(endTick, event.tick)
            if event.message.isEndOfTrack { continue }
            events.append(MIDIEvent(tick: event.tick, message: event.message))
        }
        events.append(MIDIEvent(tick: endTick, message: .meta(.endOfTrack)))
        return MIDITrack(events: events)
    }

    /// A conductor track with the meta and sysex events, then one track per used channel.
    func tracksSplitByChannel() -> [MIDITrack] {
        let merged = mergedTrack()
        let endTick = merged.endTick
        var conductor: [MIDIEvent] = []
        var byChannel = [[MIDIEvent]](repeating: [], count: 16)
        for event in merged.events where !event.message.isEndOfTrack {
            if let channel = event.message.channel {
                byChannel[Int(channel & 0x0F)].append(event)
            } else {
                conductor.append(event)
            }
        }
        let end = MIDIEvent(tick: endTick, message: .meta(.endOfTrack))
        var result = [MIDITrack(events: conductor + [end])]
        for events in byChannel where !events.isEmpty {
            result.append(MIDITrack(events: events + [end]))
        }
        return result
    }
}
