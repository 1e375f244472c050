/// Instrument zones' ``Zone/shaping`` (an SFZ region's filters, equaliser bands, pitch and
/// filter envelopes, LFOs, flex envelopes, amplitude, stereo placement and note-on values) in a
/// SoundFont file: an `izvs` chunk in the private `zext` list beside the play conditions
/// (`izpc`, see ``ZoneRulesChunk``), so an SFZ instrument sent as SF2 bytes to the WebAssembly
/// module plays what it plays natively. SF2 readers that do not know the list skip it and play
/// the zones' SF2 generators alone.
///
/// `izvs` (little-endian): `u16` version (2), `u16` 0, `u32` record count, then one record per
/// zone with a shaping: `u16` the zone's `ibag` index, `u32` the bytes of the rest of the
/// record, then ``VoiceShaping``'s fields in declaration order (each nested type's likewise):
/// `f32` for every `Float` (its bits, so values come back exactly), `u8` for enums, keys, MIDI
/// controllers and flags, `u32` for random streams, `i32` for integers, a `u8` presence flag
/// before each optional (the value follows only when present), a `u16` count before each list.
enum VoiceShapingChunk {
    static let id = "izvs"
    /// 2 since the voice's controller targets, routed LFO steps and phase controllers, and
    /// note-start ends and loops joined the record: a twin written before is skipped with a
    /// warning rather than misread.
    static let version: UInt16 = 2
    /// Bytes of the smallest record: the bag, the length, and absent parts (10 optionals, 4 lists).
    static let minimumRecordSize = 2 + 4 + 10 + 4 * 2
    /// The most an `i32` holding an index (a filter's poles, a modulation's filter or band, a flex
    /// envelope's sustain point) may be: the engine does arithmetic on them.
    static let indexBounds: ClosedRange<Int64> = -1_000_000...1_000_000

    /// The `izvs` chunk's body for `instruments`, nil when no zone has a shaping. `firstBag` is
    /// each instrument's first `ibag` index, as the writer lays the bags out.
    static func body(_ instruments: [Instrument], firstBag: [UInt16]) -> [UInt8]? {
        ZoneRulesChunk.zoneRecordsBody(instruments, firstBag: firstBag, version: version, item: { $0.shaping }) {
            (shaping: VoiceShaping, out: inout RIFFWriter) in
            let length = out.bytes.count
            out.u32(0)
            out.shaping(shaping)
            let size = UInt32(truncatingIfNeeded: out.bytes.count - length - 4)
            for b in 0..<4 { out.bytes[length + b] = UInt8(truncatingIfNeeded: size >> UInt32(8 * b)) }
        }
    }
}

// MARK: - Writing

extension RIFFWriter {
    mutating func shaping(_ s: VoiceShaping) {
        if present(s.noteStart), let n = s.noteStart { noteStart(n) }
        if present(s.filter), let f = s.filter { filter(f) }
        if present(s.pitchEnvelope), let e = s.pitchEnvelope { envelope(e) }
        if present(s.filterEnvelope), let e = s.filterEnvelope { envelope(e) }
        if present(s.volumeLFO), let l = s.volumeLFO { lfo(l) }
        if present(s.pitchLFO), let l = s.pitchLFO { lfo(l) }
        if present(s.filterLFO), let l = s.filterLFO { lfo(l) }
        if present(s.secondFilter), let f = s.secondFilter { filter(f) }
        list(s.equalizers) { (out: inout RIFFWriter, band) in
            out.bytes.append(band.kind.rawValue)
            out.f32(band.frequency)
            out.f32(band.bandwidth)
            out.f32(band.gain)
            out.f32(band.velocityToFrequency)
            out.f32(band.velocityToGain)
        }
        list(s.controllerModulations) { (out: inout RIFFWriter, m) in
            out.i32(m.controller)
            out.bytes.append(m.target.rawValue)
            out.index(m.index)
            out.f32(m.depth)
            out.floats(m.curve)
            out.f32(m.smoothing)
            out.f32(m.step)
        }
        list(s.routedLFOs) { (out: inout RIFFWriter, lfo) in out.routedLFO(lfo) }
        list(s.flexEnvelopes) { (out: inout RIFFWriter, envelope) in out.flexEnvelope(envelope) }
        if present(s.amplitude), let a = s.amplitude { amplitude(a) }
        if present(s.stereo), let stereo = s.stereo {
            bytes.append(stereo.side.rawValue)
            f32(stereo.pan)
            f32(stereo.width)
            f32(stereo.position)
            depths(stereo.widthControllers)
            depths(stereo.positionControllers)
        }
    }

