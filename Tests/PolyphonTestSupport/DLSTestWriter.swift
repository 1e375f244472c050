import PolyphonSoundFont

/// A tiny DLS writer for the tests and the fuzzers' seed corpora: builds `RIFF DLS ` collections chunk by chunk so every
/// connection, region option and malformation can be produced on purpose.
public enum DLSTestWriter {
    public static func u16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    public static func u32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    public static func i32(_ v: Int32) -> [UInt8] { u32(UInt32(bitPattern: v)) }

    /// A chunk with its RIFF pad byte.
    public static func chunk(_ id: String, _ data: [UInt8]) -> [UInt8] {
        Array(id.utf8) + u32(UInt32(data.count)) + data + (data.count & 1 == 1 ? [0] : [])
    }

    public static func list(_ type: String, _ children: [[UInt8]]) -> [UInt8] {
        chunk("LIST", Array(type.utf8) + children.flatMap { $0 })
    }

    public static func info(_ name: String) -> [UInt8] { list("INFO", [chunk("INAM", Array(name.utf8) + [0])]) }

    public struct WaveSample {

        public init(unityNote: UInt16 = 60, fineTune: Int16 = 0, attenuation: Int32 = 0,
                    loop: (type: UInt32, start: UInt32, length: UInt32)? = nil) {
            self.unityNote = unityNote; self.fineTune = fineTune; self.attenuation = attenuation; self.loop = loop
        }

        public var unityNote: UInt16 = 60
        public var fineTune: Int16 = 0
        public var attenuation: Int32 = 0
        public var loop: (type: UInt32, start: UInt32, length: UInt32)?

        public var bytes: [UInt8] {
            var data = u32(20) + u16(unityNote) + u16(UInt16(bitPattern: fineTune)) + i32(attenuation) + u32(0)
            data += u32(loop == nil ? 0 : 1)
            if let loop { data += u32(16) + u32(loop.type) + u32(loop.start) + u32(loop.length) }
            return chunk("wsmp", data)
        }
    }

    public struct Wave {

        public init(name: String = "Wave", pcm16: [Int16]? = [0, 1000, -1000, 32767, -32768], pcm8: [UInt8]? = nil,
                    sampleRate: UInt32 = 22_050, channels: UInt16 = 1, formatTag: UInt16 = 1, sample: WaveSample? = nil) {
            self.name = name; self.pcm16 = pcm16; self.pcm8 = pcm8; self.sampleRate = sampleRate
            self.channels = channels; self.formatTag = formatTag; self.sample = sample
        }

        public var name = "Wave"
        public var pcm16: [Int16]? = [0, 1000, -1000, 32767, -32768]
        public var pcm8: [UInt8]?
        public var sampleRate: UInt32 = 22_050
        public var channels: UInt16 = 1
        public var formatTag: UInt16 = 1
        public var sample: WaveSample?

        public var bytes: [UInt8] {
            let bits: UInt16 = pcm8 != nil ? 8 : 16
            let data: [UInt8] = pcm8 ?? (pcm16 ?? []).flatMap { u16(UInt16(bitPattern: $0)) }
            let align = channels * bits / 8
            let fmt = u16(formatTag) + u16(channels) + u32(sampleRate) + u32(sampleRate * UInt32(align))
                + u16(align) + u16(bits)
            var children = [chunk("fmt ", fmt)]
            if let sample { children.append(sample.bytes) }
            children.append(chunk("data", data))
            children.append(info(name))
            return list("wave", children)
        }
    }

    public static func articulation(_ connections: [DLSConnection], level2: Bool) -> [UInt8] {
        let blocks = connections.flatMap { c in
            u16(c.source) + u16(c.control) + u16(c.destination) + u16(c.transform) + i32(c.scale)
        }
        return list(level2 ? "lar2" : "lart",
                    [chunk(level2 ? "art2" : "art1", u32(8) + u32(UInt32(connections.count)) + blocks)])
    }

    public struct Region {

        public init(keys: ClosedRange<UInt16> = 0...127, velocities: ClosedRange<UInt16> = 0...127, keyGroup: UInt16 = 0,
                    sample: WaveSample? = nil, channel: UInt32 = 0, cue: UInt32 = 0, connections: [DLSConnection]? = nil,
                    level2: Bool = true, rawHeader: [UInt8]? = nil) {
            self.keys = keys; self.velocities = velocities; self.keyGroup = keyGroup; self.sample = sample
            self.channel = channel; self.cue = cue; self.connections = connections; self.level2 = level2
            self.rawHeader = rawHeader
        }

        public var keys: ClosedRange<UInt16> = 0...127
        public var velocities: ClosedRange<UInt16> = 0...127
        public var keyGroup: UInt16 = 0
        public var sample: WaveSample?
        public var channel: UInt32 = 0
        public var cue: UInt32 = 0
        public var connections: [DLSConnection]?
        public var level2 = true
        /// Replaces the rgnh chunk's data (for malformation tests).
        public var rawHeader: [UInt8]?

        public var bytes: [UInt8] {
            var header = u16(keys.lowerBound) + u16(keys.upperBound) + u16(velocities.lowerBound)
                + u16(velocities.upperBound) + u16(0) + u16(keyGroup)
            if level2 { header += u16(0) }
            var children = [chunk("rgnh", rawHeader ?? header)]
            if let sample { children.append(sample.bytes) }
            children.append(chunk("wlnk", u16(0) + u16(0) + u32(channel) + u32(cue)))
            if let connections { children.append(articulation(connections, level2: level2)) }
            return list(level2 ? "rgn2" : "rgn ", children)
        }
    }

    public struct Instrument {

        public init(name: String = "Instrument", bank: UInt32 = 0, program: UInt32 = 0, regions: [Region] = [Region()],
                    connections: [DLSConnection]? = nil, level2: Bool = true) {
            self.name = name; self.bank = bank; self.program = program; self.regions = regions
            self.connections = connections; self.level2 = level2
        }

        public var name = "Instrument"
        public var bank: UInt32 = 0
        public var program: UInt32 = 0
        public var regions: [Region] = [Region()]
        public var connections: [DLSConnection]?
        public var level2 = true

        public var bytes: [UInt8] {
            var children = [chunk("insh", u32(UInt32(regions.count)) + u32(bank) + u32(program))]
            children.append(list("lrgn", regions.map(\.bytes)))
            if let connections { children.append(articulation(connections, level2: level2)) }
            children.append(info(name))
            return list("ins ", children)
        }
    }

    /// A whole collection. `cueShift` adds to every pool-table offset (4 imitates writers that
    /// count the `wvpl` id); `poolTable: false` leaves the table out.
    public static func collection(_ instruments: [Instrument], waves: [Wave], name: String = "Test DLS",
                           cueShift: UInt32 = 0, poolTable: Bool = true) -> [UInt8] {
        let waveBytes = waves.map(\.bytes)
        var offsets: [UInt32] = []
        var at: UInt32 = 0
        for w in waveBytes {
            offsets.append(at + cueShift)
            at += UInt32(w.count)
        }
        var body = Array("DLS ".utf8)
        body += chunk("colh", u32(UInt32(instruments.count)))
        body += chunk("vers", u32(0x0002_0000) + u32(0))
        body += list("lins", instruments.map(\.bytes))
        if poolTable { body += chunk("ptbl", u32(8) + u32(UInt32(offsets.count)) + offsets.flatMap { u32($0) }) }
        body += list("wvpl", waveBytes)
        body += info(name)
        return Array("RIFF".utf8) + u32(UInt32(body.count)) + body
    }
}
