import Foundation
import PolyphonSoundFont
import Testing
@testable import PolyphonSynth

@Suite("Filter and pan")
struct FilterAndPanTests {
    /// RMS level in dB of key `key` through a bank.
    func level(_ bank: SoundFont, key: UInt8) throws -> Double {
        let s = try Synthesizer(soundBank: bank)
        s.startNote(key, withVelocity: 127, onChannel: 0)
        let out = s.renderSeconds(0.4)
        return Measure.db(Measure.rms(out.left[out.frame(0.2)..<out.frame(0.4)]))
    }

    /// Absolute cents of a frequency.
    func cents(_ hz: Double) -> Int16 { Int16((1200 * log2(hz / 8.175799)).rounded()) }

    @Test func cutoffIsMinusThreeDecibelsAtQZero() throws {
        // Cutoff at 1760 Hz (key 93): the key-93 sine is 3 dB below the key-45 sine (110 Hz).
        let bank = TestBank.sine(generators: [Generator(.initialFilterFc, cents(1760))])
        let open = TestBank.sine()
        let pass = try level(bank, key: 45) - level(open, key: 45)
        let atCutoff = try level(bank, key: 93) - level(open, key: 93)
        #expect(abs((pass - atCutoff) - 3.01) < 0.3, "pass \(pass) at cutoff \(atCutoff)")
        // An octave above, a 2-pole low-pass is down ≈12 dB more.
        let above = try level(bank, key: 105) - level(open, key: 105)
        #expect(pass - above > 10)
    }

    @Test func resonancePeaksAtTheCutoff() throws {
        // Q 120 cB: FluidSynth's q = 10^((12 − 3.01)/20); the pass band is lowered by 6 dB
        // (half the resonance, measured from Q 0).
        let bank = TestBank.sine(generators: [Generator(.initialFilterFc, cents(1760)), Generator(.initialFilterQ, 120)])
        let open = TestBank.sine()
        let pass = try level(bank, key: 45) - level(open, key: 45)
        let peak = try level(bank, key: 93) - level(open, key: 93)
        let q = pow(10, (12 - 3.01) / 20)
        #expect(abs(pass - (-6)) < 0.2)
        #expect(abs((peak - pass) - Measure.db(q)) < 0.5, "peak over pass band \(peak - pass) dB")
    }

    @Test func fullyOpenFilterChangesNothing() throws {
        let a = try Synthesizer(soundBank: TestBank.sine())
        let b = try Synthesizer(soundBank: TestBank.sine(generators: [Generator(.initialFilterFc, 13500)]))
        for s in [a, b] { s.startNote(100, withVelocity: 127, onChannel: 0) }
        #expect(a.renderSeconds(0.2).left == b.renderSeconds(0.2).left)
    }

    @Test func modEnvSweepsTheCutoff() throws {
        // Cutoff 1500 cents (~20 Hz) + 6000 cents from the mod envelope's sustain of 100 %.
        let bank = TestBank.sine(generators: [Generator(.initialFilterFc, 4000), Generator(.modEnvToFilterFc, 6000),
                                              Generator(.decayModEnv, -1200), Generator(.sustainModEnv, 1000)])
        let s = try Synthesizer(soundBank: bank)
        s.startNote(69, withVelocity: 127, onChannel: 0)
        let out = s.renderSeconds(1.5)
        let early = Measure.rms(out.left[out.frame(0.02)..<out.frame(0.05)])
        let late = Measure.rms(out.left[out.frame(1.2)..<out.frame(1.4)])
        // Early the cutoff is ~ 10 kHz (sine passes); after decay to 0 it is 4000 cents (~82 Hz).
        #expect(Measure.db(early / late) > 20)
    }

    @Test func constantPowerPan() throws {
        func lr(_ pan: Int16) throws -> (Double, Double) {
            let s = try Synthesizer(soundBank: TestBank.sine(generators: [Generator(.pan, pan)]))
            s.startNote(69, withVelocity: 127, onChannel: 0)
            let out = s.renderSeconds(0.3)
            return (Measure.rms(out.left[out.frame(0.1)...]), Measure.rms(out.right[out.frame(0.1)...]))
        }
        let centre = try lr(0)
        let hardLeft = try lr(-500)
        let quarter = try lr(250)
        #expect(abs(Measure.db(centre.0 / hardLeft.0) - (-3.01)) < 0.02)
        #expect(hardLeft.1 < hardLeft.0 * 1e-6)
        // pan +250: θ = 3π/8.
        #expect(abs(quarter.1 / quarter.0 - tan(3 * Double.pi / 8)) < 0.001)
        // Power is constant.
        #expect(abs((quarter.0 * quarter.0 + quarter.1 * quarter.1) - (centre.0 * centre.0 + centre.1 * centre.1)) < 1e-6)
    }

