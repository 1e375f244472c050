/// Parses the bytes of a Standard MIDI File into a ``MIDIFile``.
///
/// The reader is tolerant of the defects real files have (wrong chunk lengths, missing end of
/// track, truncation, junk, unknown chunks), repairing each with a ``MIDIFileWarning``, and
/// strict where the data itself is corrupt, throwing a ``MIDIFileError``. Every read is bounds
/// checked and every loop advances by at least one byte, so no input traps or hangs.
struct MIDIFileReader {
    let bytes: [UInt8]
    let fileName: String
    private(set) var warnings: [MIDIFileWarning] = []

    init(bytes: [UInt8], fileName: String) {
        self.bytes = bytes
        self.fileName = fileName
    }

    // MARK: Container

    mutating func read() throws(MIDIFileError) -> MIDIFile {
        if hasTag("RIFF", at: 0) {
            let range = try riffDataRange()
            return try readStandardMIDIFile(in: range)
        }
        return try readStandardMIDIFile(in: 0..<bytes.count)
    }

    /// The byte range of the `data` chunk of a RIFF `RMID` file (little-endian chunk sizes,
    /// chunks padded to even lengths).
    private func riffDataRange() throws(MIDIFileError) -> Range<Int> {
        guard bytes.count >= 12, hasTag("RMID", at: 8) else {
            throw makeError(nil, 0, .notAMIDIFile)
        }
        let riffEnd = min(bytes.count, 8 + Int(littleEndian32(at: 4)))
        var position = 12
        while position + 8 <= riffEnd {
            let size = Int(littleEndian32(at: position + 4))
            let bodyStart = position + 8
            if hasTag("data", at: position) {
                return bodyStart..<min(riffEnd, bodyStart + size)
            }
            position = bodyStart + size + (size & 1)
        }
        throw makeError(nil, 12, .missingRIFFDataChunk)
    }

    private mutating func readStandardMIDIFile(in range: Range<Int>) throws(MIDIFileError) -> MIDIFile {
        let start = range.lowerBound, end = range.upperBound
        guard end - start >= 8, hasTag("MThd", at: start) else {
            throw makeError(nil, start, .notAMIDIFile)
        }
        let headerLength = bigEndian32(at: start + 4)
        guard headerLength >= 6 else { throw makeError(nil, start + 4, .invalidHeaderLength(headerLength)) }
        let headerEnd = start + 8 + Int(headerLength)
        guard headerEnd <= end else { throw makeError(nil, start + 8, .truncatedHeader) }
        let formatWord = bigEndian16(at: start + 8)
        let declaredTracks = Int(bigEndian16(at: start + 10))
        let divisionWord = bigEndian16(at: start + 12)
        guard let format = MIDIFileFormat(rawValue: formatWord) else {
            throw makeError(nil, start + 8, .unsupportedFormat(formatWord))
        }
        guard let division = Division(rawValue: divisionWord) else {
            throw makeError(nil, start + 12, .invalidDivision(divisionWord))
        }

        var tracks: [MIDITrack] = []
        var position = headerEnd
        while position < end {
            guard end - position >= 8 else {
                warn(nil, position, .junkAfterLastChunk(count: end - position))
                break
            }
            if hasTag("MTrk", at: position) {
                let (track, next) = try readTrack(index: tracks.count, chunkStart: position, end: end)
                tracks.append(track)
                position = next
            } else if looksLikeChunkID(at: position) {
                let length = Int(bigEndian32(at: position + 4))
                let id = String(decoding: bytes[position..<position + 4], as: UTF8.self)
                warn(nil, position, .unknownChunk(id: id, length: length))
                position = min(end, position + 8 + length)
            } else if let next = firstTrackTag(from: position + 1, end: end) {
                warn(nil, position, .junkBetweenChunks(count: next - position))
                position = next
            } else {
                warn(nil, position, .junkAfterLastChunk(count: end - position))
                break
            }
        }

        if declaredTracks != tracks.count {
            warn(nil, start + 10, .trackCountMismatch(declared: declaredTracks, found: tracks.count))
        }
        if format == .singleTrack && tracks.count > 1 {
            warn(nil, start + 8, .formatZeroTrackCount(tracks.count))
        }
        return MIDIFile(format: format, division: division, tracks: tracks, warnings: warnings)
    }

