import Foundation
import Testing

import PolyphonAudio
import PolyphonTestSupport

/// Issue #33's "done when": a free SFZ piano given to `--soundfont` is heard in `render` and
/// `play`. The piano is laid out as such libraries are (``SFZPianoLibrary``: includes, defines,
/// `default_path`, velocity layers, release samples with `rt_decay`, the sustain pedal, FLAC and
/// Ogg samples, a file named in another case) and stacked as `Piano.sfz@0:0` over FluidR3_GM,
/// which plays the song's violin.
extension LiveAudioTests {
@Suite("an SFZ piano library through render and play", .serialized)
struct SFZLibraryPlayTests {
    static var ready: Bool {
        (RealFiles.isCI || FileManager.default.fileExists(atPath: LiveTools.polyphon)) && LiveTools.alsaAvailable
            && RealFiles.available(RealFiles.fluidR3)
    }

    @Test(.enabled(if: ready))
    func aPianoLibraryOverAGeneralMIDIBankSoundsInRenderAndPlay() throws {
        let directory = try TemporaryDirectory()
        let library = try SFZPianoLibrary(in: directory.path)
        if RealFiles.isCI { #expect(library.hasCompressedSamples, "libsndfile reads the FLAC and Ogg samples under CI") }
        try BatchCorpus.write(SFZPianoLibrary.song(gmProgram: 40), to: directory.file("song.mid"))
        let banks = ["--soundfont", library.path + "@0:0", "--soundfont", RealFiles.fluidR3]

        let render = try Subprocess(LiveTools.polyphon, ["render", directory.file("song.mid"), "-o", directory.file("offline.wav"),
                                                         "--bits", "32f"] + banks, errors: directory.file("render.log"))
        let renderLog = { (try? String(contentsOfFile: directory.file("render.log"), encoding: .utf8)) ?? "" }
        #expect(render.wait(timeout: 300) == 0, "\(renderLog())")
        #expect(!renderLog().contains("warning"), "the library reads without a warning: \(renderLog())")
        let offline = try AudioFile(contentsOf: directory.file("offline.wav"))
        let rate = offline.sampleRate, left = offline.channels[0]
        func window(_ from: Double, _ to: Double) -> ArraySlice<Float> { left[Int(from * rate)..<Int(to * rate)] }

        // Each sample of the library, told by its pitch.
        for tone in SFZPianoLibrary.songTones {
            let heard = window(tone.from, tone.to)
            let f = Measure.frequency(heard, rate: rate)
            #expect(abs(Measure.cents(f, tone.frequency)) < 2, "\(tone.what): \(f) Hz, \(tone.frequency) expected")
            #expect(Measure.db(Measure.rms(heard)) > -60, "\(tone.what) is heard")
        }
        // The release samples: C4's (pedal held it 0.7 s, velocity 40) against C5's (0.4 s, 110).
        let releases = Measure.db(Measure.rms(window(0.80, 0.95))) - Measure.db(Measure.rms(window(1.74, 1.86)))
        #expect(abs(releases - SFZPianoLibrary.releaseLevelDifference) < 0.3,
                "release levels differ by \(releases) dB, \(SFZPianoLibrary.releaseLevelDifference) expected")
        // Program 40 is not in the piano: FluidR3's violin plays A4 (its harmonics cross zero
        // more than once a period: the period is found by autocorrelation).
        let violin = Self.fundamental(window(3.55, 3.85), rate: rate, lowest: 200, highest: 1000)
        #expect(abs(Measure.cents(violin, 440)) < 10, "the stacked bank's violin: \(violin) Hz")

        // `play` through a device sounds what `render` wrote.
        let play = try Subprocess(LiveTools.polyphon, ["play", directory.file("song.mid"), "-q", "--backend", "alsa",
                                                       "--device", "file:'\(directory.file("live.raw"))',raw"] + banks,
                                  errors: directory.file("play.log"))
        let status = play.wait(timeout: 300)
        #expect(status == 0, "\((try? String(contentsOfFile: directory.file("play.log"), encoding: .utf8)) ?? "")")
        let reference = zip(offline.channels[0], offline.channels[1]).flatMap { [$0, $1] }
        let captured = try readFloats(directory.file("live.raw"))
        // Sample-exact output starts its sound on the same frame: the first sample above
        // −60 dBFS aligns them (a correlation over a pure sine could pick another period).
        func onset(_ x: [Float]) -> Int? { stride(from: 0, to: x.count, by: 2).first { abs(x[$0]) > 1e-3 }.map { $0 / 2 } }
        let lag = try #require(onset(captured)) - (try #require(onset(reference)))
        let frames = min(Int(3.9 * rate), reference.count / 2)
        #expect(captured.count / 2 - lag >= frames, "captured \(captured.count / 2) frames")
        let difference = largestDifference(captured: captured, reference: Array(reference[0..<(2 * frames)]), lag: lag)
        #expect(difference <= 1e-4, "play and render agree through the whole song (lag \(lag), difference \(difference))")
    }

    /// The fundamental between `lowest` and `highest` Hz: the lag of the strongest
    /// autocorrelation, refined by a parabola through its neighbours.
    static func fundamental(_ x: ArraySlice<Float>, rate: Double, lowest: Double, highest: Double) -> Double {
        let samples = Array(x)
        func correlation(_ lag: Int) -> Double {
            var sum = 0.0
            for i in 0..<(samples.count - lag) { sum += Double(samples[i]) * Double(samples[i + lag]) }
            return sum / Double(samples.count - lag)
        }
        let lags = Int(rate / highest)...Int(rate / lowest)
        let best = lags.max { correlation($0) < correlation($1) } ?? lags.lowerBound
        let (a, b, c) = (correlation(best - 1), correlation(best), correlation(best + 1))
        let shift = a - 2 * b + c == 0 ? 0 : 0.5 * (a - c) / (a - 2 * b + c)
        return rate / (Double(best) + shift)
    }
}
}