    @Test func cc10SixtyFourIsCentreAnd127Is127Of128Right() throws {
        func ratio(_ cc: UInt8) throws -> Double {
            let s = try Synthesizer(soundBank: TestBank.sine())
            s.sendController(10, withValue: cc, onChannel: 0)
            s.startNote(69, withVelocity: 127, onChannel: 0)
            let out = s.renderSeconds(0.3)
            return Measure.rms(out.right[out.frame(0.1)...]) / Measure.rms(out.left[out.frame(0.1)...])
        }
        #expect(abs(try ratio(64) - 1) < 1e-4)
        // A bipolar source's top value is 127/128 (SF2 2.04 §8.4.6, FluidSynth 2.6): +49.6 %,
        // θ = (496.09 + 500)/1000 · π/2. (FluidSynth 2.3.1: 2 · 127/128 − 1, +49.2 %.)
        let theta = (500 * 127.0 / 128 + 500) / 1000 * Double.pi / 2
        #expect(abs(try ratio(127) - tan(theta)) / tan(theta) < 0.01)
    }

    @Test func stereoPairPlaysLeftAndRight() throws {
        // Two zones on the same keys: one hard left at 440 Hz, one hard right an octave up.
        let bank = TestBank.multiZone([(0...127, [Generator(.pan, -500)]),
                                       (0...127, [Generator(.pan, 500), Generator(.coarseTune, 12)])])
        let s = try Synthesizer(soundBank: bank)
        s.startNote(69, withVelocity: 127, onChannel: 0)
        let out = s.renderSeconds(0.4)
        let fl = Measure.frequency(out.left[out.frame(0.1)...], rate: 44100)
        let fr = Measure.frequency(out.right[out.frame(0.1)...], rate: 44100)
        #expect(abs(Measure.cents(fl, 440)) < 1)
        #expect(abs(Measure.cents(fr, 880)) < 1)
    }

    /// A non-finite value reaching a filter lane silences that voice's span and restarts its
    /// filter; the batch's other lanes are untouched (bit for bit).
    @Test func aNaNInOneFilterLaneIsContained() throws {
        let frames = 256
        let lanes = FilterBatch.lanes
        let table = CutoffTable.make(sampleRate: 44100)
        defer { table.deallocate() }
        func run(poisonLane: Int?) -> (outputs: [[Float]], histories: [Float]) {
            let filters = UnsafeMutablePointer<LowPassFilter>.allocate(capacity: lanes)
            filters.initialize(repeating: LowPassFilter(), count: lanes)
            let buffers = (0..<lanes).map { lane -> UnsafeMutablePointer<Float> in
                let b = UnsafeMutablePointer<Float>.allocate(capacity: frames)
                for i in 0..<frames { b[i] = sinf(Float(i * (lane + 1)) * 0.05) }
                return b
            }
            if let poisonLane { buffers[poisonLane][100] = .nan }
            let eventStore = UnsafeMutablePointer<FilterEvent>.allocate(capacity: lanes)
            for lane in 0..<lanes {
                let target = filters[lane].coefficients(cutoffCents: 7000 + 500 * Float(lane), qCentibels: 100, table: table)!
                (eventStore + lane).initialize(to: FilterEvent(.snap(to: target), at: 0))
            }
            let batch = FilterBatch(frames: frames)
            for lane in 0..<lanes {
                _ = batch.append(filters[lane], buffer: buffers[lane], events: eventStore + lane, eventCount: 1)
            }
            batch.process(frames: frames)
            for lane in 0..<lanes { filters[lane] = batch.filter(lane) }
            let outputs = buffers.map { Array(UnsafeBufferPointer(start: $0, count: frames)) }
            let histories = (0..<lanes).flatMap { [filters[$0].hist1, filters[$0].hist2] }
            buffers.forEach { $0.deallocate() }
            filters.deallocate(); eventStore.deallocate()
            return (outputs, histories)
        }
        let clean = run(poisonLane: nil)
        let poisoned = run(poisonLane: 2)
        for lane in 0..<FilterBatch.lanes where lane != 2 {
            #expect(poisoned.outputs[lane].map(\.bitPattern) == clean.outputs[lane].map(\.bitPattern))
        }
        #expect(clean.outputs[2].allSatisfy { $0.isFinite } && Measure.rms(clean.outputs[2][...]) > 0.1)
        #expect(poisoned.outputs[2].allSatisfy { $0 == 0 })
        #expect(poisoned.histories.allSatisfy { $0.isFinite })
    }
}
