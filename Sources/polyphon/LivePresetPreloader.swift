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

    /// nil for banks without compressed samples: nothing to decode.
    init?(soundBank: SoundFont) {
        guard soundBank.samples.contains(where: { $0.sampleType.isCompressed }) else { return nil }
        self.soundBank = soundBank
        // What the channels start on: program 0 and the standard kit.
        prepare(candidates(channel: 0, program: 0))
    }

    /// Decodes what `messages` may select; call before queuing them.
    func prepare(_ messages: [MIDIStreamMessage]) {
        for case .channelVoice(let message) in messages {
            switch message {
            case .controlChange(let channel, 0, let value): bankMSB[Int(channel & 15)] = Int(value)
            case .controlChange(let channel, 32, let value): bankLSB[Int(channel & 15)] = Int(value)
            case .programChange(let channel, let program): prepare(candidates(channel: Int(channel & 15), program: Int(program)))
            default: break
            }
        }
    }

    private func candidates(channel: Int, program: Int) -> [Int] {
        let msb = bankMSB[channel], lsb = bankLSB[channel]
        let wanted = [(msb, program), (lsb, program), (msb << 7 | lsb, program), (128, program), (128, 0), (0, program), (0, 0)]
        return wanted.compactMap { soundBank.presetIndex(bank: $0.0, program: $0.1) }
    }

    private func prepare(_ presets: [Int]) {
        let fresh = presets.filter { decoded.insert($0).inserted }
        guard !fresh.isEmpty else { return }
        do {
            try soundBank.preloadSamples(forPresetsAt: fresh)
        } catch {
            note("polyphon: \(error)")
        }
    }
}
