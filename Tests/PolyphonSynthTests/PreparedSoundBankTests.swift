import Foundation
import PolyphonSoundFont
import PolyphonTestSupport
import Testing
@testable import PolyphonSynth

/// A bank prepared once plays exactly as the bank itself, in every synthesizer made from it,
/// on any thread, and in either velocity → filter mode.
@Suite("Prepared sound banks")
struct PreparedSoundBankTests {
    /// Velocity 40 through a resonant filter: in the specification's mode the default modulator
    /// lowers the cutoff, in FluidSynth's it does not, so every sample depends on the mode.
    static func render(_ synth: Synthesizer) -> [Float] {
        synth.startNote(60, withVelocity: 40, onChannel: 0)
        synth.sendController(1, withValue: 90, onChannel: 0, atFrame: 300)
        synth.stopNote(60, onChannel: 0, atFrame: 9_000)
        let out = synth.renderSeconds(0.4)
        return out.left + out.right
    }

    static let bank = VelocityFilterOverrideTests.bank()

    @Test(arguments: VelocityToFilterMode.allCases, VelocityToFilterMode.allCases)
    func playsAsTheBankItself(prepared mode: VelocityToFilterMode, played: VelocityToFilterMode) throws {
        var configuration = SynthesizerConfiguration()
        configuration.velocityToFilter = played
        let prepared = PreparedSoundBank(Self.bank, velocityToFilter: mode)
        let direct = Self.render(try Synthesizer(soundBank: Self.bank, configuration: configuration))
        let shared = Self.render(try Synthesizer(preparedBank: prepared, configuration: configuration))
        #expect(Measure.db(Measure.rms(direct[...])) > -60)
        #expect(direct == shared)
    }

    @Test func theModesDiffer() throws {
        var spec = SynthesizerConfiguration()
        spec.velocityToFilter = .specification
        let prepared = PreparedSoundBank(Self.bank)
        #expect(Self.render(try Synthesizer(preparedBank: prepared)) != Self.render(try Synthesizer(preparedBank: prepared, configuration: spec)))
    }

    @Test func synthesizersOnSeveralThreadsShareOne() async throws {
        let prepared = PreparedSoundBank(Self.bank)
        let expected = Self.render(try Synthesizer(soundBank: Self.bank))
        let renders = try await withThrowingTaskGroup(of: [Float].self) { group in
            for _ in 0..<4 { group.addTask { Self.render(try Synthesizer(preparedBank: prepared)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(renders.count == 4)
        for r in renders { #expect(r == expected) }
    }
}
