import Foundation
import Testing
import PolyphonSoundFont
@_spi(Testing) @testable import PolyphonSynth

/// Voices whose filters have settled share one filter per bus (``SharedFilterPool``). That must
/// sound like every voice filtering on its own — to rounding while voices stay in, and within
/// a measured bound when they leave — and must not depend on how render calls are sliced.
@Suite struct SharedFilterTests {
    /// Four cutoffs in four key ranges: three shared filters (a resonant one among them) and a
    /// low resonant cutoff whose ring is too long to share (146 Hz: 21 ms to fall 60 dB).
    static func bank(extra: [Generator] = [], loopMode: Int16 = 1) -> SoundFont {
        TestBank.multiZone([
            (0...47, [Generator(.initialFilterFc, 5000), Generator(.initialFilterQ, 60)] + extra),
            (48...59, [Generator(.initialFilterFc, 9500), Generator(.initialFilterQ, 0)] + extra),
            (60...71, [Generator(.initialFilterFc, 10500), Generator(.initialFilterQ, 100)] + extra),
            (72...127, [Generator(.initialFilterFc, 11500), Generator(.initialFilterQ, 30),
                        Generator(.sampleModes, loopMode)] + extra),
        ])
    }

    /// A release that sweeps the cutoff by −1200 cents over 2 s: slow enough to share.
    static let slowSweep = [Generator(.modEnvToFilterFc, -1200), Generator(.releaseModEnv, 1200),
                            Generator(.releaseVolEnv, -1200)]

    /// Notes on three channels with different pans and sends, started at odd frames; some end
    /// early (with a short release) and some are cut by a stolen or exclusive voice's absence.
    static func play(_ bank: SoundFont, sharing: Bool, block: Int = 512, effects: Bool = true,
                     seconds: Double = 1.0, script: ((Synthesizer) -> Void)? = nil) throws -> (Rendered, Int) {
        var config = SynthesizerConfiguration()
        config.reverbEnabled = effects
        config.chorusEnabled = effects
        let s = try Synthesizer(soundBank: bank, configuration: config)
        s.sharesFilters = sharing
        s.sendController(10, withValue: 20, onChannel: 1)
        s.sendController(91, withValue: 100, onChannel: 1)
        s.sendController(93, withValue: 60, onChannel: 2)
        s.sendController(10, withValue: 110, onChannel: 2)
        if let script {
            script(s)
        } else {
            for (k, key) in [40, 45, 50, 55, 62, 66, 70, 76, 81, 86].enumerated() {
                let channel = UInt8(k % 3)
                s.startNote(UInt8(key), withVelocity: UInt8(60 + 6 * k), onChannel: channel, atFrame: 37 * k)
                if k % 4 == 1 { s.stopNote(UInt8(key), onChannel: channel, atFrame: 15_000 + 333 * k) }
            }
        }
        let out = s.renderSeconds(seconds, block: block)
        return (out, s.sharedFilterFrames)
    }

    /// The difference between two renders in dB against the first one's level.
    static func differenceDB(_ a: Rendered, _ b: Rendered) -> Double {
        let d = zip(a.left + a.right, b.left + b.right).map { $0 - $1 }
        return Measure.db(Measure.rms(d[...]) / Measure.rms((a.left + a.right)[...]))
    }

    @Test func heldVoicesSoundAsWithTheirOwnFilters() throws {
        let (own, none) = try Self.play(Self.bank(), sharing: false)
        #expect(none == 0)
        let (shared, frames) = try Self.play(Self.bank(), sharing: true)
        // Eight of the ten voices for most of a second (two have the unshareable filter).
        #expect(frames > 7 * 40_000, "\(frames) voice frames in shared filters")
        let db = Self.differenceDB(own, shared)
        // Rounding (sums in another order), and the ends of the notes released early: their
        // filters ring out in the shared state instead of being cut with the voice.
        #expect(db < -100, "difference \(db) dB")
        #expect(Measure.rms(shared.left[...]) > 0.01 && Measure.rms(shared.right[...]) > 0.01)
    }

