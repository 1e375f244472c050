/// The play-time rules of instrument zones (``Zone/playCondition``, SFZ regions' round robin,
/// keyswitches, release triggers …) in a SoundFont file: a private `LIST` of type `zext` after
/// `pdta`, holding one `izpc` chunk (and, for zones with a ``Zone/shaping``, one `izvs` chunk:
/// ``VoiceShapingChunk``).
///
/// SF2 has no place for them, and SF2 readers skip a RIFF list they do not know (FluidSynth
/// reads INFO, sdta and pdta and stops; this reader ignores unknown lists), so a bank written
/// with them stays a valid SF2 whose other readers play every zone at every note-on, as they
/// would without the list. It lets an SFZ instrument travel as SF2 bytes to an engine that
/// reads them back (the WebAssembly module in `polyphon jam`'s page).
///
/// `izpc` (little-endian): `u16` version (1), `u16` 0, `u32` record count, then one record per
/// zone with a condition: `u16` the zone's `ibag` index, then the condition's fields in
/// declaration order — `u8` for 7-bit values, trigger and flags, `f32` for levels and times,
/// `i64` for counts and ids, a `u8` presence flag before each optional, a `u8` count before
/// each list.
enum ZoneRulesChunk {
    static let listType = "zext"
    static let playConditions = "izpc"
    static let version: UInt16 = 1
    /// Bytes of the smallest record: no controller ranges and no header limits (an absent
    /// optional still holds its value's bytes).
    static let minimumRecordSize = 131

    /// The `izpc` chunk's body for `instruments`, nil when no zone has a condition. `firstBag`
    /// is each instrument's first `ibag` index, as the writer lays the bags out.
    static func playConditionBody(_ instruments: [Instrument], firstBag: [UInt16]) -> [UInt8]? {
        zoneRecordsBody(instruments, firstBag: firstBag, version: version, item: { $0.playCondition }) {
            (condition: PlayCondition, out: inout RIFFWriter) in write(condition, into: &out)
        }
    }

    /// A `zext` chunk's body of per-zone records: `u16` version, `u16` 0, `u32` count, then for
    /// each instrument zone with an `item` its `u16` ibag index and the item as `write` writes
    /// it; nil when no zone has one. `firstBag` is each instrument's first `ibag` index.
    static func zoneRecordsBody<Item>(_ instruments: [Instrument], firstBag: [UInt16], version: UInt16,
                                      item: (Zone) -> Item?, write: (Item, inout RIFFWriter) -> Void) -> [UInt8]? {
        var out = RIFFWriter()
        var count: UInt32 = 0
        out.u16(version)
        out.u16(0)
        out.u32(0)
        for (i, instrument) in instruments.enumerated() {
            let first = Int(firstBag[i]) + (instrument.globalZone == nil ? 0 : 1)
            for (z, zone) in instrument.zones.enumerated() {
                guard let value = item(zone) else { continue }
                out.u16(UInt16(truncatingIfNeeded: first + z))
                write(value, &out)
                count += 1
            }
        }
        guard count > 0 else { return nil }
        for i in 0..<4 { out.bytes[4 + i] = UInt8(truncatingIfNeeded: count >> UInt32(8 * i)) }
        return out.bytes
    }

    /// Where each `ibag` index sits in the model: (instrument, zone).
    static func zoneOfBag(_ zoneBags: [[Int]]) -> [Int: (instrument: Int, zone: Int)] {
        var zoneOfBag: [Int: (instrument: Int, zone: Int)] = [:]
        for (i, bags) in zoneBags.enumerated() {
            for (z, bag) in bags.enumerated() { zoneOfBag[bag] = (i, z) }
        }
        return zoneOfBag
    }