    /// Writes the presence flag of `value`; true when present.
    private mutating func present<T>(_ value: T?) -> Bool {
        flag(value != nil)
        return value != nil
    }

    private mutating func i32(_ v: Int) { u32(UInt32(bitPattern: Int32(clamping: v))) }

    private mutating func index(_ v: Int) {
        i32(Int(clamping: min(max(Int64(v), VoiceShapingChunk.indexBounds.lowerBound),
                              VoiceShapingChunk.indexBounds.upperBound)))
    }

    /// A `u16` count (lists longer than 65,535 are cut there), then each element.
    private mutating func list<T>(_ items: [T], _ write: (inout RIFFWriter, T) -> Void) {
        let kept = items.prefix(Int(UInt16.max))
        u16(UInt16(kept.count))
        for item in kept { write(&self, item) }
    }

    private mutating func floats(_ values: [Float]) {
        list(values) { (out: inout RIFFWriter, v) in out.f32(v) }
    }

    private mutating func depths(_ inputs: [ControllerDepth]) {
        list(inputs) { (out: inout RIFFWriter, input) in
            out.i32(input.controller)
            out.f32(input.depth)
            out.floats(input.curve)
        }
    }

    private mutating func value(_ v: NoteStartValue) {
        f32(v.base)
        f32(v.byVelocity)
        f32(v.random)
        depths(v.controllers)
    }

    private mutating func noteStart(_ n: NoteStartShape) {
        if present(n.volumeEnvelope), let e = n.volumeEnvelope {
            for stage in [e.delay, e.start, e.attack, e.hold, e.decay, e.sustain, e.release] { value(stage) }
            flag(e.isDynamic)
        }
        if present(n.delay), let d = n.delay { value(d) }
        if present(n.offset), let o = n.offset { value(o) }
        if present(n.loopRepeats), let r = n.loopRepeats { i32(r) }
        if present(n.pitch), let p = n.pitch {
            value(p.velocityTracking)
            f32(p.random)
            u32(p.randomStream)
        }
        if present(n.end), let e = n.end { value(e) }
        if present(n.loopStart), let s = n.loopStart { value(s) }
        if present(n.loopEnd), let e = n.loopEnd { value(e) }
    }

    private mutating func filter(_ f: FilterShape) {
        bytes.append(f.response.rawValue)
        index(f.poles)
        f32(f.cutoff)
        f32(f.resonance)
        f32(f.keytrack)
        bytes.append(f.keycenter)
        f32(f.velocityTracking)
        f32(f.gain)
        depths(f.velocityTrackingControllers)
        f32(f.random)
        u32(f.randomStream)
    }

    private mutating func envelope(_ e: ModulationEnvelopeShape) {
        for v in [e.delay, e.start, e.attack, e.hold, e.decay, e.sustain, e.release, e.depth,
                  e.velocityToDelay, e.velocityToAttack, e.velocityToHold, e.velocityToDecay,
                  e.velocityToSustain, e.velocityToRelease, e.velocityToDepth] { f32(v) }
    }

    private mutating func lfo(_ l: LFOShape) {
        bytes.append(l.wave.rawValue)
        f32(l.frequency)
        f32(l.depth)
        f32(l.delay)
        f32(l.fade)
    }

    private mutating func routes(_ routes: [ModulationRoute]) {
        list(routes) { (out: inout RIFFWriter, route) in
            out.bytes.append(route.target.rawValue)
            out.f32(route.depth)
            out.depths(route.depthControllers)
        }
    }

    private mutating func routedLFO(_ l: RoutedLFOShape) {
        f32(l.frequency)
        depths(l.frequencyControllers)
        f32(l.phase)
        depths(l.phaseControllers)
        f32(l.delay)
        depths(l.delayControllers)
        f32(l.fade)
        depths(l.fadeControllers)
        i32(l.count)
        floats(l.steps)
        list(l.waves) { (out: inout RIFFWriter, wave) in
            out.bytes.append(wave.wave.rawValue)
            out.f32(wave.offset)
            out.f32(wave.ratio)
            out.f32(wave.scale)
        }
        routes(l.routes)
    }

