/// Presets' ``Preset/controllerDefaults`` (SFZ `set_ccN`) in a SoundFont file: a `pcdf` chunk in
/// the private `zext` list after `pdta` (``ZoneRulesChunk``), which other SF2 readers skip.
///
/// `pcdf` (little-endian): `u16` version (1), `u16` 0, `u32` record count, then one record per
/// preset with defaults: `u16` the preset's `phdr` index, `u8` count, then per default `u8`
/// controller and `u8` value (both 0–127).
enum ControllerDefaultsChunk {
    static let id = "pcdf"
    static let version: UInt16 = 1

    /// The chunk's body for `presets`, nil when none has defaults.
    static func body(_ presets: [Preset]) -> [UInt8]? {
        var out = RIFFWriter()
        var count: UInt32 = 0
        out.u16(version)
        out.u16(0)
        out.u32(0)
        for (index, preset) in presets.enumerated() where !preset.controllerDefaults.isEmpty {
            let defaults = preset.controllerDefaults.prefix(Int(UInt8.max))
            out.u16(UInt16(truncatingIfNeeded: index))
            out.bytes.append(UInt8(defaults.count))
            for d in defaults {
                out.bytes.append(d.controller)
                out.bytes.append(d.value)
            }
            count += 1
        }
        guard count > 0 else { return nil }
        for i in 0..<4 { out.bytes[4 + i] = UInt8(truncatingIfNeeded: count >> UInt32(8 * i)) }
        return out.bytes
    }
}

extension SoundFontReader {
    /// Sets the controller defaults the `zext` list holds on `presets`. A chunk of a later
    /// version is skipped with a warning; a record naming no preset, a value above 127 or a
    /// record past the chunk's end is an error naming its byte offset.
    mutating func readControllerDefaults(_ list: RIFFChunk, into presets: inout [Preset]) throws(SoundFontError) {
        let body = (list.dataOffset + 4)..<list.dataRange.upperBound
        // The list's layout was checked (and warned about) with the zones' rules.
        var ignored: [SoundFontWarning] = []
        let chunks = try RIFFChunkWalker.chunks(in: bytes, range: body, container: ZoneRulesChunk.listType,
                                                file: name, warnings: &ignored)
        for chunk in chunks where chunk.id == ControllerDefaultsChunk.id {
            try readControllerDefaultsChunk(chunk, into: &presets)
        }
    }

    private mutating func readControllerDefaultsChunk(_ chunk: RIFFChunk, into presets: inout [Preset]) throws(SoundFontError) {
        let end = chunk.dataRange.upperBound
        var at = chunk.dataOffset
        func fail(_ offset: Int, _ message: String) -> SoundFontError {
            SoundFontError(file: name, chunk: chunk.id, offset: offset, kind: .malformed(message))
        }
        guard end - at >= 8 else { throw fail(at, "a controller-defaults header runs past the chunk's end") }
        let version = bytes.u16(at)
        guard version == ControllerDefaultsChunk.version else {
            warn(chunk.id, chunk.offset, "controller defaults of version \(version) ignored (this reader knows 1)")
            return
        }
        let count = Int(bytes.u32(at + 4))
        at += 8
        for _ in 0..<count {
            let recordAt = at
            guard end - at >= 3 else { throw fail(at, "a controller-defaults record runs past the chunk's end") }
            let preset = Int(bytes.u16(at))
            let defaults = Int(bytes.u8(at + 2))
            at += 3
            guard preset < presets.count else {
                throw fail(recordAt, "controller defaults for preset \(preset), but the bank has \(presets.count)")
            }
            guard presets[preset].controllerDefaults.isEmpty else {
                throw fail(recordAt, "second controller-defaults record for preset \(preset)")
            }
            guard end - at >= 2 * defaults else { throw fail(at, "\(defaults) controller defaults run past the chunk's end") }
            var values: [ControllerDefault] = []
            values.reserveCapacity(defaults)
            for _ in 0..<defaults {
                let controller = bytes.u8(at), value = bytes.u8(at + 1)
                guard controller < 128, value < 128 else {
                    throw fail(at, "controller \(controller) value \(value) is not MIDI (0-127)")
                }
                values.append(ControllerDefault(controller: controller, value: value))
                at += 2
            }
            presets[preset].controllerDefaults = values
        }
        if end - at > 1 { warn(chunk.id, at, "\(end - at) bytes after the controller defaults ignored") }
    }
}
