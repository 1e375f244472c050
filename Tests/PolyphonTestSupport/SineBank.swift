import Foundation
import PolyphonSoundFont

/// Tiny banks for tests that need one to render with, every preset playing one looped sine.
public enum SineBank {
    /// `frameCount` points of a sine of period 100 samples (441 Hz at 44.1 kHz, A4 + 3.9 cents),
    /// amplitude 16000.
    public static func sine(frameCount: Int = 4400) -> [Int16] {
        (0..<frameCount).map { Int16((16000 * sin(2 * Double.pi * Double($0) / 100)).rounded()) }
    }

    /// A preset "Sine Lead" on 0:0 and a drum kit "Kit" on 128:0.
    public static func make() -> SoundFont {
        build(name: "CLI Test", presets: [("Sine Lead", 0, 0), ("Kit", 128, 0)])
    }

    /// A preset on every program a General MIDI song may ask for — "Sine 0" … "Sine 127" on
    /// bank 0 — and the drum kit "Sine drums" on 128:0, so that songs play their own programs.
    public static func everyProgram() -> SoundFont {
        build(name: "Sine", presets: (0..<128).map { ("Sine \($0)", 0, UInt16($0)) } + [("Sine drums", 128, 0)])
    }

    /// One instrument (the looped sine, released over half a second) under every preset given.
    private static func build(name: String, presets: [(name: String, bank: UInt16, program: UInt16)]) -> SoundFont {
        var b = SoundFont.Builder(name: name)
        let s = b.addSample(sine(), name: "sine", sampleRate: 44_100, originalPitch: 69, loop: 100..<4400)
        let inst = b.addInstrument("Sine", zones: [Zone(generators: [Generator(.sampleModes, 1), Generator(.releaseVolEnv, -1200),
                                                                      Generator(.sampleID, Int16(s))])])
        for preset in presets {
            b.addPreset(preset.name, bank: preset.bank, program: preset.program,
                        zones: [Zone(generators: [Generator(.instrument, Int16(inst))])])
        }
        return b.build()
    }
}
