import Foundation


/// Renders a generated sound through the installed FluidSynth with one effect on and off, and
/// returns the effect's own output and its send-bus input: the Swift twin of
/// `Benchmarks/fx/fxprobe.py`, so a test can feed *the same* bus signal through our effect.
struct FluidSynthRenderer {
    enum Effect { case reverb, chorus }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The send bus (mono) and the effect's stereo output, sample-aligned.
    struct Measurement {
        var send: [Float]
        var effect: SignalAnalysis.Stereo
    }

    static let sampleRate = 44100
    /// Samples of silence before the sound, past FluidSynth's 1 ms volume-envelope delay/attack.
    static let lead = 2000

    /// Renders `sound` (−1…1, played once at its root key, centred, full volume) with the
    /// effect's send at 0.2 (CC91 or CC93 = 127) and `options` (`synth.…=value`).
    static func measure(_ effect: Effect, sound: [Float], options: [String], seconds: Double) throws -> Measurement {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("polyphon-fx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let samples = [Float](repeating: 0, count: lead) + sound + [Float](repeating: 0, count: 64)
        let bank = dir.appendingPathComponent("bank.sf2"), song = dir.appendingPathComponent("song.mid")
        try soundFont(samples).write(to: bank)
        let cc: UInt8 = effect == .reverb ? 91 : 93
        try midiFile(controller: cc, noteSeconds: Double(samples.count) / Double(sampleRate) + 0.01,
                     seconds: seconds).write(to: song)
        let name = effect == .reverb ? "reverb" : "chorus", other = effect == .reverb ? "chorus" : "reverb"
        func render(active: Bool) throws -> [Float] {
            let out = dir.appendingPathComponent(active ? "wet.wav" : "dry.wav")
            var arguments = ["-ni", "-F", out.path, "-r", "\(sampleRate)", "-g", "1", "-O", "float", "-T", "wav",
                             "-o", "synth.\(other).active=0", "-o", "synth.\(name).active=\(active ? 1 : 0)"]
            for option in options { arguments += ["-o", option] }
            arguments += [bank.path, song.path]
            let log = dir.appendingPathComponent("log.txt")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: RealFiles.fluidsynth)
            process.arguments = arguments
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            process.waitUntilExit()
            try handle.close()
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            // FluidSynth falls back to its default bank when ours fails to load: never measure that.
            guard process.terminationStatus == 0, !text.contains("Failed to load") else {
                throw Failure(description: "fluidsynth failed (\(process.terminationStatus)): \(text)")
            }
            return try readFloatWAV(Data(contentsOf: out))
        }
        let wet = try render(active: true), dry = try render(active: false)
        let frames = min(wet.count, dry.count) / 2
        var send = [Float](repeating: 0, count: frames)
        var left = send, right = send
        let sendPerDry = Float(0.2 / 2.0.squareRoot())
        for i in 0..<frames {
            let mid: Float = dry[2 * i] + dry[2 * i + 1]
            send[i] = sendPerDry * mid
            left[i] = wet[2 * i] - dry[2 * i]
            right[i] = wet[2 * i + 1] - dry[2 * i + 1]
        }
        return Measurement(send: send, effect: SignalAnalysis.Stereo(left: left, right: right))
    }

    /// Interleaved samples of a 32-bit float WAV file.
    static func readFloatWAV(_ data: Data) throws -> [Float] {
        let bytes = [UInt8](data)
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        var pos = 12
        while pos + 8 <= bytes.count {
            let tag = String(decoding: bytes[pos..<pos + 4], as: UTF8.self), size = u32(pos + 4)
            if tag == "data" {
                let end = min(bytes.count, pos + 8 + size)
                var out = [Float](repeating: 0, count: (end - pos - 8) / 4)
                for i in out.indices {
                    out[i] = Float(bitPattern: UInt32(truncatingIfNeeded: u32(pos + 8 + 4 * i)))
                }
                return out
            }
            pos += 8 + size + (size & 1)
        }
        throw Failure(description: "no data chunk in FluidSynth's WAV output")
    }

    // MARK: Generated inputs

