import Foundation
import Testing
import PolyphonTestSupport
import PolyphonSoundFont
@testable import PolyphonBuiltInBank
@testable import PolyphonSynth

/// The standard kit on channel 10: every key 35–81 sounds, drums strike and die away, metal
/// and shakers are noise-like, membranes are not.
@Suite("Built-in GM bank: drum kit") struct DrumKitTests {
    typealias B = BuiltInBankSupport

    /// Keys whose sound is sustained or scraped rather than struck.
    static let sustained: Set<UInt8> = [58, 72, 73, 74, 79]

    @Test func everyDrumKeySoundsAndDecays() throws {
        var lines: [String] = []
        for key in UInt8(35)...81 {
            let x = B.mono(try B.note(drumKey: key, hold: 0.1, tail: 1.9))
            let strike = B.rmsDB(x, from: 0, to: 0.1), late = B.rmsDB(x, from: 1.2, to: 1.4)
            lines.append("\(key): strike \(String(format: "%.1f", strike)) dB, at 1.2 s \(String(format: "%.1f", late)) dB")
            #expect(strike > -55, "key \(key) is silent: \(strike) dB")
            if !Self.sustained.contains(key) {
                #expect(late < strike - 12, "key \(key) does not die away: \(strike) → \(late) dB")
            }
        }
        print(lines.joined(separator: "\n"))
    }

    /// Cymbals, hats and shakers are noise (flat spectrum, no peaks); the snare's wires are
    /// noise too (no peaks) but coloured, falling away above a few kilohertz as a real snare's do
    /// (FluidR3_GM's acoustic and electric snares measure a flatness of 0.027 and 0.021, the
    /// built-in's, low-passed like them, 0.021) and their shells ring through the wires (tonal
    /// share 0.29 and 0.49, the built-in's 0.34); toms and congas are pitched membranes (power
    /// in spectral peaks). The kick is not held to it: it dies as fast as FluidR3_GM's, whose
    /// own kick measures a tonal share of 0.00 here (its toms 0.49–0.74); its low centroid is
    /// tested below.
    @Test func metalAndShakersAreNoiseLikeMembranesAreNot() throws {
        func spectrum(_ key: UInt8) throws -> [Double] {
            let x = B.mono(try B.note(drumKey: key, hold: 0.3, tail: 0.2))
            return SpectrumAnalysis.magnitudes(x[0..<16384])
        }
        for key: UInt8 in [38, 42, 46, 49, 57, 69, 70] {
            let m = try spectrum(key)
            let f = SpectrumAnalysis.flatness(m, rate: 44100), s = SpectrumAnalysis.tonalShare(m, rate: 44100)
            #expect(f > (key == 38 ? 0.015 : 0.1) && s < (key == 38 ? 0.5 : 0.3), "key \(key) flatness \(f), tonal share \(s)")
        }
        for key: UInt8 in [41, 45, 50, 60, 64] {
            let s = SpectrumAnalysis.tonalShare(try spectrum(key), rate: 44100)
            #expect(s > 0.5, "key \(key): tonal share only \(s)")
        }
    }

    /// The kick's energy is low; the closed hi-hat's is high.
    @Test func kickIsLowHiHatIsHigh() throws {
        let kick = B.mono(try B.note(drumKey: 36, hold: 0.3, tail: 0))
        let hat = B.mono(try B.note(drumKey: 42, hold: 0.3, tail: 0))
        let kc = SpectrumAnalysis.centroid(SpectrumAnalysis.magnitudes(kick[0..<8192]), rate: 44100)
        let hc = SpectrumAnalysis.centroid(SpectrumAnalysis.magnitudes(hat[0..<8192]), rate: 44100)
        #expect(kc < 300, "kick centroid \(kc) Hz")
        #expect(hc > 6000, "hi-hat centroid \(hc) Hz")
    }

    /// The pedal hi-hat chokes a ringing open hi-hat (exclusive class): 0.4–0.6 s after the
    /// pedal, the kit is far quieter than the open hat left alone.
    @Test func pedalHiHatChokesOpenHiHat() throws {
        func render(pedal: Bool) throws -> [Float] {
            let synth = try B.synthesizer()
            synth.startNote(46, withVelocity: 100, onChannel: 9)
            var first = synth.renderSeconds(0.2)
            if pedal { synth.startNote(44, withVelocity: 100, onChannel: 9) }
            let rest = synth.renderSeconds(0.6)
            first.left += rest.left
            first.right += rest.right
            return B.mono(first)
        }
        let choked = B.rmsDB(try render(pedal: true), from: 0.6, to: 0.8)
        let ringing = B.rmsDB(try render(pedal: false), from: 0.6, to: 0.8)
        #expect(choked < ringing - 20, "choked \(choked) dB, ringing \(ringing) dB")
    }
}
