import Foundation
import Testing

@testable import PolyphonAudio

/// Builds container bytes by hand, for files our writers never produce.
struct ContainerBuilder {
    enum Order { case little, big }
    var bytes: [UInt8] = []
    let order: Order

    mutating func fourCC(_ code: String) { bytes += Array(code.utf8) }
    mutating func u16(_ value: Int) { put(UInt64(UInt16(truncatingIfNeeded: value)), 2) }
    mutating func u32(_ value: Int) { put(UInt64(UInt32(truncatingIfNeeded: value)), 4) }
    mutating func u64(_ value: UInt64) { put(value, 8) }
    mutating func raw(_ more: [UInt8]) { bytes += more }

    private mutating func put(_ value: UInt64, _ width: Int) {
        for index in 0..<width {
            let shift = order == .little ? 8 * index : 8 * (width - 1 - index)
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// A RIFF/IFF chunk: id, 32-bit size, body and a pad byte when the size is odd.
    mutating func chunk(_ id: String, _ body: [UInt8], declaredSize: Int? = nil) {
        fourCC(id)
        u32(declaredSize ?? body.count)
        raw(body)
        if body.count % 2 == 1 { bytes.append(0) }
    }

    /// A CAF chunk: id, 64-bit size, body.
    mutating func cafChunk(_ id: String, _ body: [UInt8], declaredSize: Int64? = nil) {
        fourCC(id)
        u64(UInt64(bitPattern: declaredSize ?? Int64(body.count)))
        raw(body)
    }

    static func le(_ build: (inout ContainerBuilder) -> Void) -> [UInt8] {
        var b = ContainerBuilder(order: .little)
        build(&b)
        return b.bytes
    }

    static func be(_ build: (inout ContainerBuilder) -> Void) -> [UInt8] {
        var b = ContainerBuilder(order: .big)
        build(&b)
        return b.bytes
    }
}

/// A WAV file from its chunks (RIFF size filled in).
func wavFile(_ chunks: [UInt8]) -> [UInt8] {
    ContainerBuilder.le { b in
        b.fourCC("RIFF"); b.u32(chunks.count + 4); b.fourCC("WAVE"); b.raw(chunks)
    }
}

func wavFormatChunk(tag: Int, channels: Int, rate: Int, bits: Int, blockAlign: Int? = nil, extensibleSubformat: Int? = nil, validBits: Int? = nil) -> [UInt8] {
    let align = blockAlign ?? channels * ((bits + 7) / 8)
    return ContainerBuilder.le { b in
        b.u16(extensibleSubformat == nil ? tag : 0xFFFE); b.u16(channels); b.u32(rate); b.u32(rate * align)
        b.u16(align); b.u16(bits)
        if let extensibleSubformat {
            b.u16(22); b.u16(validBits ?? bits); b.u32(0); b.u16(extensibleSubformat)
            b.raw(WAVLayout.subformatGUIDTail)
        }
    }
}

func aiffFile(form: String = "AIFF", _ chunks: [UInt8]) -> [UInt8] {
    ContainerBuilder.be { b in
        b.fourCC("FORM"); b.u32(chunks.count + 4); b.fourCC(form); b.raw(chunks)
    }
}

func aiffCommon(channels: Int, frames: Int, bits: Int, rate: Double, compression: String? = nil) -> [UInt8] {
    ContainerBuilder.be { b in
        b.u16(channels); b.u32(frames); b.u16(bits); b.raw(ExtendedFloat80.bytes(rate))
        if let compression { b.fourCC(compression); b.raw([0, 0]) }  // empty Pascal string, padded
    }
}

func cafDescription(rate: Double, format: String = "lpcm", flags: Int, bytesPerPacket: Int, channels: Int, bits: Int) -> [UInt8] {
    ContainerBuilder.be { b in
        b.u64(rate.bitPattern); b.fourCC(format); b.u32(flags); b.u32(bytesPerPacket); b.u32(1)
        b.u32(channels); b.u32(bits)
    }
}

func cafFile(_ chunks: [UInt8]) -> [UInt8] {
    ContainerBuilder.be { b in b.fourCC("caff"); b.u16(1); b.u16(0); b.raw(chunks) }
}

@Suite struct ReaderTests {
    @Test func wavChunksInAnyOrderWithPaddingAndUnknownChunks() throws {
        let samples = ContainerBuilder.le { b in b.u16(16384); b.u16(-16384); b.u16(32767); b.u16(-32768) }
        let file = wavFile(ContainerBuilder.le { b in
            b.chunk("LIST", Array("INFOabc".utf8))  // odd size: a pad byte follows
            b.chunk("data", samples)
            b.chunk("junk", [1, 2, 3])
            b.chunk("fmt ", wavFormatChunk(tag: 1, channels: 2, rate: 11_025, bits: 16))
        })
        let read = try AudioFile(bytes: file)
        #expect(read.sampleRate == 11_025)
        #expect(read.channels == [[0.5, Float(32767) / 32768], [-0.5, -1]])
        #expect(read.sourceEncoding == .signedInteger(bits: 16))
    }

    @Test func wavEncodings() throws {
        // 8-bit is unsigned (offset binary).
        let u8 = try AudioFile(bytes: wavFile(ContainerBuilder.le { b in
            b.chunk("fmt ", wavFormatChunk(tag: 1, channels: 1, rate: 8000, bits: 8))
            b.chunk("data", [0, 128, 255])
        }))
        #expect(u8.channels == [[-1, 0, 127.0 / 128]])
        #expect(u8.sourceEncoding == .unsignedInteger(bits: 8))
        // 32-bit integers.
        let s32 = try AudioFile(bytes: wavFile(ContainerBuilder.le { b in
            b.chunk("fmt ", wavFormatChunk(tag: 1, channels: 1, rate: 8000, bits: 32))
            b.chunk("data", ContainerBuilder.le { $0.u32(1 << 30); $0.u32(Int(Int32.min)) })
        }))
        #expect(s32.channels == [[0.5, -1]])
        // 64-bit float.
        let f64 = try AudioFile(bytes: wavFile(ContainerBuilder.le { b in
            b.chunk("fmt ", wavFormatChunk(tag: 3, channels: 1, rate: 8000, bits: 64))
            b.chunk("data", ContainerBuilder.le { $0.u64(0.25.bitPattern); $0.u64((-2.0).bitPattern) })
        }))
        #expect(f64.channels == [[0.25, -2]])
        #expect(f64.sourceEncoding == .float(bits: 64))
        // Extensible, 20 valid bits in 24-bit containers (left-justified).
        let ext = try AudioFile(bytes: wavFile(ContainerBuilder.le { b in
            b.chunk("fmt ", wavFormatChunk(tag: 1, channels: 1, rate: 96_000, bits: 24, extensibleSubformat: 1, validBits: 20))
            b.chunk("data", [0x00, 0x00, 0x40, 0x00, 0x00, 0xC0])
        }))
        #expect(ext.channels == [[0.5, -0.5]])
    }

    /// An unfinalised WAV (sizes still 0xFFFFFFFF) yields the whole frames present.
    @Test func wavDataRunningPastTheEndIsCutToWholeFrames() throws {
        let file = wavFile(ContainerBuilder.le { b in
            b.chunk("fmt ", wavFormatChunk(tag: 1, channels: 2, rate: 8000, bits: 16))
            b.fourCC("data"); b.u32(0xFFFF_FFFF); b.raw([0, 0x40, 0, 0xC0, 0, 0x20])
        })
        let read = try AudioFile(bytes: file)
        #expect(read.channels == [[0.5], [-0.5]])
    }

    @Test func aiffBitDepthsAndAIFC() throws {
        for (bits, data) in [(8, [UInt8]([0x40, 0xC0])), (16, [0x40, 0, 0xC0, 0]), (24, [0x40, 0, 0, 0xC0, 0, 0]),
                             (32, [0x40, 0, 0, 0, 0xC0, 0, 0, 0]), (12, [0x40, 0, 0xC0, 0])] {
            let file = aiffFile(ContainerBuilder.be { b in
                b.chunk("NAME", Array("odd".utf8))  // odd size, padded
                b.chunk("SSND", ContainerBuilder.be { s in s.u32(4); s.u32(0); s.raw([9, 9, 9, 9]); s.raw(data) })
                b.chunk("COMM", aiffCommon(channels: 1, frames: 2, bits: bits, rate: 22_050))
                b.chunk("APPL", [1, 2, 3, 4])
            })
            let read = try AudioFile(bytes: file)
            #expect(read.channels == [[0.5, -0.5]], "\(bits)-bit")
            #expect(read.sampleRate == 22_050)
            #expect(read.sourceEncoding == .signedInteger(bits: bits))
        }
        let sowt = try AudioFile(bytes: aiffFile(form: "AIFC", ContainerBuilder.be { b in
            b.chunk("FVER", [0xA2, 0x80, 0x51, 0x40])
            b.chunk("COMM", aiffCommon(channels: 1, frames: 2, bits: 16, rate: 8000, compression: "sowt"))
            b.chunk("SSND", ContainerBuilder.be { s in s.u32(0); s.u32(0); s.raw([0, 0x40, 0, 0xC0]) })
        }))
        #expect(sowt.channels == [[0.5, -0.5]])
        let fl32 = try AudioFile(bytes: aiffFile(form: "AIFC", ContainerBuilder.be { b in
            b.chunk("COMM", aiffCommon(channels: 1, frames: 1, bits: 32, rate: 8000, compression: "fl32"))
            b.chunk("SSND", ContainerBuilder.be { s in s.u32(0); s.u32(0); s.u32(Int(Float(0.75).bitPattern)) })
        }))
        #expect(fl32.channels == [[0.75]])
        #expect(throws: AudioFileError.unsupported(path: "<memory>", reason: "AIFF-C compression 'ima4'")) {
            try AudioFile(bytes: aiffFile(form: "AIFC", ContainerBuilder.be { b in
                b.chunk("COMM", aiffCommon(channels: 1, frames: 0, bits: 16, rate: 8000, compression: "ima4"))
            }))
        }
    }

    @Test func cafVariants() throws {
        // Data size −1 (unfinalised), big-endian 16-bit, an unknown chunk before the data.
        let be16 = try AudioFile(bytes: cafFile(ContainerBuilder.be { b in
            b.cafChunk("desc", cafDescription(rate: 32_000, flags: 0, bytesPerPacket: 4, channels: 2, bits: 16))
            b.cafChunk("free", [0, 0, 0])
            b.cafChunk("data", [0, 0, 0, 0, 0x40, 0, 0xC0, 0, 0x20, 0], declaredSize: -1)
        }))
        #expect(be16.channels == [[0.5], [-0.5]])  // the trailing half frame is ignored
        #expect(be16.sampleRate == 32_000)
        // Little-endian float64.
        let f64 = try AudioFile(bytes: cafFile(ContainerBuilder.be { b in
            b.cafChunk("desc", cafDescription(rate: 8000, flags: 3, bytesPerPacket: 8, channels: 1, bits: 64))
            b.cafChunk("data", [0, 0, 0, 0] + withUnsafeBytes(of: (0.125).bitPattern.littleEndian) { Array($0) })
        }))
        #expect(f64.channels == [[0.125]])
        #expect(f64.sourceEncoding == .float(bits: 64))
        #expect(throws: AudioFileError.unsupported(path: "<memory>", reason: "CAF format 'aac ' (only linear PCM is read natively)")) {
            try AudioFile(bytes: cafFile(ContainerBuilder.be { b in
                b.cafChunk("desc", cafDescription(rate: 8000, format: "aac ", flags: 0, bytesPerPacket: 0, channels: 2, bits: 0))
                b.cafChunk("data", [0, 0, 0, 0])
            }))
        }
    }