    private mutating func flexEnvelope(_ e: FlexEnvelopeShape) {
        list(e.points) { (out: inout RIFFWriter, point) in
            out.f32(point.time)
            out.depths(point.timeControllers)
            out.f32(point.level)
            out.depths(point.levelControllers)
            out.f32(point.shape)
        }
        index(e.sustain)
        flag(e.isDynamic)
        flag(e.drivesAmplitude)
        routes(e.routes)
    }

    private mutating func crossfade(_ c: AmplitudeShape.Crossfade) {
        bytes.append(c.source.rawValue)
        flag(c.fadesIn)
        f32(c.start)
        f32(c.end)
        bytes.append(c.curve.rawValue)
    }

    private mutating func amplitude(_ a: AmplitudeShape) {
        f32(a.gain)
        if present(a.velocity), let v = a.velocity {
            f32(v.tracking)
            floats(v.curve)
            depths(v.controllers)
        }
        f32(a.keytrack)
        bytes.append(a.keycenter)
        f32(a.random)
        u32(a.randomStream)
        list(a.noteCrossfades) { (out: inout RIFFWriter, c) in out.crossfade(c) }
        list(a.controllerCrossfades) { (out: inout RIFFWriter, c) in
            out.bytes.append(c.controller)
            out.crossfade(c.fade)
        }
        depths(a.controllerGains)
    }
}

// MARK: - Reading

extension SoundFontReader {
    /// Sets the shapings an `izvs` chunk holds on `instruments`' zones; a chunk of a later
    /// version is skipped with a warning (the zones play their SF2 generators alone).
    mutating func readVoiceShapings(_ chunk: RIFFChunk, into instruments: inout [Instrument],
                                    zoneBags: [[Int]]) throws(SoundFontError) {
        guard let records = try zoneRecords(chunk, version: VoiceShapingChunk.version,
                                              minimumRecordSize: VoiceShapingChunk.minimumRecordSize,
                                              what: "voice shapings") else { return }
        var cursor = records.cursor
        let zoneOfBag = ZoneRulesChunk.zoneOfBag(zoneBags)
        for _ in 0..<records.count {
            let recordAt = cursor.offset
            let (i, z) = try cursor.zone(zoneOfBag, what: "voice shaping")
            guard instruments[i].zones[z].shaping == nil else {
                throw cursor.error(at: recordAt, .malformed("second voice shaping for ibag \(bytes.u16(recordAt))"))
            }
            let lengthAt = cursor.offset
            let length = Int(try cursor.u32())
            guard length <= cursor.remaining else {
                throw cursor.error(at: lengthAt, .malformed("a voice shaping of \(length) bytes runs past the chunk's end"))
            }
            let end = cursor.offset + length
            instruments[i].zones[z].shaping = try cursor.shaping()
            guard cursor.offset == end else {
                throw cursor.error(at: lengthAt, .malformed("a voice shaping of \(cursor.offset - lengthAt - 4) bytes says \(length)"))
            }
        }
        endZoneRecords(cursor, what: "voice shapings")
    }
}

extension ChunkCursor {
    mutating func shaping() throws(SoundFontError) -> VoiceShaping {
        var s = VoiceShaping()
        if try flag() { s.noteStart = try noteStart() }
        if try flag() { s.filter = try filter() }
        if try flag() { s.pitchEnvelope = try envelope() }
        if try flag() { s.filterEnvelope = try envelope() }
        if try flag() { s.volumeLFO = try lfo() }
        if try flag() { s.pitchLFO = try lfo() }
        if try flag() { s.filterLFO = try lfo() }
        if try flag() { s.secondFilter = try filter() }
        s.equalizers = try list(minimumSize: 21) { (r: inout ChunkCursor) throws(SoundFontError) in
            EqualizerBandShape(try r.enumeration(EqualizerBandShape.Kind.init(rawValue:)), frequency: try r.f32(),
                               bandwidth: try r.f32(), gain: try r.f32(), velocityToFrequency: try r.f32(),
                               velocityToGain: try r.f32())
        }
        s.controllerModulations = try list(minimumSize: 23) { (r: inout ChunkCursor) throws(SoundFontError) in
            let controller = try r.i32()
            let target = try r.enumeration(ControllerModulationShape.Target.init(rawValue:))
            return ControllerModulationShape(controller: controller, target: target, index: try r.index(),
                                             depth: try r.f32(), curve: try r.floats(), smoothing: try r.f32(),
                                             step: try r.f32())
        }
        s.routedLFOs = try list(minimumSize: 34) { (r: inout ChunkCursor) throws(SoundFontError) in try r.routedLFO() }
        s.flexEnvelopes = try list(minimumSize: 10) { (r: inout ChunkCursor) throws(SoundFontError) in
            try r.flexEnvelope()
        }
        if try flag() { s.amplitude = try amplitude() }
        if try flag() {
            s.stereo = StereoShape(side: try enumeration(StereoShape.Side.init(rawValue:)), pan: try f32(),
                                   width: try f32(), position: try f32(), widthControllers: try depths(),
                                   positionControllers: try depths())
        }
        return s
    }

