import Foundation

/// Audio files built in code for the SFZ tests: sines and saws written as WAV (16/24/32-bit
/// integer or float, mono or stereo, with or without a `smpl` chunk) and AIFF (with `INST` and
/// `MARK` loops).
enum TestAudio {
    enum Encoding {
        case int16, int24, int32, float32

        var bytes: Int {
            switch self {
            case .int16: 2
            case .int24: 3
            case .int32, .float32: 4
            }
        }
    }

    /// `frames` points of a sine at `frequency` Hz, peak `amplitude`.
    static func sine(frequency: Double, sampleRate: Double = 44_100, frames: Int, amplitude: Double = 0.5) -> [Float] {
        (0..<frames).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
    }

    /// `frames` points of a naive rising saw at `frequency` Hz, peak `amplitude`.
    static func saw(frequency: Double, sampleRate: Double = 44_100, frames: Int, amplitude: Double = 0.5) -> [Float] {
        (0..<frames).map { i in
            let phase = (frequency * Double(i) / sampleRate).truncatingRemainder(dividingBy: 1)
            return Float(amplitude * (2 * phase - 1))
        }
    }

    /// A RIFF WAVE file. `smpl` adds a sampler chunk (root key, loops as first and *last*
    /// frame, as WAV stores them) after the data chunk, where editors usually put it.
    static func wav(_ channels: [[Float]], sampleRate: Int = 44_100, encoding: Encoding = .int16,
                    smpl: (root: UInt8, loops: [(first: Int, last: Int)])? = nil) -> [UInt8] {
        let frames = channels[0].count
        var data: [UInt8] = []
        for frame in 0..<frames {
            for channel in channels {
                let x = Double(channel[frame])
                switch encoding {
                case .int16: data += le(UInt32(bitPattern: Int32(clamping: Int((x * 32767).rounded()))), 2)
                case .int24: data += le(UInt32(bitPattern: Int32(clamping: Int((x * 8_388_607).rounded()))), 3)
                case .int32: data += le(UInt32(bitPattern: Int32(clamping: Int((x * 2_147_483_647).rounded()))), 4)
                case .float32: data += le(Float(x).bitPattern, 4)
                }
            }
        }
        let blockAlign = channels.count * encoding.bytes
        var fmt: [UInt8] = []
        fmt += le(encoding == .float32 ? 3 : 1, 2)
        fmt += le(UInt32(channels.count), 2)
        fmt += le(UInt32(sampleRate), 4)
        fmt += le(UInt32(sampleRate * blockAlign), 4)
        fmt += le(UInt32(blockAlign), 2)
        fmt += le(UInt32(encoding.bytes * 8), 2)
        var body = Array("WAVE".utf8) + chunk("fmt ", fmt) + chunk("data", data)
        if let smpl {
            var s: [UInt8] = []
            s += le(0, 4) + le(0, 4) + le(UInt32(1_000_000_000 / sampleRate), 4)
            s += le(UInt32(smpl.root), 4) + le(0, 4) + le(0, 4) + le(0, 4)
            s += le(UInt32(smpl.loops.count), 4) + le(0, 4)
            for (index, loop) in smpl.loops.enumerated() {
                s += le(UInt32(index), 4) + le(0, 4) + le(UInt32(loop.first), 4) + le(UInt32(loop.last), 4) + le(0, 4) + le(0, 4)
            }
            body += chunk("smpl", s)
        }
        return Array("RIFF".utf8) + le(UInt32(body.count), 4) + body
    }

    /// A 16-bit AIFF file; `loop` (start and one-past-end frame) becomes an `INST` sustain loop
    /// between two `MARK` markers, `root` its base note.
    static func aiff(_ channels: [[Float]], sampleRate: Int = 44_100, root: UInt8 = 60,
                     loop: (start: Int, end: Int)? = nil) -> [UInt8] {
        let frames = channels[0].count
        var comm: [UInt8] = []
        comm += be(UInt32(channels.count), 2) + be(UInt32(frames), 4) + be(16, 2)
        comm += extended(Double(sampleRate))
        var ssnd: [UInt8] = be(0, 4) + be(0, 4)
        for frame in 0..<frames {
            for channel in channels {
                ssnd += be(UInt32(bitPattern: Int32(clamping: Int((Double(channel[frame]) * 32767).rounded()))), 2)
            }
        }
        var body = Array("AIFF".utf8) + chunk("COMM", comm, bigEndian: true)
        if let loop {
            var mark: [UInt8] = be(2, 2)
            mark += be(1, 2) + be(UInt32(loop.start), 4) + [1, UInt8(ascii: "a")]
            mark += be(2, 2) + be(UInt32(loop.end), 4) + [3] + Array("end".utf8)
            body += chunk("MARK", mark, bigEndian: true)
            var inst: [UInt8] = [root, 0, 0, 127, 1, 127] + be(0, 2)
            inst += be(1, 2) + be(1, 2) + be(2, 2)  // sustain loop: forward, markers 1 → 2
            inst += be(0, 2) + be(0, 2) + be(0, 2)  // no release loop
            body += chunk("INST", inst, bigEndian: true)
        }
        body += chunk("SSND", ssnd, bigEndian: true)
        return Array("FORM".utf8) + be(UInt32(body.count), 4) + body
    }

    private static func chunk(_ id: String, _ body: [UInt8], bigEndian: Bool = false) -> [UInt8] {
        Array(id.utf8) + (bigEndian ? be(UInt32(body.count), 4) : le(UInt32(body.count), 4)) + body
            + (body.count & 1 == 1 ? [0] : [])
    }

    private static func le(_ value: UInt32, _ bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
    }

    private static func be(_ value: UInt32, _ bytes: Int) -> [UInt8] {
        le(value, bytes).reversed()
    }

    /// An 80-bit IEEE extended float (AIFF's sample rate).
    private static func extended(_ value: Double) -> [UInt8] {
        let exponent = Int(log2(value))
        let mantissa = UInt64(value / pow(2, Double(exponent)) * pow(2, 63))
        return be(UInt32(16383 + exponent), 2) + (0..<8).map { UInt8(truncatingIfNeeded: mantissa >> (56 - 8 * UInt64($0))) }
    }
}

/// Writes text and bytes into a temporary directory for tests that read from disk.
struct TestFiles {
    let root: String

    func write(_ text: String, to name: String) throws {
        try write(Array(text.utf8), to: name)
    }

    func write(_ bytes: [UInt8], to name: String) throws {
        let path = root + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