    /// Blocks of 1, 17, 64 and 4096 frames give the same bits, through joins, leaves (a release
    /// sweeping the cutoff), voices ending and effect sends.
    @Test func sharedFiltersDoNotDependOnBlockSize() throws {
        let bank = Self.bank(extra: Self.slowSweep)
        let (reference, frames) = try Self.play(bank, sharing: true, block: 512)
        #expect(frames > 4 * 20_000)
        for block in [1, 17, 64, 4096] {
            let (out, _) = try Self.play(bank, sharing: true, block: block)
            #expect(out.left == reference.left && out.right == reference.right, "block \(block) differs")
        }
    }

    /// A release that sweeps the cutoff makes voices leave: they filter on their own again from
    /// silence, while what they put in the shared filter rings out there with the old cutoff.
    @Test func leavingVoicesStayCloseToTheirOwnFilters() throws {
        let bank = Self.bank(extra: Self.slowSweep)
        let (own, _) = try Self.play(bank, sharing: false)
        let (shared, frames) = try Self.play(bank, sharing: true)
        #expect(frames > 6 * 30_000)
        let db = Self.differenceDB(own, shared)
        #expect(db < -100, "difference \(db) dB")
    }

    /// Filters that ring long (a low, resonant cutoff) or whose cutoff may sweep fast keep to
    /// their voices: nothing is shared and the output is exactly what it is without sharing.
    /// A member whose pan or send changes leaves at the change and joins a shared filter with
    /// the new gains at once, from silence; what it had put in the old one rings out there
    /// with the old gains. That ring is the one difference from filtering alone: the old pan
    /// lingers for about a millisecond, fading by 60 dB within the filter's ring (≤ 2 ms).
    /// FluidSynth itself applies a pan change up to 64 frames (1.5 ms) late, at full level.
    @Test func membersLeaveWhenPanOrSendsChange() throws {
        let panChanges = [15_000, 26_000]
        func script(_ s: Synthesizer) {
            for (k, key) in [50, 55, 62, 66, 76, 81].enumerated() {
                s.startNote(UInt8(key), withVelocity: UInt8(70 + 8 * k), onChannel: UInt8(k % 3), atFrame: 41 * k)
            }
            s.sendController(10, withValue: 100, onChannel: 1, atFrame: panChanges[0])
            s.sendController(7, withValue: 90, onChannel: 2, atFrame: 19_999)  // the same gains: stays in
            s.sendController(10, withValue: 64, onChannel: 1, atFrame: panChanges[1])
        }
        let (own, _) = try Self.play(Self.bank(), sharing: false, effects: false, script: script)
        let (shared, frames) = try Self.play(Self.bank(), sharing: true, effects: false, script: script)
        #expect(frames > 5 * 35_000)
        let peak = Measure.peak(own.left[...])
        func difference(_ r: Range<Int>) -> Double {
            let d = r.map { max(abs(own.left[$0] - shared.left[$0]), abs(own.right[$0] - shared.right[$0])) }.max() ?? 0
            return Measure.db(Double(d) / peak)
        }
        // Measured: −11.6 dB on the change's first frame, −71 dB after 0.5 ms, −109 dB after 1 ms.
        for change in panChanges {
            #expect(difference(change..<(change + 22)) < -6)
            #expect(difference((change + 44)..<(change + 88)) < -90)
        }
        let outside = (0..<own.left.count).filter { i in !panChanges.contains { i >= $0 && i < $0 + 88 } }
        let rest = outside.map { max(abs(own.left[$0] - shared.left[$0]), abs(own.right[$0] - shared.right[$0])) }.max()!
        #expect(Measure.db(Double(rest) / peak) < -100, "elsewhere \(Measure.db(Double(rest) / peak)) dB")
        for block in [17, 4096] {
            let (out, _) = try Self.play(Self.bank(), sharing: true, block: block, effects: false, script: script)
            #expect(out.left == shared.left && out.right == shared.right, "block \(block) differs")
        }
    }

    @Test func longRingsAndFastSweepsAreNotShared() throws {
        let low = TestBank.sine(generators: [Generator(.initialFilterFc, 6000), Generator(.initialFilterQ, 60)])
        let fast = TestBank.sine(generators: [Generator(.initialFilterFc, 10000), Generator(.modEnvToFilterFc, -2400),
                                              Generator(.releaseModEnv, -3600)])
        for bank in [low, fast] {
            let (own, _) = try Self.play(bank, sharing: false)
            let (shared, frames) = try Self.play(bank, sharing: true)
            #expect(frames == 0)
            #expect(shared.left == own.left && shared.right == own.right)
        }
    }

