import Foundation
import PolyphonMIDI
import PolyphonSoundFont
import PolyphonTestSupport

/// Small real inputs for running the documentation's code: banks and songs built in code and
/// written to a temporary directory, so every snippet runs on any machine.
enum SnippetFixtures {
    /// One second of a 440 Hz sine at 44.1 kHz, full scale × 0.5, looped over its last 100 periods.
    static let sinePoints: [Int16] = (0..<44_100).map { i in
        Int16((sin(2 * Double.pi * 440 * Double(i) / 44_100) * 16_000).rounded())
    }

    /// A bank whose every preset a song may ask for (bank 0, programs 0…127, and the drum kit)
    /// plays a looped sine at A4 (key 69).
    static func sineBank() -> SoundFont {
        var builder = SoundFont.Builder(name: "Sine")
        let sample = builder.addSample(sinePoints, name: "sine", sampleRate: 44_100, originalPitch: 69,
                                       loop: 0..<44_000)
        let instrument = builder.addInstrument("Sine", zones: [
            Zone(generators: [Generator(.sampleModes, 1), Generator(.sampleID, Int16(sample))]),
        ])
        for program in 0..<128 {
            builder.addPreset("Sine \(program)", bank: 0, program: UInt16(program),
                              zones: [Zone(generators: [Generator(.instrument, Int16(instrument))])])
        }
        builder.addPreset("Sine drums", bank: 128, program: 0,
                          zones: [Zone(generators: [Generator(.instrument, Int16(instrument))])])
        return builder.build()
    }

    /// ``sineBank()`` written as an .sf2 file in `directory`.
    static func sineBankFile(in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("sine.sf2")
        try sineBank().write(to: path)
        return path
    }
}