    private static func write(_ c: PlayCondition, into out: inout RIFFWriter) {
        out.bytes.append(c.trigger.rawValue)
        out.f32(c.releaseDecay)
        out.flag(c.releasePlaysAfterAttackEnded)
        out.range(c.channels)
        let controllers = c.controllers.prefix(Int(UInt8.max))
        out.bytes.append(UInt8(controllers.count))
        for range in controllers {
            out.bytes.append(range.controller)
            out.f32(range.lower)
            out.f32(range.upper)
        }
        out.f32(c.pitchBend.lowerBound)
        out.f32(c.pitchBend.upperBound)
        out.range(c.programs)
        out.range(c.channelPressure)
        out.range(c.keyPressure)
        out.f32(c.randomLower)
        out.f32(c.randomUpper)
        out.i64(c.sequenceLength)
        out.i64(c.sequencePosition)
        out.i64(c.counter)
        out.flag(c.lastKeyswitch != nil)
        out.range(c.lastKeyswitch ?? 0...0)
        for key in [c.defaultKeyswitch, c.keyDown, c.keyUp, c.previousKey] {
            out.flag(key != nil)
            out.bytes.append(key ?? 0)
        }
        out.flag(c.ignoresNoteOff)
        out.i64(c.group)
        out.flag(c.offBy != nil)
        out.i64(c.offBy ?? 0)
        out.flag(c.offTime != nil)
        out.f32(c.offTime ?? 0)
        out.i64(c.region)
        for limit in [c.polyphony.region, c.polyphony.group, c.polyphony.note] {
            out.flag(limit != nil)
            out.i64(limit ?? 0)
        }
        out.flag(c.polyphony.noteSelfMask)
        let headers = c.polyphony.headers.prefix(Int(UInt8.max))
        out.bytes.append(UInt8(headers.count))
        for header in headers {
            out.i64(header.header)
            out.i64(header.limit)
        }
        out.bytes.append(c.sustainPedal.controller)
        out.bytes.append(c.sustainPedal.threshold)
        out.flag(c.sustainPedal.isFollowed)
    }
}

extension RIFFWriter {
    mutating func f32(_ v: Float) { u32(v.bitPattern) }
    mutating func i64(_ v: Int) {
        let bits = UInt64(bitPattern: Int64(v))
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }
    mutating func flag(_ v: Bool) { bytes.append(v ? 1 : 0) }
    mutating func range(_ r: ClosedRange<UInt8>) {
        bytes.append(r.lowerBound)
        bytes.append(r.upperBound)
    }
}

// MARK: - Reading

extension SoundFontReader {
    /// Sets the play conditions and voice shapings the `zext` list holds on `instruments`' zones;
    /// `zoneBags` gives each instrument zone's `ibag` index. A chunk of a later version is
    /// skipped with a warning.
    mutating func readZoneRules(_ list: RIFFChunk, into instruments: inout [Instrument],
                                zoneBags: [[Int]]) throws(SoundFontError) {
        let body = (list.dataOffset + 4)..<list.dataRange.upperBound
        let chunks = try RIFFChunkWalker.chunks(in: bytes, range: body, container: ZoneRulesChunk.listType,
                                                file: name, warnings: &warnings)
        for chunk in chunks {
            switch chunk.id {
            case ZoneRulesChunk.playConditions: try readPlayConditions(chunk, into: &instruments, zoneBags: zoneBags)
            case VoiceShapingChunk.id: try readVoiceShapings(chunk, into: &instruments, zoneBags: zoneBags)
            case ControllerDefaultsChunk.id: continue  // read with the presets (readControllerDefaults)
            default: warn(chunk.id, chunk.offset, "unknown \(ZoneRulesChunk.listType) chunk ignored")
            }
        }
    }

    private mutating func readPlayConditions(_ chunk: RIFFChunk, into instruments: inout [Instrument],
                                             zoneBags: [[Int]]) throws(SoundFontError) {
        guard let records = try zoneRecords(chunk, version: ZoneRulesChunk.version,
                                              minimumRecordSize: ZoneRulesChunk.minimumRecordSize,
                                              what: "play conditions") else { return }
        var cursor = records.cursor
        let zoneOfBag = ZoneRulesChunk.zoneOfBag(zoneBags)
        let zoneCount = zoneOfBag.count
        for _ in 0..<records.count {
            let recordAt = cursor.offset
            let (i, z) = try cursor.zone(zoneOfBag, what: "play condition")
            guard instruments[i].zones[z].playCondition == nil else {
                throw cursor.error(at: recordAt, .malformed("second play condition for ibag \(bytes.u16(recordAt))"))
            }
            instruments[i].zones[z].playCondition = try cursor.playCondition(zoneCount: zoneCount)
        }
        endZoneRecords(cursor, what: "play conditions")
    }