    /// Where FluidSynth — and a voice's own filter — cut the filter's ring when the voice ends,
    /// a shared filter lets it ring out: the one difference left, kept below the level at which
    /// FluidSynth itself drops a voice as inaudible (``Voice/noiseFloor``) by the 2 ms limit on
    /// the ring.
    @Test func anEndingMemberRingsOutBelowTheNoiseFloor() throws {
        let bank = TestBank.sine(generators: [Generator(.initialFilterFc, 9000), Generator(.initialFilterQ, 30),
                                              Generator(.releaseVolEnv, -7200)], amplitude: 1)
        func script(_ s: Synthesizer) {
            s.startNote(57, withVelocity: 127, onChannel: 0)
            s.stopNote(57, onChannel: 0, atFrame: 10_000)
        }
        var config = SynthesizerConfiguration.dry
        config.gain = 1
        func play(_ sharing: Bool) throws -> (Rendered, Int) {
            let s = try Synthesizer(soundBank: bank, configuration: config)
            s.sharesFilters = sharing
            script(s)
            return (s.renderSeconds(0.5), s.sharedFilterFrames)
        }
        let (own, _) = try play(false)
        let (shared, frames) = try play(true)
        #expect(frames > 9_000)
        #expect(Measure.peak(own.left[5_000..<10_000]) > 0.3, "a loud note")
        let end = own.left.lastIndex { $0 != 0 }!
        #expect(end > 10_500 && end < 11_500, "the voice ended at \(end)")
        #expect(Array(shared.left[..<(end - 64)]) == Array(own.left[..<(end - 64)]) || Self.differenceDB(own, shared) < -100)
        let ringOut = Measure.peak(shared.left[(end + 1)...])
        #expect(ringOut > 0, "the shared filter rings on")
        #expect(ringOut < Double(Voice.noiseFloor), "ring-out \(Measure.db(ringOut)) dBFS")
    }

    /// Many distinct settled filters at once (80, one per key): each gets a shared filter of
    /// its own, the sound stays the same, and slicing still changes nothing.
    @Test func manyDistinctFiltersAllShare() throws {
        let voices = 80
        var zones: [(ClosedRange<UInt8>, [Generator])] = []
        for z in 0..<voices {
            let key = UInt8(30 + z)
            let cutoff = Generator(.initialFilterFc, Int16(9000 + 30 * z))
            zones.append((key...key, [cutoff, Generator(.initialFilterQ, 50)]))
        }
        let bank = TestBank.multiZone(zones)
        func script(_ s: Synthesizer) {
            for z in 0..<voices { s.startNote(UInt8(30 + z), withVelocity: 90, onChannel: UInt8(z % 8), atFrame: 11 * z) }
        }
        let (own, _) = try Self.play(bank, sharing: false, seconds: 0.5, script: script)
        let (shared, frames) = try Self.play(bank, sharing: true, seconds: 0.5, script: script)
        #expect(frames > voices * 20_000, "\(frames) voice frames shared")
        #expect(Self.differenceDB(own, shared) < -100)
        let (sliced, _) = try Self.play(bank, sharing: true, block: 17, seconds: 0.5, script: script)
        #expect(sliced.left == shared.left && sliced.right == shared.right)
    }

    /// All Sound Off silences the shared filters too, at once.
    @Test func allSoundOffSilencesSharedFilters() throws {
        let (out, frames) = try Self.play(Self.bank(), sharing: true, effects: false, seconds: 0.5) { s in
            for key in [40, 50, 62, 76] { s.startNote(UInt8(key), withVelocity: 100, onChannel: 0) }
            s.allSoundOff(atFrame: 10_000)
        }
        #expect(frames > 0)
        #expect(Measure.rms(out.left[5_000..<10_000]) > 0.01)
        #expect(Measure.peak(out.left[10_000...]) == 0 && Measure.peak(out.right[10_000...]) == 0)
    }
}