    @Test func errorsNameTheChunkAndOffset() throws {
        // No fmt chunk.
        #expect(throws: AudioFileError.malformed(path: "x.wav", chunk: "fmt ", offset: 12, reason: "no 'fmt ' chunk")) {
            try AudioFile(bytes: wavFile(ContainerBuilder.le { $0.chunk("data", [0, 0]) }), path: "x.wav")
        }
        // A fmt chunk too short: it starts at byte 12.
        #expect(throws: AudioFileError.malformed(path: "x.wav", chunk: "fmt ", offset: 12, reason: "12 bytes is too small, at least 16 expected")) {
            try AudioFile(bytes: wavFile(ContainerBuilder.le { b in
                b.chunk("fmt ", Array(repeating: 1, count: 12)); b.chunk("data", [])
            }), path: "x.wav")
        }
        // Zero channels: the field is at 12 + 8 + 2.
        #expect(throws: AudioFileError.malformed(path: "x.wav", chunk: "fmt ", offset: 22, reason: "zero channels")) {
            try AudioFile(bytes: wavFile(ContainerBuilder.le { b in
                b.chunk("fmt ", wavFormatChunk(tag: 1, channels: 0, rate: 8000, bits: 16, blockAlign: 2)); b.chunk("data", [])
            }), path: "x.wav")
        }
        // An ADPCM WAV is understood but not decoded.
        #expect(throws: AudioFileError.unsupported(path: "x.wav", reason: "WAV format tag 0x11 (only PCM and IEEE float are read)")) {
            try AudioFile(bytes: wavFile(ContainerBuilder.le { b in
                b.chunk("fmt ", wavFormatChunk(tag: 0x11, channels: 1, rate: 8000, bits: 4, blockAlign: 256)); b.chunk("data", [])
            }), path: "x.wav")
        }
        // Not an audio file at all.
        #expect(throws: AudioFileError.unsupported(path: "x.mid", reason: "not a WAV, AIFF or CAF file (it starts with 'MThd')")) {
            try AudioFile(bytes: Array("MThd\0\0\0\u{6}".utf8), path: "x.mid")
        }
        // A file that cannot be opened names the path.
        #expect(throws: AudioFileError.cannotOpen(path: "/nonexistent/a.wav", reason: "No such file or directory")) {
            try AudioFile(contentsOf: "/nonexistent/a.wav", decoder: .native)
        }
        let error = AudioFileError.malformed(path: "a.wav", chunk: "fmt ", offset: 12, reason: "zero channels")
        #expect(error.description == "a.wav: malformed 'fmt ' chunk at byte 12: zero channels")
    }

    /// Truncated and bit-flipped versions of valid files must decode or throw AudioFileError,
    /// never trap or hang. A trap would kill the test process, failing the run.
    @Test func fuzzedFilesNeverTrap() throws {
        let directory = try TemporaryDirectory()
        var seeds: [[UInt8]] = []
        for (format, sampleFormat, channels) in [(AudioFileFormat.wav, SampleFormat.int16, 2), (.wav, .int24, 3), (.wav, .float32, 1),
                                                 (.aiff, .int16, 2), (.aiff, .int24, 1), (.caf, .int16, 1), (.caf, .float32, 2)] {
            let path = directory.file("seed.\(format.fileExtension)")
            try writeFile(path, sampleFormat: sampleFormat, channels: Array(repeating: [0.1, -0.2, 0.3, -0.4, 0.5], count: channels))
            seeds.append(try fileBytes(path))
        }
        seeds.append(aiffFile(form: "AIFC", ContainerBuilder.be { b in
            b.chunk("COMM", aiffCommon(channels: 1, frames: 2, bits: 16, rate: 8000, compression: "sowt"))
            b.chunk("SSND", ContainerBuilder.be { s in s.u32(0); s.u32(0); s.raw([0, 0x40, 0, 0xC0]) })
        }))

        var decoded = 0, rejected = 0
        func attempt(_ bytes: [UInt8]) {
            do {
                let file = try AudioFile(bytes: bytes, path: "fuzz")
                #expect(file.channels.allSatisfy { $0.count == file.frameCount })
                #expect(file.channelCount >= 1)
                decoded += 1
            } catch is AudioFileError {
                rejected += 1
            } catch {
                Issue.record("unexpected error type \(error)")
            }
        }
        var random = TestNoise(state: 2026)
        for seed in seeds {
            for length in 0..<seed.count { attempt(Array(seed[0..<length])) }
            for _ in 0..<4000 {
                var mutated = seed
                let flips = 1 + Int(random.next() % 4)
                for _ in 0..<flips {
                    let index = Int(random.next() % UInt64(mutated.count))
                    switch random.next() % 3 {
                    case 0: mutated[index] ^= UInt8(1 << (random.next() % 8))
                    case 1: mutated[index] = 0xFF
                    default: mutated[index] = UInt8(truncatingIfNeeded: random.next())
                    }
                }
                attempt(mutated)
            }
        }
        // Both outcomes happen, so the fuzzing reaches deep into the parsers.
        #expect(decoded > 1000)
        #expect(rejected > 500)
    }
}
