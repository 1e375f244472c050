import Foundation
import PolyphonMIDI
import Testing
import PolyphonTestSupport
import PolyphonSoundFont
@testable import PolyphonBuiltInBank
@testable import PolyphonSynth

/// The built-in bank plays General MIDI songs at FluidR3_GM's level: every program and every
/// drum of the kit, at several velocities and in the registers songs play them in, measured
/// against FluidR3_GM (both banks rendered by Polyphon, effects off), and songs built from
/// random programs within ±3 dB of it.
///
/// The level set is what ``GeneralMIDIPrograms/loudnessTrim`` and the kit's drum gains were set
/// from: the test prints each program's and drum's difference, which is how much to take off
/// its trim.
@Suite("Built-in GM bank: level against FluidR3_GM",
       .enabled(if: RealFiles.available(RealFiles.fluidR3)))
struct GeneralMIDILevelTests {
    /// A lower rate than songs are rendered at: half the work, and level is the same.
    static let rate = 22_050.0
    static let velocities: [UInt8] = [50, 85, 115]

    static let reference: SoundFont? = try? SoundFont(contentsOf: RealFiles.fluidR3)

    /// The keys a program is played in: four across the register General MIDI songs give its
    /// instrument (bass an octave and a half up from E1, piccolo from D5, …).
    static func keys(program: Int) -> [UInt8] {
        let range: ClosedRange<Int>
        switch program {
        case 32...39, 43, 58: range = 28...55                 // basses, contrabass, tuba
        case 40, 110: range = 55...91                         // violin, fiddle
        case 41: range = 48...84
        case 42, 70: range = 36...69                          // cello, bassoon
        case 47, 116, 117: range = 36...57                    // timpani, taiko, melodic tom
        case 8...15, 72...79, 112, 113: range = 60...93       // bells, mallets, flutes, pipes
        case 56, 59, 64, 68, 71: range = 57...86              // trumpet, muted trumpet, soprano sax, oboe, clarinet
        case 57, 67: range = 40...72                          // trombone, baritone sax
        case 24...31: range = 40...76                         // guitars
        default: range = 43...81
        }
        return (0..<4).map { UInt8(range.lowerBound + (range.upperBound - range.lowerBound) * $0 / 3) }
    }

    /// One program's phrase: every key at every velocity, 0.25 s held and 0.3 s apart, then a
    /// long note (1.2 s) in the middle of its register and 0.8 s of release.
    static func programPhrase(_ program: Int) -> [(seconds: Double, message: MIDIMessage)] {
        var events: [(Double, MIDIMessage)] = [(0, .programChange(channel: 0, program: UInt8(program)))]
        var t = 0.01
        for key in keys(program: program) {
            for velocity in velocities {
                events.append((t, .noteOn(channel: 0, note: key, velocity: velocity)))
                events.append((t + 0.25, .noteOff(channel: 0, note: key, velocity: 0)))
                t += 0.3
            }
        }
        let middle = keys(program: program)[1]
        events.append((t, .noteOn(channel: 0, note: middle, velocity: 90)))
        events.append((t + 1.2, .noteOff(channel: 0, note: middle, velocity: 0)))
        events.append((t + 2, .controlChange(channel: 0, controller: 7, value: 100)))
        return events
    }

    /// One drum's hits: each velocity twice, 0.35 s apart (one-tick notes, as drum tracks write them).
    static func drumPhrase(_ key: UInt8) -> [(seconds: Double, message: MIDIMessage)] {
        var events: [(Double, MIDIMessage)] = []
        var t = 0.01
        for velocity in velocities {
            for _ in 0..<2 {
                events.append((t, .noteOn(channel: 9, note: key, velocity: velocity)))
                events.append((t + 0.01, .noteOff(channel: 9, note: key, velocity: 0)))
                t += 0.35
            }
        }
        events.append((t + 1.2, .controlChange(channel: 9, controller: 7, value: 100)))
        return events
    }

    /// Energy (sum of squares of both channels) of a render of `events`, effects off.
    static func energy(_ bank: SoundFont, _ events: [(seconds: Double, message: MIDIMessage)]) throws -> Double {
        var configuration = SynthesizerConfiguration()
        configuration.reverbEnabled = false
        configuration.chorusEnabled = false
        let synth = try Synthesizer(soundBank: bank, sampleRate: rate, configuration: configuration)
        for e in events { synth.send(e.message, atFrame: Int(e.seconds * rate)) }
        let out = synth.renderSeconds((events.map(\.seconds).max() ?? 0) + 0.01, block: 4096)
        var sum = 0.0
        for i in out.left.indices { sum += Double(out.left[i] * out.left[i] + out.right[i] * out.right[i]) }
        return sum
    }

