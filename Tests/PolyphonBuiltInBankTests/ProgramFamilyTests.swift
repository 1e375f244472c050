import Foundation
import Testing
import PolyphonTestSupport
import PolyphonSoundFont
@testable import PolyphonBuiltInBank
@testable import PolyphonSynth

/// Every program plays through the engine and sounds like its GM family, measured in level
/// curves and spectra of a held middle C (velocity 100, 1 s held, 0.5 s released).
@Suite("Built-in GM bank: programs") struct ProgramFamilyTests {
    typealias B = BuiltInBankSupport

    /// All 128 programs render sound, none clips, and each falls silent after its release.
    @Test func everyProgramSounds() throws {
        var report: [String] = []
        for program in 0..<128 {
            let x = B.mono(try B.note(program: program, hold: 1, tail: 2.5))
            let level = B.rmsDB(x, from: 0, to: 1)
            let peak = Measure.peak(x[...])
            let tail = B.rmsDB(x, from: 3.3, to: 3.5)
            report.append("\(program) \(B.bank.presets[program].name): \(String(format: "%.1f dB, peak %.2f, tail %.1f dB", level, peak, tail))")
            #expect(level > -60, "program \(program) is (nearly) silent: \(level) dB")
            #expect(peak < 1, "program \(program) clips")
            #expect(tail < level - 40, "program \(program) still sounds 2.5 s after release: \(tail) dB")
        }
        print(report.joined(separator: "\n"))
    }

    /// Loudness is balanced as in a real General MIDI bank: the RMS of each program's first
    /// second lies within −18…+9 dB of the median of all 128, and four programs in five within
    /// ±6 dB. Short struck sounds and slowly swelling effects sit low by this measure, as they do
    /// in FluidR3_GM (whose woodblock, timpani and helicopter lie 12–17 dB under its median).
    @Test func programsAreEquallyLoud() throws {
        let levels = try (0..<128).map { B.rmsDB(B.mono(try B.note(program: $0)), from: 0, to: 1) }
        let median = levels.sorted()[64]
        var outliers: [String] = []
        for (p, l) in levels.enumerated() where l - median < -18 || l - median > 9 {
            outliers.append("\(p) \(B.bank.presets[p].name): \(String(format: "%+.1f", l - median)) dB")
        }
        let withinSix = levels.filter { abs($0 - median) <= 6 }.count
        #expect(withinSix * 5 >= 128 * 4, "only \(withinSix) programs within ±6 dB of the median")
        print("loudness: median \(String(format: "%.1f", median)) dB, range \(String(format: "%.1f…%.1f", levels.min()!, levels.max()!))")
        print("levels relative to median: " + levels.enumerated().map { "\($0.offset):\(String(format: "%+.1f", $0.element - median))" }.joined(separator: " "))
        #expect(outliers.isEmpty, "\(outliers)")
    }

    /// Organs hold a steady level and a steady spectrum.
    @Test(arguments: [16, 17, 18, 19, 20, 21, 22, 23]) func organsAreStable(program: Int) throws {
        let x = B.mono(try B.note(program: program))
        // The percussive organ's percussion dies in the first few hundred ms: compare later.
        let early = program == 17 ? 0.5 : 0.1
        let a = B.rmsDB(x, from: early, to: early + 0.1), b = B.rmsDB(x, from: 0.8, to: 0.9)
        #expect(abs(a - b) < 2, "level moved \(a - b) dB")
        let sa = SpectrumAnalysis.magnitudes(x[Int(early * 44100)..<Int(early * 44100) + 4096])
        let sb = SpectrumAnalysis.magnitudes(x[Int(0.8 * 44100)..<Int(0.8 * 44100) + 4096])
        let distance = SpectrumAnalysis.logSpectralDistance(sa, sb, rate: 44100)
        // Vibrato and tremolo (rock organ, accordions, harmonica) move the spectrum a little.
        #expect(distance < ([18, 21, 22, 23].contains(program) ? 4 : 2), "spectrum moved \(distance) dB")
    }

    /// Struck and plucked families decay while the key is held.
    @Test(arguments: Array(0...15) + [24, 25, 26, 27, 28, 31, 32, 33, 34, 36, 37, 45, 46, 47, 104, 105, 106, 107, 108]
          + Array(112...118))
    func percussiveProgramsDecay(program: Int) throws {
        let x = B.mono(try B.note(program: program))
        let start = B.rmsDB(x, from: 0.02, to: 0.15), late = B.rmsDB(x, from: 0.8, to: 0.95)
        #expect(late < start - 3, "level went \(start) → \(late) dB")
    }