    // MARK: Track chunk

    /// Reads one `MTrk` chunk starting at `chunkStart`; returns the track and where the next
    /// chunk starts.
    ///
    /// The declared length is trusted first. When the events run out without an end-of-track
    /// before it, or an event straddles it, the reader tries to follow the events past it (the
    /// length was too short); if that fails the track ends at the declared length.
    private mutating func readTrack(index: Int, chunkStart: Int, end: Int) throws(MIDIFileError) -> (MIDITrack, Int) {
        let bodyStart = chunkStart + 8
        let declaredLength = Int(bigEndian32(at: chunkStart + 4))
        let declaredEnd = bodyStart + declaredLength
        let limit = min(declaredEnd, end)

        var scan = TrackScan(trackIndex: index)
        let stop = try scanEvents(&scan, from: bodyStart, limit: limit, stopAtTrackTag: false)
        var next: Int
        switch stop {
        case .endOfTrack(let after):
            if after == declaredEnd {
                next = after
            } else if declaredEnd > end || hasTag("MTrk", at: after) {
                scan.warn(after, .trackLengthTooLong(declared: declaredLength, actual: after - bodyStart))
                next = after
            } else {
                scan.warn(after, .bytesAfterEndOfTrack(count: declaredEnd - after))
                next = declaredEnd
            }
        case .limit, .needMoreData:
            let resume: Int
            if case .needMoreData(let eventStart) = stop { resume = eventStart } else { resume = limit }
            if limit == end {
                // The file ends here: nothing follows that the events could continue into.
                if case .needMoreData = stop {
                    scan.warn(resume, .truncatedTrack)
                } else if declaredEnd > end {
                    scan.warn(end, .truncatedTrack)
                } else {
                    scan.warn(end, .missingEndOfTrack)
                }
                next = end
            } else if case .limit = stop, looksLikeChunkID(at: limit) {
                scan.warn(limit, .missingEndOfTrack)
                next = limit
            } else {
                next = followPastDeclaredEnd(&scan, resume: resume, bodyStart: bodyStart,
                                             declaredLength: declaredLength, declaredEnd: declaredEnd,
                                             end: end, stoppedMidEvent: stop != .limit)
            }
        case .trackTag:
            // Only returned when scanning past the declared end.
            next = limit
        }
        warnings += scan.warnings
        return (MIDITrack(events: scan.events), next)
    }

    /// Tries to read the events of a track whose declared length is too short, from `resume`
    /// to the end of the file. Keeps the result when it ends at an end-of-track, the next `MTrk`
    /// or the end of the file; otherwise falls back to ending the track at its declared length.
    private func followPastDeclaredEnd(_ scan: inout TrackScan, resume: Int, bodyStart: Int, declaredLength: Int,
                                       declaredEnd: Int, end: Int, stoppedMidEvent: Bool) -> Int {
        var extended = scan
        let outcome: ScanStop?
        do {
            outcome = try scanEvents(&extended, from: resume, limit: end, stopAtTrackTag: true)
        } catch {
            outcome = nil
        }
        switch outcome {
        case .endOfTrack(let after):
            extended.warn(declaredEnd, .trackLengthTooShort(declared: declaredLength, actual: after - bodyStart))
            scan = extended
            return after
        case .trackTag(let at):
            extended.warn(declaredEnd, .trackLengthTooShort(declared: declaredLength, actual: at - bodyStart))
            extended.warn(at, .missingEndOfTrack)
            scan = extended
            return at
        case .limit:
            extended.warn(declaredEnd, .trackLengthTooShort(declared: declaredLength, actual: end - bodyStart))
            extended.warn(end, .missingEndOfTrack)
            scan = extended
            return end
        case .needMoreData, nil:
            // The bytes after the declared end are not this track's events: trust the length.
            scan.warn(resume, stoppedMidEvent ? .truncatedTrack : .missingEndOfTrack)
            return declaredEnd
        }
    }

