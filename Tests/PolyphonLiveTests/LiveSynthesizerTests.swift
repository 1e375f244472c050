import Foundation
import Testing

import PolyphonMIDI
import PolyphonSoundFont
import PolyphonSynth
@testable import PolyphonLive

/// The synthesizer played live: what is sent between blocks sounds exactly as if it had been
/// sent to the synthesizer itself at the start of the next block, SysEx included.
@Suite("Live synthesizer")
struct LiveSynthesizerTests {
    static let sine: SoundFont = {
        let pcm = (0..<2000).map { Int16((12000 * sin(2 * Double.pi * Double($0) / 100)).rounded()) }
        return SoundFont.singleSample(pcm, originalPitch: 69, loop: 100..<2000)
    }()

    static func synthesizer() throws -> Synthesizer {
        var configuration = SynthesizerConfiguration()
        configuration.reverbEnabled = false
        configuration.chorusEnabled = false
        return try Synthesizer(soundBank: sine, sampleRate: 44_100, configuration: configuration)
    }

    /// Blocks of 256 frames; before block `b` the messages of `script[b]`.
    static let script: [Int: [MIDIStreamMessage]] = [
        0: [.channelVoice(.noteOn(channel: 0, note: 69, velocity: 100)), .realTime(0xF8)],
        3: [.systemExclusive([0x7F, 0x7F, 0x04, 0x01, 0x00, 0x20])],  // master volume to a quarter
        5: [.channelVoice(.noteOn(channel: 1, note: 76, velocity: 90)), .channelVoice(.pitchBend(channel: 1, value: 12_000))],
        8: [.systemExclusive([0x7E, 0x7F, 0x09, 0x01]), .channelVoice(.noteOn(channel: 0, note: 64, velocity: 100))],  // GM on
        11: [.channelVoice(.noteOff(channel: 0, note: 64, velocity: 0))],
    ]

    @Test func playsAsTheSynthesizerDoesWithTheSameMessagesAtEachBlock() throws {
        let live = LiveSynthesizer(synthesizer: try Self.synthesizer())
        let direct = try Self.synthesizer()
        let block = 256
        var liveOut = ([Float](repeating: 0, count: block), [Float](repeating: 0, count: block))
        var levels: [Double] = []
        for b in 0..<14 {
            if let messages = Self.script[b] {
                try live.send(messages)
                #expect(live.hasPendingMessages)
                for message in messages {
                    switch message {
                    case .channelVoice(let m): direct.send(m)
                    case .systemExclusive(let body): direct.sendMIDISysExEvent(body)
                    default: break
                    }
                }
            }
            live.render(left: &liveOut.0, right: &liveOut.1, frameCount: block)
            #expect(!live.hasPendingMessages)
            let directOut = direct.render(frameCount: block)
            #expect(liveOut.0 == directOut.left && liveOut.1 == directOut.right, "block \(b)")
            levels.append(Double(liveOut.0.map(abs).max() ?? 0))
        }
        // The SysEx arrived: master volume lowered the level, GM on restored it.
        #expect(levels[4] < levels[2] / 3)
        #expect(levels[9] > levels[4] * 2)
        #expect(live.droppedMessageCount == 0)
    }

    @Test func aWholeMessageIsSentWithItsF7() throws {
        let live = LiveSynthesizer(synthesizer: try Self.synthesizer())
        let withQueue = try Self.synthesizer()
        try live.send(.noteOn(channel: 0, note: 69, velocity: 100))
        try live.send(try MIDIMessage(bytes: [0xF0, 0x7F, 0x7F, 0x04, 0x01, 0x00, 0x20, 0xF7]))
        try live.send(.meta(.endOfTrack))
        withQueue.startNote(69, withVelocity: 100, onChannel: 0)
        withQueue.sendMIDISysExEvent([0xF0, 0x7F, 0x7F, 0x04, 0x01, 0x00, 0x20, 0xF7])
        var left = [Float](repeating: 0, count: 512), right = left
        live.render(left: &left, right: &right, frameCount: 512)
        #expect(left == withQueue.render(frameCount: 512).left)
    }

    /// What does not fit waits for nobody: it is dropped and counted, and the rest still plays.
    @Test func aFullQueueDropsAndCounts() throws {
        let live = LiveSynthesizer(synthesizer: try Self.synthesizer(), messageCapacity: 4, sysExCapacity: 16)
        try live.send([.systemExclusive([UInt8](repeating: 1, count: 17))])
        #expect(live.droppedMessageCount == 1)
        try live.send((0..<6).map { .channelVoice(.controlChange(channel: 0, controller: 7, value: UInt8($0))) })
        #expect(live.droppedMessageCount == 3)
        var left = [Float](repeating: 0, count: 64), right = left
        live.render(left: &left, right: &right, frameCount: 64)
        #expect(!live.hasPendingMessages)
    }
}
