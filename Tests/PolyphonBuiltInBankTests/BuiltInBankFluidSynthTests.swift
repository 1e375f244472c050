import Foundation
import Testing
import PolyphonMIDI
import PolyphonSoundFont
@testable import PolyphonBuiltInBank
@testable import PolyphonSynth
import PolyphonTestSupport

/// The exported .sf2 is a regular SoundFont: FluidSynth loads it and renders a song at the
/// same level and with the same spectrum as Polyphon does from the bank in memory.
@Suite("Built-in GM bank: FluidSynth") struct BuiltInBankFluidSynthTests {
    /// One per family: program, then the chord it plays.
    static let programs = [0, 4, 11, 14, 16, 19, 21, 24, 27, 30, 33, 38, 40, 48, 52, 56, 61, 65, 68, 71, 73, 75,
                           80, 81, 89, 91, 95, 104, 108, 114, 122]
    static let segmentSeconds = 1.5
    static let ticksPerSecond = 960.0 // 480 PPQN at 120 BPM

    /// A format-0 song: each program plays a C major chord for 1 s in its own 1.5 s segment,
    /// then a drum groove (kick, snare, hats, crash, toms) on channel 10.
    static func song() -> MIDIFile {
        var events: [MIDIEvent] = [MIDIEvent(tick: 0, message: .meta(.tempo(microsecondsPerQuarterNote: 500_000)))]
        for (i, program) in programs.enumerated() {
            let start = Int(Double(i) * segmentSeconds * ticksPerSecond)
            events.append(MIDIEvent(tick: start, message: .programChange(channel: 0, program: UInt8(program))))
            for key: UInt8 in [48, 60, 64, 67] {
                events.append(MIDIEvent(tick: start, message: .noteOn(channel: 0, note: key, velocity: 100)))
                events.append(MIDIEvent(tick: start + 960, message: .noteOff(channel: 0, note: key, velocity: 64)))
            }
        }
        let drumStart = Int(Double(programs.count) * segmentSeconds * ticksPerSecond)
        for step in 0..<16 {
            let t = drumStart + step * 240
            var keys: [UInt8] = [42]
            if step % 4 == 0 { keys.append(36) }
            if step % 8 == 4 { keys.append(38) }
            if step == 0 { keys.append(49) }
            if step >= 12 { keys.append([50, 47, 45, 41][step - 12]) }
            for key in keys {
                events.append(MIDIEvent(tick: t, message: .noteOn(channel: 9, note: key, velocity: 100)))
                events.append(MIDIEvent(tick: t + 120, message: .noteOff(channel: 9, note: key, velocity: 0)))
            }
        }
        events.sort { $0.tick < $1.tick }
        return MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDITrack(events: events)])
    }

    /// Polyphon's render of the song at gain 0.2, effects off, sample-accurate event times,
    /// FluidSynth's whole-cent pitch and block timing.
    static func renderWithPolyphon(_ song: MIDIFile, seconds: Double) throws -> [Float] {
        let synth = try BuiltInBankSupport.synthesizer(fluidSynthCompatible: true)
        let total = Int(seconds * 44100)
        var out = [Float](repeating: 0, count: total)
        var frame = 0
        func advance(to target: Int) {
            while frame < min(target, total) {
                let n = min(512, min(target, total) - frame)
                let (l, r) = synth.render(frameCount: n)
                for i in 0..<n { out[frame + i] = (l[i] + r[i]) / 2 }
                frame += n
            }
        }
        for event in song.tracks[0].events {
            advance(to: Int((Double(event.tick) / ticksPerSecond * 44100).rounded()))
            switch event.message {
            case .noteOn(let c, let k, let v): synth.startNote(k, withVelocity: v, onChannel: c)
            case .noteOff(let c, let k, _): synth.stopNote(k, onChannel: c)
            case .programChange(let c, let p): synth.sendProgramChange(p, onChannel: c)
            default: break
            }
        }
        advance(to: total)
        return out
    }

    /// The mono sum of a 16-bit PCM WAV file as written by FluidSynth.
    static func readWAV(_ url: URL) throws -> [Float] {
        let bytes = [UInt8](try Data(contentsOf: url))
        func u32(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16 | Int(bytes[o + 3]) << 24 }
        func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
        try #require(bytes.count >= 12 && Array(bytes[0..<4]) == Array("RIFF".utf8) && Array(bytes[8..<12]) == Array("WAVE".utf8))
        var offset = 12, channels = 2, bits = 16
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self), size = u32(offset + 4)
            if id == "fmt " { channels = u16(offset + 10); bits = u16(offset + 22) }
            if id == "data" {
                try #require(bits == 16, "FluidSynth wrote \(bits)-bit samples")
                let end = min(bytes.count, offset + 8 + size)
                let frames = (end - offset - 8) / (2 * channels)
                return (0..<frames).map { f in
                    var sum: Float = 0
                    for c in 0..<channels {
                        sum += Float(Int16(bitPattern: UInt16(u16(offset + 8 + (f * channels + c) * 2))))
                    }
                    return sum / Float(channels) / 32768
                }
            }
            offset += 8 + size + (size & 1)
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.fluidsynth)))
    func fluidSynthRendersTheExportedBankLikePolyphon() throws {
        try #require(FileManager.default.isExecutableFile(atPath: RealFiles.fluidsynth))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("polyphon-gm-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sf2 = dir.appendingPathComponent("gm.sf2"), mid = dir.appendingPathComponent("song.mid")
        let wav = dir.appendingPathComponent("out.wav")
        try BuiltInBankSupport.bank.write(to: sf2)
        let song = Self.song()
        try song.write(to: mid)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: RealFiles.fluidsynth)
        process.arguments = ["-ni", "-q", "-R", "0", "-C", "0", "-g", "0.2", "-r", "44100", "-F", wav.path, sf2.path, mid.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let fluid = try Self.readWAV(wav)
        let seconds = Double(Self.programs.count) * Self.segmentSeconds + 4.5
        let ours = try Self.renderWithPolyphon(song, seconds: seconds)
        let n = min(fluid.count, ours.count)
        let whole = Measure.db(Measure.rms(ours[0..<n])) - Measure.db(Measure.rms(fluid[0..<n]))
        var lines = ["whole song: Polyphon − FluidSynth = \(String(format: "%+.2f", whole)) dB"]
        var worstLevel = 0.0, distances: [Double] = []
        var segments = Self.programs.enumerated().map { ($0.offset, "program \($0.element)") }
        segments.append((Self.programs.count, "drums"))
        for (i, label) in segments {
            let a = Int(Double(i) * Self.segmentSeconds * 44100), b = min(n, a + (label == "drums" ? 44100 * 2 : 44100))
            guard b - a > 8192 else { continue }
            let level = Measure.db(Measure.rms(ours[a..<b])) - Measure.db(Measure.rms(fluid[a..<b]))
            let lsd = SpectrumAnalysis.logSpectralDistance(SpectrumAnalysis.magnitudes(ours[a..<b]),
                                                           SpectrumAnalysis.magnitudes(fluid[a..<b]), rate: 44100)
            worstLevel = max(worstLevel, abs(level))
            distances.append(lsd)
            lines.append("\(label): level \(String(format: "%+.2f", level)) dB, log-spectral distance \(String(format: "%.2f", lsd)) dB")
        }
        let wholeLSD = SpectrumAnalysis.logSpectralDistance(SpectrumAnalysis.magnitudes(ours[0..<n]),
                                                            SpectrumAnalysis.magnitudes(fluid[0..<n]), rate: 44100)
        lines.append("whole song log-spectral distance \(String(format: "%.2f", wholeLSD)) dB; worst segment level \(String(format: "%.2f", worstLevel)) dB")
        print(lines.joined(separator: "\n"))
        #expect(abs(whole) < 1.5, "whole-song level differs by \(whole) dB")
        #expect(wholeLSD < 2, "whole-song spectra differ by \(wholeLSD) dB")
        #expect(worstLevel < 3, "a segment's level differs by \(worstLevel) dB")
        #expect(distances.allSatisfy { $0 < 4 }, "segment spectral distances \(distances)")
    }
}
