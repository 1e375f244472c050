import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import PolyphonSoundFont
import PolyphonTestSupport
import PolyphonWebKit
@testable import PolyphonJam

/// Issue #33's "done when" in the browser: `polyphon jam --soundfont "Upright Piano.sfz@0:0"
/// --soundfont GM.sf2` — an SFZ piano laid out as free libraries are (``SFZPianoLibrary``)
/// stacked over a General MIDI bank — played in real headless Chromium by
/// `jam-sfz-in-chromium.py`: the stack is the page's bank, the piano's velocity layers sound
/// (told by their pitch), the sustain pedal holds a note and its lifting starts the note's
/// release sample, and a program the piano lacks comes from the bank below. Required under `CI=true`.
extension JamBrowserTests {
    static let sfzScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("jam-sfz-in-chromium.py").path

    @Test(.enabled(if: RealFiles.isCI || chromiumAvailable), .timeLimit(.minutes(10)))
    func anSFZPianoStackedOverAGeneralMIDIBankPlaysInChromium() async throws {
        try await Self.withFolder { out in
            let library = try SFZPianoLibrary(in: out)
            let gm = out + "/Sines.sf2"
            try Data(SineBank.everyProgram().serialized()).write(to: URL(fileURLWithPath: gm))
            let entries = try BankCatalog.discover(paths: [library.path + "@0:0", gm],
                                                   locator: SoundBankLocator(environment: [:], homeDirectory: out, systemRoot: out))
            let kit = WebAssemblyKit.thisCheckout
            try kit.prepareModule { print($0) }
            let server = JamServer(catalog: BankCatalog(entries: entries), files: .standard(kit: kit, page: StaticFiles.pageFolder))
            let app = Application(router: server.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            let status = try await app.test(.live) { client in
                let port = try #require(client.port)
                return try await Task.detached {
                    try runProcess(RealFiles.python, [Self.sfzScript, "http://127.0.0.1:\(port)/", out])
                }.value
            }
            #expect(status.status == 0, "\(status.stderr)")
            try #require(status.status == 0)
            let result = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/result.json"))) as! [String: Any]
            let rate = try #require(result["sampleRate"] as? Double)
            #expect(result["bank"] as? String == "stack")

            func heard(_ file: String, _ from: Double, _ to: Double) throws -> (hertz: Double, level: Double) {
                let window = try Self.floats(out + "/" + file).left[Int(from * rate)..<Int(to * rate)]
                return (Measure.frequency(window, rate: rate), Measure.db(Measure.rms(window)))
            }
            // Soft C4, its key up after 50 ms and held by the pedal: still sounding at 0.5–0.75 s.
            let soft = try heard("c4-soft.f32", 0.5, 0.75)
            let softExpected = SFZPianoLibrary.frequency(key: 60, detune: SFZPianoLibrary.softDetune)
            #expect(abs(Measure.cents(soft.hertz, softExpected)) < 2 && soft.level > -50, "soft C4 under the pedal: \(soft)")
            // The pedal lifted at 0.8 s: C4's release sample (an octave up) sounds, as natively
            // (measured 523.251 Hz at −53.8 dBFS RMS: velocity 40 and `rt_decay`); the page
            // used to leave release regions out, and this window was silent.
            let release = try heard("c4-soft.f32", 0.92, 1.15)
            let releaseExpected = SFZPianoLibrary.frequency(key: 72, detune: 0)
            #expect(abs(Measure.cents(release.hertz, releaseExpected)) < 2 && release.level > -70, "C4's release sample: \(release)")
            let loud = try heard("c5-loud.f32", 0.1, 0.5)
            let loudExpected = SFZPianoLibrary.frequency(key: 72, detune: SFZPianoLibrary.loudDetune)
            #expect(abs(Measure.cents(loud.hertz, loudExpected)) < 2 && loud.level > -50, "loud C5: \(loud)")
            // Program 40 from the bank below: the sines sound A4 + 3.9 cents.
            let below = try heard("a4-program40.f32", 0.1, 0.5)
            #expect(abs(Measure.cents(below.hertz, 441)) < 2 && below.level > -50, "program 40 from the stacked bank: \(below)")
        }
    }
}
