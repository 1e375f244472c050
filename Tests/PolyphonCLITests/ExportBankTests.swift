import Foundation
import Testing
import PolyphonSoundFont

/// `polyphon export-bank`: the built-in bank, and per-preset subsets of a bank file.
@Suite struct ExportBankTests {
    @Test func aPresetSubsetHoldsOnlyThatPreset() throws {
        let out = CLI.workDirectory + "/kit-\(UUID().uuidString).sf2"
        let r = try CLI.run(["export-bank", try CLI.bankFile(), "--preset", "128:0", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let subset = try SoundFont(contentsOf: out)
        #expect(subset.presets.map(\.name) == ["Kit"])
        #expect(subset.samples.count == 1)

        let missing = try CLI.run(["export-bank", try CLI.bankFile(), "--preset", "5:5", "-o", out])
        #expect(missing.status == 1)
        #expect(missing.stderr.split(separator: "\n").count == 1)
        #expect(missing.stderr.contains("no preset 5:5"))
        let bad = try CLI.run(["export-bank", try CLI.bankFile(), "--preset", "x", "-o", out])
        #expect(bad.status == 64)
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.museScore)))
    func anSF3PresetIsWrittenDecoded() throws {
        let out = CLI.workDirectory + "/violin-\(UUID().uuidString).sf2"
        let r = try CLI.run(["export-bank", RealFiles.museScore, "--preset", "0:40", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let subset = try SoundFont(contentsOf: out)
        #expect(subset.presets.count == 1)
        #expect(subset.samples.allSatisfy { !$0.sampleType.isCompressed })
        #expect(subset.info.versionMajor == 2)
    }
}