    /// An enum's raw `u8`, an error when no case has it.
    private mutating func enumeration<T>(_ make: (UInt8) -> T?) throws(SoundFontError) -> T {
        let at = offset
        let raw = try u8()
        guard let value = make(raw) else { throw error(at: at, .malformed("\(raw) names no case of its kind")) }
        return value
    }

    private mutating func i32() throws(SoundFontError) -> Int { Int(Int32(bitPattern: try u32())) }

    private mutating func index() throws(SoundFontError) -> Int {
        let at = offset
        let v = Int64(Int32(bitPattern: try u32()))
        guard VoiceShapingChunk.indexBounds.contains(v) else {
            throw error(at: at, .malformed("index \(v) is outside \(VoiceShapingChunk.indexBounds)"))
        }
        return Int(v)
    }

    /// A `u16` count, then that many elements of at least `minimumSize` bytes each: a count the
    /// chunk's remaining bytes cannot hold is an error before anything is allocated.
    private mutating func list<T>(minimumSize: Int,
                                  _ read: (inout ChunkCursor) throws(SoundFontError) -> T) throws(SoundFontError) -> [T] {
        let at = offset
        let count = Int(try u16())
        guard count * minimumSize <= remaining else {
            throw error(at: at, .malformed("\(count) entries cannot fit in \(remaining) bytes"))
        }
        var items: [T] = []
        items.reserveCapacity(count)
        for _ in 0..<count { items.append(try read(&self)) }
        return items
    }

    private mutating func floats() throws(SoundFontError) -> [Float] {
        try list(minimumSize: 4) { (r: inout ChunkCursor) throws(SoundFontError) in try r.f32() }
    }

    private mutating func depths() throws(SoundFontError) -> [ControllerDepth] {
        try list(minimumSize: 10) { (r: inout ChunkCursor) throws(SoundFontError) in
            ControllerDepth(controller: try r.i32(), depth: try r.f32(), curve: try r.floats())
        }
    }

    private mutating func value() throws(SoundFontError) -> NoteStartValue {
        NoteStartValue(try f32(), byVelocity: try f32(), random: try f32(), controllers: try depths())
    }

    private mutating func noteStart() throws(SoundFontError) -> NoteStartShape {
        var n = NoteStartShape()
        if try flag() {
            var e = VolumeEnvelopeShape()
            e.delay = try value()
            e.start = try value()
            e.attack = try value()
            e.hold = try value()
            e.decay = try value()
            e.sustain = try value()
            e.release = try value()
            e.isDynamic = try flag()
            n.volumeEnvelope = e
        }
        if try flag() { n.delay = try value() }
        if try flag() { n.offset = try value() }
        if try flag() { n.loopRepeats = try i32() }
        if try flag() { n.pitch = NoteStartPitch(velocityTracking: try value(), random: try f32(), randomStream: try u32()) }
        if try flag() { n.end = try value() }
        if try flag() { n.loopStart = try value() }
        if try flag() { n.loopEnd = try value() }
        return n
    }

    private mutating func filter() throws(SoundFontError) -> FilterShape {
        let response = try enumeration(FilterShape.Response.init(rawValue:))
        var f = FilterShape(response, poles: try index(), cutoff: try f32(), resonance: try f32(),
                            keytrack: try f32(), keycenter: try u8(), velocityTracking: try f32())
        f.gain = try f32()
        f.velocityTrackingControllers = try depths()
        f.random = try f32()
        f.randomStream = try u32()
        return f
    }

