import Foundation
import PolyphonSoundFont

/// A tiny bank for tests that need one to render with: a looped sine preset "Sine Lead" on 0:0
/// and a drum kit "Kit" on 128:0 playing the same sine.
public enum SineBank {
    public static func make() -> SoundFont {
        let pcm = (0..<4400).map { Int16((16000 * sin(2 * Double.pi * Double($0) / 100)).rounded()) }
        var b = SoundFont.Builder(name: "CLI Test")
        let s = b.addSample(pcm, name: "sine", sampleRate: 44_100, originalPitch: 69, loop: 100..<4400)
        let inst = b.addInstrument("Sine", zones: [Zone(generators: [Generator(.sampleModes, 1), Generator(.releaseVolEnv, -1200),
                                                                      Generator(.sampleID, Int16(s))])])
        b.addPreset("Sine Lead", bank: 0, program: 0, zones: [Zone(generators: [Generator(.instrument, Int16(inst))])])
        b.addPreset("Kit", bank: 128, program: 0, zones: [Zone(generators: [Generator(.instrument, Int16(inst))])])
        return b.build()
    }
}