    /// Built-in minus FluidR3_GM, dB.
    static func difference(_ events: [(seconds: Double, message: MIDIMessage)]) throws -> Double {
        let reference = try #require(Self.reference, "FluidR3_GM is required under CI")
        let ours = try energy(BuiltInBankSupport.bank, events), theirs = try energy(reference, events)
        return 10 * log10(max(ours, 1e-30) / max(theirs, 1e-30))
    }

    /// Every program within ±1.5 dB of FluidR3_GM's over its phrase; sixteen programs a case,
    /// so the cases render in parallel.
    @Test(arguments: 0..<8)
    func everyProgramPlaysAtFluidR3sLevel(group: Int) throws {
        let programs = Array(group * 16..<(group + 1) * 16)
        let differences = try programs.map { try Self.difference(Self.programPhrase($0)) }
        let table = zip(programs, differences).map { String(format: "%d:%+.1f", $0.0, $0.1) }
        print("program level − FluidR3_GM (dB): " + table.joined(separator: " "))
        for (program, d) in zip(programs, differences) {
            #expect(abs(d) <= 1.5, "program \(program) \(BuiltInBankSupport.bank.presets[program].name): \(String(format: "%+.2f", d)) dB")
        }
    }

    /// Every drum of the kit within ±2 dB of FluidR3_GM's, the kit as a whole within ±1 dB.
    @Test func everyDrumPlaysAtFluidR3sLevel() throws {
        var table: [String] = []
        for drum in GeneralMIDIDrumKit.drums {
            let d = try Self.difference(Self.drumPhrase(drum.key))
            table.append(String(format: "%d:%+.1f", drum.key, d))
            #expect(abs(d) <= 2, "drum \(drum.key) \(drum.name): \(String(format: "%+.2f", d)) dB")
        }
        print("drum level − FluidR3_GM (dB): " + table.joined(separator: " "))
    }

    /// General MIDI songs built from random programs, registers, velocities and drums: each
    /// within ±3 dB of FluidR3_GM.
    @Test(arguments: 0..<4)
    func randomGeneralMIDISongsPlayAtFluidR3sLevel(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(1000 + seed))
        var events: [(seconds: Double, message: MIDIMessage)] = []
        let seconds = 8.0
        for channel in 0..<5 {
            let program = Int(random.next() % 128)
            events.append((0, .programChange(channel: UInt8(channel), program: UInt8(program))))
            events.append((0, .controlChange(channel: UInt8(channel), controller: 7, value: UInt8(70 + random.next() % 58))))
            let keys = Self.keys(program: program)
            var t = Double(random.next() % 100) / 100
            while t < seconds {
                let key = keys[0] + UInt8(random.next() % UInt64(keys[3] - keys[0] + 1))
                let length = [0.15, 0.3, 0.6, 1.2, 2.4][Int(random.next() % 5)]
                events.append((t, .noteOn(channel: UInt8(channel), note: key, velocity: UInt8(40 + random.next() % 88))))
                events.append((t + length, .noteOff(channel: UInt8(channel), note: key, velocity: 0)))
                t += length * Double(1 + random.next() % 2)
            }
        }
        let groove: [UInt8] = [36, 42, 38, 42, 36, 46, 38, 42]
        for (i, t) in stride(from: 0.0, to: seconds, by: 0.25).enumerated() {
            let key = random.next() % 6 == 0 ? UInt8(35 + random.next() % 47) : groove[i % groove.count]
            events.append((t, .noteOn(channel: 9, note: key, velocity: UInt8(60 + random.next() % 60))))
            events.append((t + 0.02, .noteOff(channel: 9, note: key, velocity: 0)))
        }
        events.append((seconds + 2, .controlChange(channel: 0, controller: 7, value: 100)))
        let programs = events.compactMap { e -> Int? in
            if case .programChange(_, let p) = e.message { return Int(p) }
            return nil
        }
        let d = try Self.difference(events.sorted { $0.seconds < $1.seconds })
        print(String(format: "song %d (programs %@ and drums): %+.2f dB", seed, programs.map(String.init).joined(separator: ","), d))
        #expect(abs(d) <= 3, "song \(seed), programs \(programs): \(String(format: "%+.2f", d)) dB")
    }
}
