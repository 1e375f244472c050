import Foundation
import Testing
@testable import PolyphonSynth

/// Live comparison with the installed FluidSynth: the very send-bus signal FluidSynth's effect
/// received goes through ours, and the two outputs are measured alike.
@Suite(.enabled(if: RealFiles.available(RealFiles.fluidsynth)))
struct FluidSynthComparisonTests {
    let rate = Double(FluidSynthRenderer.sampleRate)

    @Test(arguments: [(0.2, 0.0, 8.0), (0.8, 0.5, 16.0)])
    func reverbImpulseResponseMatches(_ room: Double, _ damp: Double, _ seconds: Double) throws {
        try #require(FileManager.default.fileExists(atPath: RealFiles.fluidsynth))
        let fluid = try FluidSynthRenderer.measure(
            .reverb, sound: [1], options: ["synth.reverb.room-size=\(room)", "synth.reverb.damp=\(damp)",
                                           "synth.reverb.width=0.5", "synth.reverb.level=0.9"], seconds: seconds)
        let sendEnergy = SignalAnalysis.energy(fluid.send)
        try #require(sendEnergy > 0.01, "the click reached FluidSynth's reverb bus")
        let ours = SignalAnalysis.render(Reverb(sampleRate: rate, settings: ReverbSettings(roomSize: room, damping: damp)),
                                         input: fluid.send, frames: fluid.send.count)
        let fluidGain = SignalAnalysis.gainDB(fluid.effect, inputEnergy: sendEnergy)
        let ourGain = SignalAnalysis.gainDB(ours, inputEnergy: sendEnergy)
        #expect(abs(ourGain - fluidGain) < 0.5, "wet level ours \(ourGain) dB, FluidSynth \(fluidGain) dB")
        let fluidRT = SignalAnalysis.rt60(energy: SignalAnalysis.stereoEnergy(fluid.effect), sampleRate: rate)
        let ourRT = SignalAnalysis.rt60(energy: SignalAnalysis.stereoEnergy(ours), sampleRate: rate)
        #expect(abs(ourRT / fluidRT - 1) < 0.05, "RT60 ours \(ourRT) s, FluidSynth \(fluidRT) s")
        for centre in [250.0, 8000] {
            let f = SignalAnalysis.band(fluid.effect, centre: centre, sampleRate: rate).rt60
            let o = SignalAnalysis.band(ours, centre: centre, sampleRate: rate).rt60
            #expect(abs(o / f - 1) < 0.10, "\(centre) Hz RT60 ours \(o) s, FluidSynth \(f) s")
        }
        // The first echo arrives when FluidSynth's does (its shortest line, ~59 ms).
        func onset(_ s: SignalAnalysis.Stereo) -> Int {
            let peak = s.left.map { abs($0) }.max() ?? 0
            return s.left.firstIndex { abs($0) > 0.1 * peak } ?? 0
        }
        #expect(abs(onset(ours) - onset(fluid.effect)) < 20, "first echo ours \(onset(ours)), FluidSynth \(onset(fluid.effect))")
    }

    @Test func chorusLevelMatches() throws {
        try #require(FileManager.default.fileExists(atPath: RealFiles.fluidsynth))
        let noise = EffectTestSignals.noise(Int(2 * rate))
        let fluid = try FluidSynthRenderer.measure(.chorus, sound: noise, options: [], seconds: 3)
        let sendEnergy = SignalAnalysis.energy(fluid.send)
        try #require(sendEnergy > 1, "the noise reached FluidSynth's chorus bus")
        let ours = SignalAnalysis.render(Chorus(sampleRate: rate), input: fluid.send, frames: fluid.send.count)
        let fluidGain = SignalAnalysis.gainDB(fluid.effect, inputEnergy: sendEnergy)
        let ourGain = SignalAnalysis.gainDB(ours, inputEnergy: sendEnergy)
        #expect(abs(ourGain - fluidGain) < 0.5, "chorus level ours \(ourGain) dB, FluidSynth \(fluidGain) dB")
        let fluidCorrelation = SignalAnalysis.correlation(fluid.effect), ourCorrelation = SignalAnalysis.correlation(ours)
        #expect(abs(ourCorrelation - fluidCorrelation) < 0.1, "L/R correlation ours \(ourCorrelation), FluidSynth \(fluidCorrelation)")
    }
}