    /// Pads fade in where a real GM bank's do: FluidR3_GM's warm, metallic, halo and sweep pads
    /// (89, 93–95) start 10–54 dB under their body by this measure; its new-age, polysynth, choir
    /// and bowed pads (88, 90–92) start within 6 dB of it (the built-in's 88 and 90 now attack as
    /// fast as FluidR3's).
    @Test(arguments: [89, 93, 94, 95]) func padsHaveSlowAttacks(program: Int) throws {
        let x = B.mono(try B.note(program: program))
        let onset = B.rmsDB(x, from: 0, to: 0.03), body = B.rmsDB(x, from: 0.6, to: 0.9)
        #expect(onset < body - 6, "onset \(onset) dB vs body \(body) dB")
    }

    /// Basses keep their energy low: at E2 (key 40) the spectral centroid is below 800 Hz.
    @Test(arguments: Array(32...39)) func bassesAreLow(program: Int) throws {
        func centroid(_ p: Int) throws -> Double {
            let x = B.mono(try B.note(program: p, key: 40))
            return SpectrumAnalysis.centroid(SpectrumAnalysis.magnitudes(x[4410..<4410 + 16384]), rate: 44100)
        }
        let bass = try centroid(program)
        #expect(bass < 800, "centroid \(bass) Hz")
    }

    /// Flutes and whistles are nearly pure; reeds, brass and saw leads are rich in harmonics:
    /// the share of power above 2.5 × the fundamental tells them apart.
    @Test func pipesArePureAndReedsAreRich() throws {
        func upperShare(_ p: Int) throws -> Double {
            let x = B.mono(try B.note(program: p))
            let f0 = Measure.midiFrequency(60)
            return SpectrumAnalysis.bandShare(SpectrumAnalysis.magnitudes(x[22050..<22050 + 8192]), rate: 44100, 2.5 * f0, 20000)
        }
        for p in [73, 78, 79] { let s = try upperShare(p); #expect(s < 0.05, "program \(p): \(s) of the power above 2.5 f0") }
        for p in [56, 61, 64, 65, 68, 81] { let s = try upperShare(p); #expect(s > 0.15, "program \(p): \(s) of the power above 2.5 f0") }
    }

    /// Held notes play in tune: the strongest low partial of a sustained program is at the key.
    @Test(arguments: [0, 16, 19, 40, 56, 65, 71, 73, 80, 81]) func sustainedProgramsAreInTune(program: Int) throws {
        let x = B.mono(try B.note(program: program, key: 69))
        let m = SpectrumAnalysis.magnitudes(x[11025..<11025 + 32768])
        let w = SpectrumAnalysis.binHz(m, rate: 44100)
        // Search the fundamental's neighbourhood (a quarter tone either side of 440 Hz).
        let lo = Int(427 / w), hi = Int(453 / w)
        let k = (lo...hi).max { m[$0] < m[$1] }!
        // Parabolic interpolation of the peak bin.
        let a = m[k - 1], b = m[k], c = m[k + 1]
        let f = (Double(k) + 0.5 * (a - c) / (a - 2 * b + c)) * w
        #expect(abs(Measure.cents(f, 440)) < 8, "program \(program) sounds at \(f) Hz")
    }

    /// Noise effects are noise: breath, sea, helicopter and applause have no spectral peaks;
    /// a ringing telephone and an organ are all peaks.
    @Test func noiseEffectsAreNoisy() throws {
        func tonalShare(_ p: Int) throws -> Double {
            let x = B.mono(try B.note(program: p, hold: 1.5))
            return SpectrumAnalysis.tonalShare(SpectrumAnalysis.magnitudes(x[44100..<44100 + 8192]), rate: 44100)
        }
        for p in [121, 122, 125, 126] { let s = try tonalShare(p); #expect(s < 0.2, "program \(p): tonal share \(s)") }
        // The telephone's bell alternates two tones, which spreads sidebands around them.
        let phone = try tonalShare(124), organ = try tonalShare(16)
        #expect(phone > 0.5, "telephone: tonal share \(phone)")
        #expect(organ > 0.8, "organ: tonal share \(organ)")
    }
}