    /// Opens a `zext` chunk of per-zone records: `u16` version, `u16` 0, `u32` count. Nil (with
    /// a warning) for a version other than `version`; an error when `count` records of at least
    /// `minimumRecordSize` bytes cannot fit. The cursor stands at the first record.
    mutating func zoneRecords(_ chunk: RIFFChunk, version: UInt16, minimumRecordSize: Int,
                              what: String) throws(SoundFontError) -> (cursor: ChunkCursor, count: Int)? {
        var cursor = ChunkCursor(bytes: bytes, chunk: chunk, file: name)
        let found = try cursor.u16()
        guard found == version else {
            warn(chunk.id, chunk.offset, "\(what) of version \(found) ignored (this reader knows \(version))")
            return nil
        }
        _ = try cursor.u16()
        let recordsAt = cursor.offset
        let count = Int(try cursor.u32())
        guard count <= cursor.remaining / minimumRecordSize else {
            throw cursor.error(at: recordsAt, .malformed("\(count) \(what) cannot fit in \(cursor.remaining) bytes"))
        }
        return (cursor, count)
    }

    /// Warns of bytes left after a chunk's records (one is the RIFF pad).
    mutating func endZoneRecords(_ cursor: ChunkCursor, what: String) {
        if cursor.remaining > 1 {
            warn(cursor.chunk.id, cursor.offset, "\(cursor.remaining) bytes after the \(what) ignored")
        }
    }
}

/// Reads one chunk's fields in order, never past its end: every read past it, and every value
/// the engine could not play, throws an error naming the chunk and the byte offset.
struct ChunkCursor {
    let bytes: UnsafeRawBufferPointer
    let chunk: RIFFChunk
    let file: String
    var offset: Int

    init(bytes: UnsafeRawBufferPointer, chunk: RIFFChunk, file: String) {
        self.bytes = bytes
        self.chunk = chunk
        self.file = file
        self.offset = chunk.dataOffset
    }

    var remaining: Int { chunk.dataRange.upperBound - offset }

    func error(at offset: Int, _ kind: SoundFontError.Kind) -> SoundFontError {
        SoundFontError(file: file, chunk: chunk.id, offset: offset, kind: kind)
    }

    private mutating func take(_ count: Int) throws(SoundFontError) -> Int {
        guard remaining >= count else {
            throw error(at: offset, .malformed("a record runs past the chunk's end"))
        }
        defer { offset += count }
        return offset
    }

    /// A record's `u16` ibag index as the (instrument, zone) it names; an error when it names
    /// no instrument zone.
    mutating func zone(_ zoneOfBag: [Int: (instrument: Int, zone: Int)],
                       what: String) throws(SoundFontError) -> (instrument: Int, zone: Int) {
        let at = offset
        let bag = Int(try u16())
        guard let zone = zoneOfBag[bag] else {
            throw error(at: at, .malformed("\(what) for ibag \(bag), which is no instrument zone"))
        }
        return zone
    }

    mutating func u8() throws(SoundFontError) -> UInt8 { bytes.u8(try take(1)) }
    mutating func u16() throws(SoundFontError) -> UInt16 { bytes.u16(try take(2)) }
    mutating func u32() throws(SoundFontError) -> UInt32 { bytes.u32(try take(4)) }

    mutating func flag() throws(SoundFontError) -> Bool {
        let at = offset
        let v = try u8()
        guard v <= 1 else { throw error(at: at, .malformed("flag \(v) is neither 0 nor 1")) }
        return v == 1
    }

    mutating func f32() throws(SoundFontError) -> Float {
        let at = offset
        let v = Float(bitPattern: try u32())
        guard v.isFinite else { throw error(at: at, .malformed("a value that is not a finite number")) }
        return v
    }

    /// An `i64` within `bounds`; ids outside them are clamped when `clamps` (wasm's Int is 32 bits).
    mutating func int(_ bounds: ClosedRange<Int64>, clamps: Bool = false) throws(SoundFontError) -> Int {
        let at = offset
        let low = UInt64(try u32()), high = UInt64(try u32())
        let v = Int64(bitPattern: high << 32 | low)
        guard bounds.contains(v) else {
            throw error(at: at, .malformed("\(v) is outside \(bounds.lowerBound)...\(bounds.upperBound)"))
        }
        return clamps ? Int(clamping: v) : Int(v)
    }

    /// A 7-bit value (a key, a controller number).
    mutating func midi() throws(SoundFontError) -> UInt8 {
        let at = offset
        let v = try u8()
        guard v < 128 else { throw error(at: at, .malformed("\(v) is not a MIDI key or controller (0-127)")) }
        return v
    }

