import Foundation
import PolyphonSFZCore
import PolyphonSynth

extension FuzzTarget {
    /// An SFZ input read as an instrument whose sample files decode to short sines, mapped onto
    /// the synthesizer's voice (``SFZSoundBank``) and rendered: the bank must stay within what
    /// the instrument justifies, and playing it must not trap or hang.
    static func sfzMapped(_ bytes: [UInt8]) {
        let files = SFZMemoryFileSystem(files: [
            "/f/root.sfz": bytes, "/f/part.sfzh": bytes, "/f/a.wav": [0], "/f/Samples/B.wav": [0],
        ])
        guard var instrument = try? SFZInstrument(path: "/f/root.sfz", fileSystem: files, limits: SFZReadingLimits()) else { return }
        instrument.sampleProvider = FuzzSFZSamples()
        for placement in [SFZPlacement.automatic, .preset(bank: 0, program: 5)] {
            let bank = SFZSoundBank(instrument, placement: placement, releasingDecodedSamples: true)
            // Each file gives at most two samples; each generated wave one per keycenter.
            let sampleBound = 2 * instrument.samples.count + 4 * 128
            let pointBound = sampleBound * (FuzzSFZSamples.frameCount + 2048 + 46)  // 2048: a generated cycle
            guard bank.soundFont.samples.count <= sampleBound, bank.soundFont.sampleData.words.count <= pointBound,
                  bank.regionCount <= instrument.regions.count else {
                fatalError("the bank holds more than the instrument justifies")
            }
            var configuration = SynthesizerConfiguration(polyphony: 32)
            configuration.reverbEnabled = false
            configuration.chorusEnabled = false
            guard let synth = try? Synthesizer(soundBank: bank.soundFont, sampleRate: 22_050, configuration: configuration) else {
                return
            }
            let frames = 96
            let left = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            let right = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            defer { left.deallocate(); right.deallocate() }
            let channel: UInt8 = bank.placement == .drumKit ? 9 : 0
            synth.sendProgramChange(5, onChannel: channel)
            for (i, key) in ([0, 36, 60, 61, 72, 127] as [UInt8]).enumerated() {
                synth.startNote(key, withVelocity: UInt8(1 + i * 25), onChannel: channel, atFrame: i)
            }
            synth.sendPitchBend(0, onChannel: channel, atFrame: 40)
            synth.render(left: left, right: right, frameCount: frames)
            for key in [0, 36, 60, 61, 72, 127] as [UInt8] { synth.stopNote(key, onChannel: channel) }
            synth.render(left: left, right: right, frameCount: frames)
        }
    }
}

/// Sample files as the engine target sees them: every third file mono 16-bit, stereo 16-bit or
/// mono 24-bit with a loop; index 4 cannot be decoded.
final class FuzzSFZSamples: SFZSampleProvider, @unchecked Sendable {
    // @unchecked: used from one thread (the fuzzer's).
    static let frameCount = 300
    private var decoded: [Int: SFZDecodedSample] = [:]

    func sample(at index: Int) throws(SFZSampleError) -> SFZDecodedSample {
        if index == 4 { throw SFZSampleError(path: "/f/broken.wav", reason: "not audio") }
        if let known = decoded[index] { return known }
        let sine = (0..<Self.frameCount).map { Float(0.5 * sin(2 * Double.pi * Double($0) / 30)) }
        let sample = SFZDecodedSample(channels: index % 3 == 1 ? [sine, sine] : [sine], sampleRate: 22_050,
                                      loop: index % 3 == 2 ? SFZRange(30, 269) : nil, rootKey: index % 3 == 2 ? 69 : nil,
                                      keepsLowBytes: index % 3 == 2)
        decoded[index] = sample
        return sample
    }

    func decodedSample(at index: Int) -> SFZDecodedSample? { decoded[index] }

    func releaseDecodedSample(at index: Int) { decoded[index] = nil }
}
