import Foundation
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore
@_exported import PolyphonTestSupport

/// Banks built in code for the tests, and the few helpers that poke at their bytes.
enum TestBanks {
    static func sine(_ count: Int, period: Double = 32, amplitude: Double = 20_000) -> [Int16] {
        (0..<count).map { Int16(amplitude * sin(2 * Double.pi * Double($0) / period)) }
    }

    /// A bank that uses every part of the format: all INFO fields, mono and stereo samples (one
    /// of odd length), instruments and presets with global zones, ranges, generators and
    /// modulators, reserved preset-header fields. Generators are in the spec's order so the
    /// writer keeps them as they are.
    static func rich(twentyFourBit: Bool = false) -> SoundFont {
        var b = SoundFont.Builder(name: "Rich test bank")
        b.info.versionMinor = 4
        b.info.soundEngine = "E-mu 10K2"
        b.info.romName = "TESTROM"
        b.info.romVersionMajor = 1
        b.info.romVersionMinor = 2
        b.info.creationDate = "November 22, 2026"
        b.info.engineers = "Polyphon tests"
        b.info.product = "SBAWE32"
        b.info.copyright = "Public domain"
        b.info.comments = "Line one\nLine two — with UTF-8"
        b.info.software = "Polyphon:Polyphon"

        let sinePCM = sine(101)
        let sineLow: [UInt8]? = twentyFourBit ? (0..<101).map { UInt8(truncatingIfNeeded: $0 * 7) } : nil
        let sineIndex = b.addSample(sinePCM, lowBytes: sineLow, name: "Sine A4", sampleRate: 44_100,
                                    originalPitch: 69, pitchCorrection: -7, loop: 8..<72)
        let left = b.addSample(sine(64, period: 16), name: "Pad L", sampleRate: 32_000, originalPitch: 60,
                               sampleType: .left, sampleLink: 2)
        let right = b.addSample(sine(64, period: 8), name: "Pad R", sampleRate: 32_000, originalPitch: 60,
                                sampleType: .right, sampleLink: 1)

        let vibrato = Modulator(source: .cc(1), destination: .vibLfoToPitch, amount: 80)
        let brightness = Modulator(source: .cc(74, isBipolar: true), destination: .initialFilterFc, amount: 2400,
                                   amountSource: .cc(2), transform: 2)
        let lead = b.addInstrument(
            "Lead",
            globalZone: Zone(generators: [Generator(.attackVolEnv, -3000), Generator(.releaseVolEnv, 1200)],
                             modulators: [vibrato]),
            zones: [
                Zone(generators: [Generator.range(.keyRange, 0...63), Generator.range(.velRange, 1...100),
                                  Generator(.sampleModes, 1), Generator(.overridingRootKey, 57),
                                  Generator(.sampleID, Int16(sineIndex))],
                     modulators: [brightness]),
                Zone(generators: [Generator.range(.keyRange, 64...127), Generator(.coarseTune, -12),
                                  Generator(.fineTune, 17), Generator(.initialAttenuation, 60),
                                  Generator(.sampleID, Int16(sineIndex))]),
            ])
        let pad = b.addInstrument("Pad", zones: [
            Zone(generators: [Generator(.pan, -500), Generator(.sampleID, Int16(left))]),
            Zone(generators: [Generator(.pan, 500), Generator(.sampleID, Int16(right))]),
        ])
        b.addPreset("Lead", bank: 0, program: 80,
                    globalZone: Zone(generators: [Generator(.reverbEffectsSend, 200)],
                                     modulators: [Modulator(source: .cc(91), destination: .reverbEffectsSend, amount: 100)]),
                    zones: [Zone(generators: [Generator.range(.keyRange, 24...108), Generator(.coarseTune, 1),
                                              Generator(.instrument, Int16(lead))])])
        b.addPreset("Pad", bank: 8, program: 89, zones: [
            Zone(generators: [Generator(.instrument, Int16(pad))]),
            Zone(generators: [Generator.range(.velRange, 100...127), Generator(.initialAttenuation, -30),
                              Generator(.instrument, Int16(lead))]),
        ])
        b.presets[1].library = 7
        b.presets[1].genre = 0xDEAD_BEEF
        b.presets[1].morphology = 42
        b.addPreset("Drums", bank: 128, program: 0, zones: [Zone(generators: [Generator(.instrument, Int16(pad))])])
        return b.build()
    }

    /// The chunks of a RIFF body range, located by the reader's own walker.
    static func chunks(_ bytes: [UInt8], in range: Range<Int>) throws -> [RIFFChunk] {
        var warnings: [SoundFontWarning] = []
        return try bytes.withUnsafeBytes {
            try RIFFChunkWalker.chunks(in: $0, range: range, container: "test", file: "test", warnings: &warnings)
        }
    }

    /// The `LIST` chunk of the given type at the top level of a SoundFont file.
    static func list(_ type: String, in bytes: [UInt8]) throws -> RIFFChunk {
        let top = try chunks(bytes, in: 12..<bytes.count)
        guard let list = top.first(where: { String(decoding: bytes[$0.dataOffset..<($0.dataOffset + 4)], as: UTF8.self) == type })
        else { throw TestFailure("no \(type) list") }
        return list
    }

    /// A sub-chunk of the `pdta` list (or of `sdta`/`INFO`).
    static func chunk(_ id: String, in bytes: [UInt8], list type: String = "pdta") throws -> RIFFChunk {
        let list = try list(type, in: bytes)
        let subs = try chunks(bytes, in: (list.dataOffset + 4)..<list.dataRange.upperBound)
        guard let chunk = subs.first(where: { $0.id == id }) else { throw TestFailure("no \(id) chunk") }
        return chunk
    }

    /// The file with one `pdta` (or other list's) sub-chunk's data replaced; nil removes the chunk.
    /// Rebuilds all sizes so only the intended fault is present.
    static func replacing(_ id: String, with data: [UInt8]?, in bytes: [UInt8], list type: String = "pdta") throws -> [UInt8] {
        var out = RIFFWriter()
        let riff = out.begin("RIFF")
        out.fourCC("sfbk")
        for list in try chunks(bytes, in: 12..<bytes.count) {
            let listType = String(decoding: bytes[list.dataOffset..<(list.dataOffset + 4)], as: UTF8.self)
            let l = out.begin("LIST")
            out.fourCC(listType)
            for sub in try chunks(bytes, in: (list.dataOffset + 4)..<list.dataRange.upperBound) {
                var content = Array(bytes[sub.dataRange])
                if listType == type && sub.id == id {
                    guard let data else { continue }
                    content = data
                }
                let c = out.begin(sub.id)
                out.bytes += content
                out.end(c)
            }
            out.end(l)
        }
        out.end(riff)
        return out.bytes
    }

    static func putU16(_ value: UInt16, at offset: Int, in bytes: inout [UInt8]) {
        bytes[offset] = UInt8(truncatingIfNeeded: value)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
    }

    static func putU32(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> UInt32(8 * i)) }
    }
}