    mutating func range() throws(SoundFontError) -> ClosedRange<UInt8> {
        let at = offset
        let low = try u8(), high = try u8()
        guard low <= high else { throw error(at: at, .malformed("range \(low)...\(high) is reversed")) }
        return low...high
    }

    mutating func floatRange() throws(SoundFontError) -> (Float, Float) {
        let at = offset
        let low = try f32(), high = try f32()
        guard low <= high else { throw error(at: at, .malformed("a reversed range")) }
        return (low, high)
    }

    mutating func optional<T>(_ read: (inout ChunkCursor) throws(SoundFontError) -> T) throws(SoundFontError) -> T? {
        let present = try flag()
        let value = try read(&self)
        return present ? value : nil
    }

    /// One record's condition; `zoneCount` bounds the round-robin counters (one per zone).
    mutating func playCondition(zoneCount: Int) throws(SoundFontError) -> PlayCondition {
        let ids = Int64(Int32.min)...Int64(UInt32.max)
        let voices: ClosedRange<Int64> = 0...65_535
        var c = PlayCondition()
        let triggerAt = offset
        let trigger = try u8()
        guard let t = PlayCondition.Trigger(rawValue: trigger) else {
            throw error(at: triggerAt, .malformed("unknown trigger \(trigger)"))
        }
        c.trigger = t
        c.releaseDecay = try f32()
        c.releasePlaysAfterAttackEnded = try flag()
        c.channels = try range()
        let controllerCount = Int(try u8())
        c.controllers.reserveCapacity(min(controllerCount, remaining / 9))
        for _ in 0..<controllerCount {
            let controller = try midi()
            let (lower, upper) = try floatRange()
            c.controllers.append(PlayCondition.ControllerRange(controller: controller, lower: lower, upper: upper))
        }
        let (bendLow, bendHigh) = try floatRange()
        c.pitchBend = bendLow...bendHigh
        c.programs = try range()
        c.channelPressure = try range()
        c.keyPressure = try range()
        c.randomLower = try f32()
        c.randomUpper = try f32()
        c.sequenceLength = try int(1...voices.upperBound)
        c.sequencePosition = try int(1...voices.upperBound)
        let counterAt = offset
        c.counter = try int(0...Int64(UInt16.max))
        guard c.counter < max(zoneCount, 1) else {
            throw error(at: counterAt, .malformed("round-robin counter \(c.counter) but \(zoneCount) instrument zones"))
        }
        c.lastKeyswitch = try optional { (r: inout ChunkCursor) throws(SoundFontError) in try r.range() }
        c.defaultKeyswitch = try optional { (r: inout ChunkCursor) throws(SoundFontError) in try r.u8() }
        c.keyDown = try optional { (r: inout ChunkCursor) throws(SoundFontError) in try r.midi() }
        c.keyUp = try optional { (r: inout ChunkCursor) throws(SoundFontError) in try r.midi() }
        c.previousKey = try optional { (r: inout ChunkCursor) throws(SoundFontError) in try r.u8() }
        c.ignoresNoteOff = try flag()
        c.group = try int(ids, clamps: true)
        c.offBy = try optional { (r: inout ChunkCursor) throws(SoundFontError) in try r.int(ids, clamps: true) }
        c.offTime = try optional { (r: inout ChunkCursor) throws(SoundFontError) in try r.f32() }
        c.region = try int(ids, clamps: true)
        c.polyphony.region = try optional { (r: inout ChunkCursor) throws(SoundFontError) in try r.int(voices) }
        c.polyphony.group = try optional { (r: inout ChunkCursor) throws(SoundFontError) in try r.int(voices) }
        c.polyphony.note = try optional { (r: inout ChunkCursor) throws(SoundFontError) in try r.int(voices) }
        c.polyphony.noteSelfMask = try flag()
        let headerCount = Int(try u8())
        c.polyphony.headers.reserveCapacity(min(headerCount, remaining / 16))
        for _ in 0..<headerCount {
            let header = try int(ids, clamps: true)
            let limit = try int(voices)
            c.polyphony.headers.append(PolyphonyLimits.HeaderLimit(header: header, limit: limit))
        }
        let pedal = try midi()
        c.sustainPedal = SustainPedal(controller: pedal, threshold: try u8(), isFollowed: try flag())
        return c
    }
}
