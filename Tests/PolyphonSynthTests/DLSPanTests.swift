import Foundation
import PolyphonSoundFont
import Testing
@testable import PolyphonSynth

/// DLS regions are placed by their `wlnk` channel bits: bit 0 is "mono, or the left of a
/// stereo pair". A bank converted from SF2 (SpessaSynth writes channel 1 on every mono region,
/// as in FluidSynth's VintageDreamsWaves-v2.dls) must play centred, as its SF2 twin and
/// FluidSynth 2.6 do; a real stereo pair stays left and right.
@Suite("DLS stereo placement")
struct DLSPanTests {
    typealias W = DLSTestWriter

    /// A looped 441 Hz sine at 44.1 kHz, recorded at key 69.
    static var sine: W.Wave { W.Wave(name: "Sine", pcm16: (0..<4_400).map { Int16((12_000 * sin(2 * Double.pi * Double($0) / 100)).rounded()) },
                             sampleRate: 44_100, sample: W.WaveSample(unityNote: 69, loop: (type: 0, start: 100, length: 4_300))) }

    /// Right over left (dB) of a note on the bank's program 0.
    static func balance(_ regions: [W.Region]) throws -> Double {
        let bytes = W.collection([W.Instrument(name: "Lead", regions: regions)], waves: [sine])
        let bank = try SoundFont(dlsBytes: bytes, name: "pan.dls")
        let synth = try Synthesizer(soundBank: bank, configuration: .dry)
        synth.startNote(69, withVelocity: 100, onChannel: 0)
        let out = synth.renderSeconds(0.3)
        let from = out.frame(0.1)
        return Measure.db(Measure.rms(out.right[from...]) / max(Measure.rms(out.left[from...]), 1e-30))
    }

    @Test func aMonoRegionOnChannelOnePlaysCentred() throws {
        #expect(abs(try Self.balance([W.Region(channel: 1)])) < 0.01)
        #expect(abs(try Self.balance([W.Region(channel: 0)])) < 0.01)
        // A lone right-channel region has no pair either.
        #expect(abs(try Self.balance([W.Region(channel: 2)])) < 0.01)
    }

    @Test func aStereoPairStaysLeftAndRight() throws {
        let bytes = W.collection([W.Instrument(name: "Pair", regions: [W.Region(keys: 0...127, channel: 1),
                                                                       W.Region(keys: 0...127, channel: 2)])],
                                 waves: [Self.sine])
        let zones = try SoundFont(dlsBytes: bytes, name: "pair.dls").instruments[0].zones
        #expect(zones.map { $0.value(of: .pan) } == [-500, 500])
        // Left alone with a partner on other keys, channel 1 is mono again.
        #expect(abs(try Self.balance([W.Region(keys: 0...80, channel: 1), W.Region(keys: 81...127, channel: 2)])) < 0.01)
    }
}
