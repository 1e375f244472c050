import Foundation
import PolyphonSoundFont
import Testing
@testable import PolyphonSynth

/// A DLS LFO runs at DLS's default 5 Hz unless the articulation sets its frequency, and a set
/// frequency is the frequency (FluidSynth 2.6 adds it to the default: FluidSynth's own
/// VintageDreamsWaves-v2.dls "Panned Stack" sets −884 cents, 4.9 Hz as its SF2 twin plays, and
/// FluidSynth 2.6 plays it at 3.0 Hz).
@Suite("DLS LFO defaults")
struct DLSLFOTests {
    typealias W = DLSTestWriter
    typealias S = DLSConnection.Source
    typealias D = DLSConnection.Destination

    static func connection(_ source: UInt16, _ destination: UInt16, _ units: Double) -> DLSConnection {
        DLSConnection(source: source, control: S.none, destination: destination, transform: 0,
                      scale: Int32((units * 65536).rounded()))
    }

    /// The tremolo rate (Hz) of a sine whose LFO swings the gain by ±6 dB, with `connections` added.
    static func tremoloRate(_ connections: [DLSConnection]) throws -> Double {
        let sine = W.Wave(name: "Sine", pcm16: (0..<4_400).map { Int16((12_000 * sin(2 * Double.pi * Double($0) / 100)).rounded()) },
                          sampleRate: 44_100, sample: W.WaveSample(unityNote: 69, loop: (type: 0, start: 100, length: 4_300)))
        let instrument = W.Instrument(name: "Tremolo", regions: [W.Region()],
                                      connections: [connection(S.lfo, D.gain, -60)] + connections)
        let bank = try SoundFont(dlsBytes: W.collection([instrument], waves: [sine]), name: "lfo.dls")
        let synth = try Synthesizer(soundBank: bank, configuration: .dry)
        synth.startNote(69, withVelocity: 100, onChannel: 0)
        let out = synth.renderSeconds(2.2)
        // Level in 10 ms windows from 0.2 s on, its mean removed: the LFO's own wave, 100 per second.
        let window = 441
        let levels = stride(from: out.frame(0.2), to: out.frame(2.2) - window, by: window).map {
            Measure.db(Measure.rms(out.left[$0..<($0 + window)]))
        }
        let mean = levels.reduce(0, +) / Double(levels.count)
        return Measure.frequency(ArraySlice(levels.map { Float($0 - mean) }), rate: 100)
    }

    @Test func withoutAFrequencyTheLFORunsAtFiveHertz() throws {
        let rate = try Self.tremoloRate([])
        #expect(abs(rate - 5) < 0.1, "\(rate) Hz")
    }

    @Test func aSetFrequencyReplacesTheDefault() throws {
        // −884 cents: 8.176 Hz × 2^(−884/1200) = 4.91 Hz (3.0 Hz if added to the default's −851).
        let rate = try Self.tremoloRate([Self.connection(S.none, D.lfoFrequency, -884)])
        #expect(abs(rate - 4.91) < 0.1, "\(rate) Hz")
    }
}