    private mutating func envelope() throws(SoundFontError) -> ModulationEnvelopeShape {
        var e = ModulationEnvelopeShape()
        e.delay = try f32()
        e.start = try f32()
        e.attack = try f32()
        e.hold = try f32()
        e.decay = try f32()
        e.sustain = try f32()
        e.release = try f32()
        e.depth = try f32()
        e.velocityToDelay = try f32()
        e.velocityToAttack = try f32()
        e.velocityToHold = try f32()
        e.velocityToDecay = try f32()
        e.velocityToSustain = try f32()
        e.velocityToRelease = try f32()
        e.velocityToDepth = try f32()
        return e
    }

    private mutating func lfo() throws(SoundFontError) -> LFOShape {
        LFOShape(try enumeration(LFOShape.Wave.init(rawValue:)), frequency: try f32(), depth: try f32(),
                 delay: try f32(), fade: try f32())
    }

    private mutating func routes() throws(SoundFontError) -> [ModulationRoute] {
        try list(minimumSize: 7) { (r: inout ChunkCursor) throws(SoundFontError) in
            ModulationRoute(try r.enumeration(ModulationTarget.init(rawValue:)), depth: try r.f32(),
                            depthControllers: try r.depths())
        }
    }

    private mutating func routedLFO() throws(SoundFontError) -> RoutedLFOShape {
        let frequency = try f32()
        let frequencyControllers = try depths()
        let phase = try f32()
        let phaseControllers = try depths()
        let delay = try f32()
        let delayControllers = try depths()
        let fade = try f32()
        let fadeControllers = try depths()
        let count = try i32()
        let steps = try floats()
        let waves = try list(minimumSize: 13) { (r: inout ChunkCursor) throws(SoundFontError) in
            RoutedLFOShape.Wave(try r.enumeration(LFOShape.Wave.init(rawValue:)), offset: try r.f32(),
                                ratio: try r.f32(), scale: try r.f32())
        }
        var l = RoutedLFOShape(frequency: frequency, waves: waves, routes: try routes())
        l.frequencyControllers = frequencyControllers
        l.phase = phase
        l.phaseControllers = phaseControllers
        l.delay = delay
        l.delayControllers = delayControllers
        l.fade = fade
        l.fadeControllers = fadeControllers
        l.count = count
        l.steps = steps
        return l
    }

    private mutating func flexEnvelope() throws(SoundFontError) -> FlexEnvelopeShape {
        let points = try list(minimumSize: 16) { (r: inout ChunkCursor) throws(SoundFontError) in
            let time = try r.f32()
            let timeControllers = try r.depths()
            var point = FlexEnvelopeShape.Point(time: time, level: try r.f32())
            point.timeControllers = timeControllers
            point.levelControllers = try r.depths()
            point.shape = try r.f32()
            return point
        }
        let sustain = try index()
        let isDynamic = try flag(), drivesAmplitude = try flag()
        var e = FlexEnvelopeShape(points: points, sustain: sustain, routes: try routes())
        e.isDynamic = isDynamic
        e.drivesAmplitude = drivesAmplitude
        return e
    }

    private mutating func crossfade() throws(SoundFontError) -> AmplitudeShape.Crossfade {
        AmplitudeShape.Crossfade(try enumeration(AmplitudeShape.Crossfade.Source.init(rawValue:)), fadesIn: try flag(),
                                 start: try f32(), end: try f32(),
                                 curve: try enumeration(AmplitudeShape.Crossfade.Curve.init(rawValue:)))
    }

    private mutating func amplitude() throws(SoundFontError) -> AmplitudeShape {
        var a = AmplitudeShape()
        a.gain = try f32()
        if try flag() {
            a.velocity = AmplitudeShape.VelocityTracking(tracking: try f32(), curve: try floats(), controllers: try depths())
        }
        a.keytrack = try f32()
        a.keycenter = try u8()
        a.random = try f32()
        a.randomStream = try u32()
        a.noteCrossfades = try list(minimumSize: 11) { (r: inout ChunkCursor) throws(SoundFontError) in try r.crossfade() }
        a.controllerCrossfades = try list(minimumSize: 12) { (r: inout ChunkCursor) throws(SoundFontError) in
            AmplitudeShape.ControllerCrossfade(controller: try r.u8(), fade: try r.crossfade())
        }
        a.controllerGains = try depths()
        return a
    }
}
