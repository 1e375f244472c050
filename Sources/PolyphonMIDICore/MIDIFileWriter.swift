extension MIDIFile {
    /// The file as Standard MIDI File bytes.
    ///
    /// - Parameters:
    ///   - format: the format to write; `nil` keeps ``format``. A different format converts the
    ///     tracks first with ``converted(to:)``.
    ///   - runningStatus: whether to omit a channel status byte that repeats the previous one.
    ///     Meta and sysex events always cancel running status, as the specification requires.
    /// - Returns: the bytes. Every track ends with exactly one end-of-track event (added at the
    ///   track's last tick when missing); events are written in tick order (a stable sort keeps
    ///   the order of simultaneous events). Writing a file this writer produced, after reading it
    ///   back, gives the same bytes.
    public func serialized(format: MIDIFileFormat? = nil, runningStatus: Bool = true) -> [UInt8] {
        if let format, format != self.format {
            return converted(to: format).serialized(runningStatus: runningStatus)
        }
        var output: [UInt8] = Array("MThd".utf8)
        appendBigEndian32(6, to: &output)
        appendBigEndian16(self.format.rawValue, to: &output)
        appendBigEndian16(UInt16(clamping: tracks.count), to: &output)
        appendBigEndian16(division.rawValue, to: &output)
        for track in tracks.prefix(Int(UInt16.max)) {
            let body = Self.trackBody(track, runningStatus: runningStatus)
            output += Array("MTrk".utf8)
            appendBigEndian32(UInt32(clamping: body.count), to: &output)
            output += body
        }
        return output
    }

    /// The events of a track chunk, without the chunk header.
    static func trackBody(_ track: MIDITrack, runningStatus useRunningStatus: Bool) -> [UInt8] {
        var events = track.events
        if !zip(events, events.dropFirst()).allSatisfy({ $0.tick <= $1.tick }) {
            events = events.enumerated()
                .sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }
                .map { $0.element }
        }
        // Exactly one end of track, last: drop any that came earlier (as they would end the track
        // on reading) and add one when missing.
        let endTick = max(0, events.last?.tick ?? 0)
        events.removeAll { $0.message.isEndOfTrack }
        events.append(MIDIEvent(tick: endTick, message: .meta(.endOfTrack)))

        var body: [UInt8] = []
        body.reserveCapacity(events.count * 4)
        var previousTick = 0
        var runningStatus: UInt8?
        for event in events {
            let tick = max(event.tick, previousTick)
            appendVariableLength(tick - previousTick, to: &body)
            previousTick = tick
            switch event.message {
            case .systemExclusive(let payload):
                body.append(0xF0)
                appendVariableLength(payload.count, to: &body)
                body += payload
                runningStatus = nil
            case .sysExContinuation(let payload):
                body.append(0xF7)
                appendVariableLength(payload.count, to: &body)
                body += payload
                runningStatus = nil
            case .meta(let meta):
                body.append(0xFF)
                body.append(meta.type)
                let data = meta.data
                appendVariableLength(data.count, to: &body)
                body += data
                runningStatus = nil
            default:
                guard let status = event.message.channelStatusByte else { continue }
                if !(useRunningStatus && status == runningStatus) { body.append(status) }
                body += event.message.channelDataBytes
                runningStatus = status
            }
        }
        return body
    }
}

/// Appends a variable-length quantity (7 bits per byte, most significant first). Values above
/// the 4-byte maximum 0x0FFFFFFF are clamped: no reader accepts more.
func appendVariableLength(_ value: Int, to output: inout [UInt8]) {
    var remaining = min(max(value, 0), 0x0FFF_FFFF)
    var groups: [UInt8] = [UInt8(remaining & 0x7F)]
    remaining >>= 7
    while remaining > 0 {
        groups.append(UInt8(remaining & 0x7F) | 0x80)
        remaining >>= 7
    }
    output += groups.reversed()
}

private func appendBigEndian16(_ value: UInt16, to output: inout [UInt8]) {
    output += [UInt8(value >> 8), UInt8(value & 0xFF)]
}

private func appendBigEndian32(_ value: UInt32, to output: inout [UInt8]) {
    output += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
}
