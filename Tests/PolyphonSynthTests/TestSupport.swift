import Foundation
import PolyphonSoundFont
@testable import PolyphonSynth
@_exported import PolyphonTestSupport

/// Tiny banks built in code and measurements on rendered audio.
enum TestBank {
    /// One period of 100 points at 44 kHz = exactly 440 Hz, recorded at key 69.
    static let sineRate: UInt32 = 44000
    static let sinePeriod = 100

    /// A looped sine sample (whole periods), with the 46 zero points the spec asks for after it.
    static func sineSamples(periods: Int = 20, amplitude: Double = 0.5) -> [Int16] {
        let n = sinePeriod * periods
        var s = (0..<n).map { i in Int16((amplitude * 32767 * sin(2 * Double.pi * Double(i) / Double(sinePeriod))).rounded()) }
        s += [Int16](repeating: 0, count: 46)
        return s
    }

    /// A bank with one preset (bank 0, program 0 unless given) → one instrument → one zone
    /// playing a looped sine, with extra instrument generators and modulators.
    static func sine(generators: [Generator] = [], modulators: [Modulator] = [],
                     presetGenerators: [Generator] = [], presetModulators: [Modulator] = [],
                     loopMode: Int16 = 1, rootKey: UInt8 = 69, pitchCorrection: Int8 = 0,
                     bank: UInt16 = 0, program: UInt16 = 0, amplitude: Double = 0.5) -> SoundFont {
        let data = sineSamples(amplitude: amplitude)
        let n = UInt32(sinePeriod * 20)
        let header = SampleHeader(name: "sine", start: 0, end: n, loopStart: UInt32(sinePeriod), loopEnd: n,
                                  sampleRate: sineRate, originalPitch: rootKey, pitchCorrection: pitchCorrection)
        let izone = Zone(generators: [Generator(.sampleModes, loopMode)] + generators + [Generator(.sampleID, 0)],
                         modulators: modulators)
        let inst = Instrument(name: "sine", zones: [izone])
        let pzone = Zone(generators: presetGenerators + [Generator(.instrument, 0)], modulators: presetModulators)
        let preset = Preset(name: "Sine", program: program, bank: bank, zones: [pzone])
        return SoundFont(presets: [preset], instruments: [inst], samples: [header],
                         sampleData: SampleData(copying: data))
    }

    /// A bank playing a linked stereo pair of looped samples with the same layout: the left half
    /// the sine, the right half a phase-shifted, quieter sine. Both zones get `generators`,
    /// panned hard left and right; `rightZoneFirst` lists the right half's zone first.
    static func stereoPair(generators: [Generator], rightZoneFirst: Bool = false) -> SoundFont {
        let period = sinePeriod, n = period * 20
        let left = sineSamples(periods: 20, amplitude: 0.5)
        var right = (0..<n).map { i in Int16((0.3 * 32767 * sin(2 * Double.pi * (Double(i) / Double(period) + 0.2))).rounded()) }
        right += [Int16](repeating: 0, count: 46)
        let base = UInt32(left.count)
        let headers = [
            SampleHeader(name: "L", start: 0, end: UInt32(n), loopStart: UInt32(period), loopEnd: UInt32(n),
                         sampleRate: sineRate, originalPitch: 69, sampleLink: 1, sampleType: .left),
            SampleHeader(name: "R", start: base, end: base + UInt32(n), loopStart: base + UInt32(period),
                         loopEnd: base + UInt32(n), sampleRate: sineRate, originalPitch: 69,
                         sampleLink: 0, sampleType: .right),
        ]
        let halves = [Zone(generators: generators + [Generator(.pan, -500), Generator(.sampleID, 0)]),
                      Zone(generators: generators + [Generator(.pan, 500), Generator(.sampleID, 1)])]
        let zones = rightZoneFirst ? halves.reversed() : halves
        return SoundFont(presets: [Preset(name: "Pair", program: 0, bank: 0, zones: [Zone(generators: [Generator(.instrument, 0)])])],
                         instruments: [Instrument(name: "Pair", zones: zones)], samples: headers,
                         sampleData: SampleData(copying: left + right))
    }

    /// A bank whose instrument has several zones, each (keyRange, generators).
    static func multiZone(_ zones: [(ClosedRange<UInt8>, [Generator])], bank: UInt16 = 0,
                          program: UInt16 = 0) -> SoundFont {
        let data = sineSamples()
        let n = UInt32(sinePeriod * 20)
        let header = SampleHeader(name: "sine", start: 0, end: n, loopStart: UInt32(sinePeriod), loopEnd: n,
                                  sampleRate: sineRate, originalPitch: 69)
        let izones = zones.map { z in
            Zone(generators: [Generator.range(.keyRange, z.0), Generator(.sampleModes, 1)] + z.1
                    + [Generator(.sampleID, 0)])
        }
        let inst = Instrument(name: "multi", zones: izones)
        let preset = Preset(name: "Multi", program: program, bank: bank,
                            zones: [Zone(generators: [Generator(.instrument, 0)])])
        return SoundFont(presets: [preset], instruments: [inst], samples: [header],
                         sampleData: SampleData(copying: data))
    }
}

extension SynthesizerConfiguration {
    /// Reverb and chorus off: the voices alone.
    static var dry: SynthesizerConfiguration {
        var configuration = SynthesizerConfiguration()
        configuration.reverbEnabled = false
        configuration.chorusEnabled = false
        return configuration
    }
}
