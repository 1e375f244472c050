import Foundation
import Testing
@testable import PolyphonSFZCore

/// The `*sine`, `*saw`, `*square`, `*triangle` cycles, built from sfizz's harmonic profiles.
@Suite struct SFZGeneratorTests {
    /// The amplitude of harmonic `h` of a cycle (a plain DFT bin, scaled to peak amplitude).
    static func harmonic(_ cycle: [Float], _ h: Int) -> Double {
        var re = 0.0, im = 0.0
        let n = Double(cycle.count)
        for (i, x) in cycle.enumerated() {
            let phase = 2 * Double.pi * Double(h * i) / n
            re += Double(x) * cos(phase)
            im += Double(x) * sin(phase)
        }
        return 2 * (re * re + im * im).squareRoot() / n
    }

    @Test func theSineTableIsASine() {
        let table = SFZGenerator.sineTable(1024)
        #expect(abs(table[256] - 1) < 1e-15 && abs(table[768] + 1) < 1e-15 && abs(table[0]) < 1e-15)
        #expect(abs(table[128] - 0.5.squareRoot()) < 1e-15)
    }

    @Test func sineIsOneHarmonicAtFullScaleStartingDownwardsAsInSfizz() {
        let cycle = SFZGenerator.sine.cycle(pointCount: 256)
        #expect(abs(Self.harmonic(cycle, 1) - 1) < 1e-6)
        #expect(Self.harmonic(cycle, 2) < 1e-6)
        #expect(cycle[64] < -0.999)
    }

    @Test func sawAndSquareFollowTheirSeriesAtSfizzLevel() {
        let saw = SFZGenerator.saw.cycle(pointCount: 512, harmonicLimit: 20)
        let square = SFZGenerator.square.cycle(pointCount: 512, harmonicLimit: 20)
        let level = 0.816_496_580_927_726_1
        for h in 1...20 {
            #expect(abs(Self.harmonic(saw, h) - level * 2 / .pi / Double(h)) < 1e-5)
            let expected = h % 2 == 1 ? level * 4 / .pi / Double(h) : 0
            #expect(abs(Self.harmonic(square, h) - expected) < 1e-5)
        }
        #expect(Self.harmonic(saw, 21) < 1e-6)  // band-limited
        let triangle = SFZGenerator.triangle.cycle(pointCount: 512)
        #expect(abs(Self.harmonic(triangle, 3) - 8 / (.pi * .pi) / 9) < 1e-5)
        #expect(abs(triangle.max()! - 1) < 0.01)
    }

    @Test func generatorsWithoutPitchHaveNoCycle() {
        #expect(SFZGenerator.noise.cycle().isEmpty && SFZGenerator.silence.cycle().isEmpty)
        #expect(SFZGenerator(sampleName: "*tri") == .triangle && SFZGenerator(sampleName: "sine") == nil)
    }
}