    /// The state of a track being read; copied to try a reading and roll it back.
    struct TrackScan {
        let trackIndex: Int
        var events: [MIDIEvent] = []
        var tick = 0
        /// The running status: the last channel status byte, cleared by meta and sysex events.
        var runningStatus: UInt8?
        /// The running status a meta or sysex event cancelled, applied (with a warning) when a
        /// file uses running status across such an event anyway.
        var cancelledStatus: UInt8?
        var warnedAboutCancelledStatus = false
        var warnings: [MIDIFileWarning] = []

        init(trackIndex: Int) {
            self.trackIndex = trackIndex
        }

        mutating func warn(_ offset: Int, _ kind: MIDIFileWarning.Kind) {
            warnings.append(MIDIFileWarning(trackIndex: trackIndex, byteOffset: offset, kind: kind))
        }
    }

    enum ScanStop: Equatable {
        /// An end-of-track event was read; the value is the offset after it.
        case endOfTrack(after: Int)
        /// The events end exactly at the limit.
        case limit
        /// The event starting at the offset needs bytes beyond the limit.
        case needMoreData(eventStart: Int)
        /// An `MTrk` tag starts at the offset (only when asked to stop there).
        case trackTag(at: Int)
    }


    private enum EventFailure: Error {
        case needMoreData
        case corrupt(Int, MIDIFileError.Reason)
    }

    /// Reads events from `position` until an end-of-track, the limit, a truncated event or (when
    /// asked) an `MTrk` tag. Commits an event to `scan` only once it has been read completely.
    private func scanEvents(_ scan: inout TrackScan, from start: Int, limit: Int,
                            stopAtTrackTag: Bool) throws(MIDIFileError) -> ScanStop {
        var position = start
        while true {
            if stopAtTrackTag && hasTag("MTrk", at: position) { return .trackTag(at: position) }
            if position >= limit { return .limit }
            let eventStart = position
            do {
                let isEndOfTrack = try readEvent(&scan, at: &position, limit: limit)
                if isEndOfTrack { return .endOfTrack(after: position) }
            } catch {
                switch error {
                case .needMoreData: return .needMoreData(eventStart: eventStart)
                case .corrupt(let offset, let reason): throw makeError(scan.trackIndex, offset, reason)
                }
            }
            // readEvent consumes at least the delta and the status byte, so the loop advances.
        }
    }

    /// Reads one event (delta time and message) at `position`, advancing it. Returns whether the
    /// event was the end of track.
    private func readEvent(_ scan: inout TrackScan, at position: inout Int, limit: Int) throws(EventFailure) -> Bool {
        var cursor = position
        let delta = try readVariableLength(&cursor, limit: limit)
        guard cursor < limit else { throw .needMoreData }
        let statusOffset = cursor
        var status = bytes[cursor]
        var runningStatus = scan.runningStatus
        var cancelledStatus = scan.cancelledStatus
        var usedCancelledStatus = false
        var firstDataByte: UInt8?

        if status < 0x80 {
            if let current = runningStatus {
                firstDataByte = status
                status = current
            } else if let cancelled = cancelledStatus {
                firstDataByte = status
                status = cancelled
                usedCancelledStatus = true
                runningStatus = cancelled
            } else {
                throw .corrupt(statusOffset, .missingRunningStatus(status))
            }
        }
        cursor += 1

        let message: MIDIMessage
        var malformedMeta: (type: UInt8, length: Int)?
        switch status {
        case 0x80...0xEF:
            let count = MIDIMessage.dataByteCount(forStatus: status)
            var data: [UInt8] = []
            if let firstDataByte { data.append(firstDataByte) }
            while data.count < count {
                guard cursor < limit else { throw .needMoreData }
                let byte = bytes[cursor]
                guard byte < 0x80 else { throw .corrupt(cursor, .dataByteOutOfRange(byte)) }
                data.append(byte)
                cursor += 1
            }
            message = MIDIMessage(status: status, data1: data[0], data2: count > 1 ? data[1] : 0)
            runningStatus = status
        case 0xF0, 0xF7:
            let length = try readVariableLength(&cursor, limit: limit)
            let payload = try readBytes(&cursor, count: length, limit: limit)
            message = status == 0xF0 ? .systemExclusive(payload) : .sysExContinuation(payload)
            cancelledStatus = runningStatus ?? cancelledStatus
            runningStatus = nil
        case 0xFF:
            guard cursor < limit else { throw .needMoreData }
            let type = bytes[cursor]
            cursor += 1
            let length = try readVariableLength(&cursor, limit: limit)
            let payload = try readBytes(&cursor, count: length, limit: limit)
            var isWellFormed = true
            message = .meta(MetaEvent(type: type, data: payload, isWellFormed: &isWellFormed))
            if !isWellFormed { malformedMeta = (type, length) }
            cancelledStatus = runningStatus ?? cancelledStatus
            runningStatus = nil
        default:
            throw .corrupt(statusOffset, .unexpectedStatusByte(status))
        }

        // The event is complete: commit it.
        scan.tick += delta
        scan.events.append(MIDIEvent(tick: scan.tick, message: message))
        scan.runningStatus = runningStatus
        scan.cancelledStatus = cancelledStatus
        if usedCancelledStatus && !scan.warnedAboutCancelledStatus {
            scan.warnedAboutCancelledStatus = true
            scan.warn(statusOffset, .runningStatusAfterMetaOrSysex)
        }
        if let malformedMeta {
            scan.warn(position, .malformedMetaEvent(type: malformedMeta.type, length: malformedMeta.length))
        }
        position = cursor
        return message.isEndOfTrack
    }

