import Foundation
import PolyphonSynth
import PolyphonTestSupport
import Testing
@testable import PolyphonSFZ

/// SFZ's `count` (the sample played N times, one-shot) and `loop_count` (the loop repeated N
/// times, then on to the sample's end), measured as how long the note sounds in ms, as sfizz's
/// `Voice::Impl::fillWithData` plays them.
@Suite struct SFZLoopCountTests {
    /// `key` struck, released after `held` seconds: the ms until the output falls silent
    /// (its last point above 1 % of its peak).
    static func soundingMilliseconds(_ bank: SFZSoundBank, key: UInt8, held: Double) throws -> Double {
        let out = try SFZPlayingTests.play(bank, key: key, seconds: 0.6, held: held)
        let peak = out.left.map { abs($0) }.max() ?? 0
        let last = out.left.lastIndex { abs($0) > peak * 0.01 } ?? 0
        return Double(last + 1) / out.rate * 1000
    }

    @Test func countRepeatsTheSampleAndLoopCountTheLoopThenTheVoiceEnds() throws {
        // 100 ms of 500 Hz (50 whole cycles, so every repeat is seamless).
        let bank = try SFZPlayingTests.bank("""
            <group> sample=s.wav pitch_keytrack=0 ampeg_release=0.001
            <region> key=60 count=3
            <region> key=61 loop_mode=loop_continuous loop_start=2205 loop_end=4409 loop_count=2
            <region> key=62 loop_mode=loop_continuous loop_start=2205 loop_end=4409
            <region> key=63 count=1
            <region> key=64 count=3 offset=2205
            <region> lokey=65 hikey=127
            """, files: ["s.wav": TestAudio.wav([TestAudio.sine(frequency: 500, frames: 4410)])])
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        let expected: [(key: UInt8, held: Double, ms: Double, what: String)] = [
            // sfizz jumps back end − offset frames (one less than the sample), once per repeat.
            (60, 0.05, 300 - 2 * 1000 / 44_100, "count=3, released at 50 ms: three plays, one-shot"),
            (61, 0.5, 200, "loop_count=2: 100 ms to the loop's end, two 50 ms repeats"),
            (63, 0.05, 100, "count=1: one play"),
            (64, 0.5, 150 - 2 * 1000 / 44_100, "count=3 from the middle: three 50 ms plays"),
        ]
        for e in expected {
            let ms = try Self.soundingMilliseconds(bank, key: e.key, held: e.held)
            #expect(abs(ms - e.ms) < 2, "key \(e.key) (\(e.what)): \(ms) ms, expected \(e.ms)")
        }
        // Without loop_count the loop runs until the release (the engine's shortest, 16 ms, follows).
        let held = try Self.soundingMilliseconds(bank, key: 62, held: 0.35)
        #expect(held > 350 && held < 370, "no loop_count, released at 350 ms: \(held) ms")
    }
}