    /// A minimal SoundFont 2.01: preset 0:0 → one instrument zone → one mono sample, root key 60,
    /// no loop. Every byte is generated here: no third-party bank is involved.
    static func soundFont(_ samples: [Float]) -> Data {
        var pcm = Data()
        for s in samples {
            let v = Int16(max(-32768, min(32767, (s * 32767).rounded())))
            pcm.append(le16(UInt16(bitPattern: v)))
        }
        pcm.append(Data(count: 92))   // the 46 zero samples the specification asks for
        func name(_ s: String) -> Data { var d = Data(s.utf8); d.append(Data(count: 20 - d.count)); return d }
        let info = list("INFO", [chunk("ifil", le16(2) + le16(1)), chunk("isng", Data("EMU8000\0".utf8)),
                                 chunk("INAM", Data("fxprobe\0".utf8))])
        let sdta = list("sdta", [chunk("smpl", pcm)])
        var phdr = name("click")
        phdr += le16(0) + le16(0) + le16(0)
        phdr += le32(0) + le32(0) + le32(0)
        phdr += name("EOP")
        phdr += le16(0) + le16(0) + le16(1)
        phdr += le32(0) + le32(0) + le32(0)
        let pbag = le16(0) + le16(0) + le16(1) + le16(0)
        let pgen = le16(41) + le16(0) + le16(0) + le16(0)
        var inst = name("click")
        inst += le16(0) + name("EOI") + le16(1)
        let ibag = le16(0) + le16(0) + le16(3) + le16(0)
        var igen = le16(54) + le16(0)
        igen += le16(58) + le16(60)
        igen += le16(53) + le16(0)
        igen += le16(0) + le16(0)
        let n = UInt32(samples.count)
        var shdr = name("click")
        shdr += le32(0) + le32(n) + le32(0) + le32(n - 1)
        shdr += le32(UInt32(sampleRate)) + Data([60, 0]) + le16(0) + le16(1)
        shdr += name("EOS")
        shdr += le32(0) + le32(0) + le32(0) + le32(0) + le32(0)
        shdr += Data([0, 0]) + le16(0) + le16(0)
        let pdta = list("pdta", [chunk("phdr", phdr), chunk("pbag", pbag), chunk("pmod", Data(count: 10)),
                                 chunk("pgen", pgen), chunk("inst", inst), chunk("ibag", ibag),
                                 chunk("imod", Data(count: 10)), chunk("igen", igen), chunk("shdr", shdr)])
        let body = Data("sfbk".utf8) + info + sdta + pdta
        return Data("RIFF".utf8) + le32(UInt32(body.count)) + body
    }

    /// Format 0, 1000 ticks per quarter at 120 BPM (1 tick = 0.5 ms): volume, centre pan and the
    /// send controller at 127, the note, and a late repeat of the controller that keeps the
    /// player (and so the render) going through the effect's tail.
    static func midiFile(controller: UInt8, noteSeconds: Double, seconds: Double) -> Data {
        func vlq(_ value: Int) -> Data {
            var n = value, out: [UInt8] = [UInt8(n & 0x7F)]
            n >>= 7
            while n > 0 { out.insert(UInt8(n & 0x7F) | 0x80, at: 0); n >>= 7 }
            return Data(out)
        }
        var track = Data()
        track += vlq(0) + Data([0xB0, 7, 127])
        track += vlq(0) + Data([0xB0, 10, 64])
        track += vlq(0) + Data([0xB0, controller, 127])
        track += vlq(0) + Data([0x90, 60, 127])
        track += vlq(Int(noteSeconds * 2000)) + Data([0x80, 60, 0])
        track += vlq(Int(seconds * 2000)) + Data([0xB0, controller, 127])
        track += vlq(0) + Data([0xFF, 0x2F, 0])
        var file = Data("MThd".utf8)
        file += be32(6) + be16(0) + be16(1) + be16(1000)
        file += Data("MTrk".utf8) + be32(UInt32(track.count))
        return file + track
    }

    private static func chunk(_ tag: String, _ body: Data) -> Data {
        Data(tag.utf8) + le32(UInt32(body.count)) + body + (body.count % 2 == 1 ? Data([0]) : Data())
    }
    private static func list(_ tag: String, _ chunks: [Data]) -> Data {
        let body = chunks.reduce(Data(tag.utf8), +)
        return Data("LIST".utf8) + le32(UInt32(body.count)) + body
    }
    private static func le16(_ v: UInt16) -> Data { Data([UInt8(v & 0xFF), UInt8(v >> 8)]) }
    private static func le32(_ v: UInt32) -> Data { Data((0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) }) }
    private static func be16(_ v: UInt16) -> Data { Data([UInt8(v >> 8), UInt8(v & 0xFF)]) }
    private static func be32(_ v: UInt32) -> Data { Data((0..<4).reversed().map { UInt8((v >> (8 * $0)) & 0xFF) }) }
}