    /// Reads a variable-length quantity of at most 4 bytes (values up to 0x0FFFFFFF).
    private func readVariableLength(_ cursor: inout Int, limit: Int) throws(EventFailure) -> Int {
        var value = 0
        for byteIndex in 0..<4 {
            guard cursor < limit else { throw .needMoreData }
            let byte = bytes[cursor]
            cursor += 1
            value = value << 7 | Int(byte & 0x7F)
            if byte < 0x80 { return value }
            if byteIndex == 3 { throw .corrupt(cursor - 1, .variableLengthQuantityTooLong) }
        }
        return value
    }

    private func readBytes(_ cursor: inout Int, count: Int, limit: Int) throws(EventFailure) -> [UInt8] {
        guard count <= limit - cursor else { throw .needMoreData }
        let result = Array(bytes[cursor..<cursor + count])
        cursor += count
        return result
    }

    // MARK: Byte helpers (all bounds checked)

    private func hasTag(_ tag: StaticString, at offset: Int) -> Bool {
        guard offset >= 0, offset + 4 <= bytes.count else { return false }
        let tagBytes = UnsafeBufferPointer(start: tag.utf8Start, count: tag.utf8CodeUnitCount)
        for index in 0..<4 where bytes[offset + index] != tagBytes[index] { return false }
        return true
    }

    /// Whether 8 bytes at `offset` look like a chunk header: a four-character ID of letters,
    /// digits or spaces (as every registered IFF-style chunk ID is).
    private func looksLikeChunkID(at offset: Int) -> Bool {
        guard offset >= 0, offset + 8 <= bytes.count else { return false }
        return bytes[offset..<offset + 4].allSatisfy { byte in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x20
        }
    }

    private func firstTrackTag(from start: Int, end: Int) -> Int? {
        var offset = start
        while offset + 8 <= end {
            if hasTag("MTrk", at: offset) { return offset }
            offset += 1
        }
        return nil
    }

    private func bigEndian16(at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    private func bigEndian32(at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    private func littleEndian32(at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    private mutating func warn(_ track: Int?, _ offset: Int, _ kind: MIDIFileWarning.Kind) {
        warnings.append(MIDIFileWarning(trackIndex: track, byteOffset: offset, kind: kind))
    }

    private func makeError(_ track: Int?, _ offset: Int, _ reason: MIDIFileError.Reason) -> MIDIFileError {
        MIDIFileError(fileName: fileName, trackIndex: track, byteOffset: offset, reason: reason)
    }
}
