import PolyphonMIDI
import PolyphonSoundFont

/// For live input on an SF3 bank: decodes the samples of every preset a program change may
/// select, on the input thread, before the message goes on to the render thread — so the
/// render thread never stops to decode (a note right after a program change waits instead).
///
/// Which preset a program change selects depends on the bank-select mode and on whether the
/// channel plays drums, which SysEx can change; rather than follow all of that, every preset it
/// might select is decoded: the program in the bank the MSB, the LSB or both name, in the drum
/// bank, and the synthesizer's fallbacks (bank 0 with that program, program 0).
final class LivePresetPreloader {
    let soundBank: SoundFont
    private var bankMSB = [Int](repeating: 0, count: 16)
    private var bankLSB = [Int](repeating: 0, count: 16)
    private var decoded = Set<Int>()
    /// What decoding the starting presets met, reported with the first messages prepared.
    private var startFailure: SampleDecodingError?

    /// nil for banks without compressed samples: nothing to decode.
    init?(soundBank: SoundFont) {
        guard soundBank.samples.contains(where: { $0.sampleType.isCompressed }) else { return nil }
        self.soundBank = soundBank
        // What the channels start on: program 0 and the standard kit.
        startFailure = prepare(candidates(channel: 0, program: 0))
    }

    /// Decodes what `messages` may select; call before queuing them. Returns the first error
    /// decoding met, if any.
    func prepare(_ messages: [MIDIStreamMessage]) -> SampleDecodingError? {
        var failure = startFailure
        startFailure = nil
        for case .channelVoice(let message) in messages {
            switch message {
            case .controlChange(let channel, 0, let value): bankMSB[Int(channel & 15)] = Int(value)
            case .controlChange(let channel, 32, let value): bankLSB[Int(channel & 15)] = Int(value)
            case .programChange(let channel, let program):
                let error = prepare(candidates(channel: Int(channel & 15), program: Int(program)))
                failure = failure ?? error
            default: break
            }
        }
        return failure
    }

    private func candidates(channel: Int, program: Int) -> [Int] {
        let msb = bankMSB[channel], lsb = bankLSB[channel]
        let wanted = [(msb, program), (lsb, program), (msb << 7 | lsb, program), (128, program), (128, 0), (0, program), (0, 0)]
        return wanted.compactMap { soundBank.presetIndex(bank: $0.0, program: $0.1) }
    }

    private func prepare(_ presets: [Int]) -> SampleDecodingError? {
        let fresh = presets.filter { decoded.insert($0).inserted }
        guard !fresh.isEmpty else { return nil }
        do {
            try soundBank.preloadSamples(forPresetsAt: fresh)
            return nil
        } catch let error as SampleDecodingError {
            return error
        } catch {
            return SampleDecodingError(kind: .invalidStream("\(error)"))
        }
    }
}
