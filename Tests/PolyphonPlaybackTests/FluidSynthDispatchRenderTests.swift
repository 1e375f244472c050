import Foundation
import PolyphonAudio
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth
import Testing

/// The FluidSynth-aligned file against FluidSynth itself: a click track with tempo changes,
/// rendered by FluidSynth from the original file and by Polyphon from the aligned one, starts
/// every note on the same frame. Required under CI.
@Suite("FluidSynth dispatch against FluidSynth's render", .serialized)
struct FluidSynthDispatchRenderTests {
    static var enabled: Bool { RealFiles.toolAvailable("fluidsynth") }

    /// A DC sample, looped: a voice is silent before its first frame and non-zero from its
    /// second.
    static let bank = SoundFont.singleSample([Int16](repeating: 16_000, count: 2_000) + [Int16](repeating: 0, count: 46),
                                             originalPitch: 60, loop: 100..<1_900)

    /// 60 notes of 40 ticks, 150–400 ticks apart, with a tempo change before every third note.
    static func clickTrack(division: UInt16, seed: UInt64) -> MIDIFile {
        var random = SplitMix64(seed: seed)
        var events: [MIDIEvent] = []
        var tick = 0
        let tempos: [UInt32] = [400_000, 612_345, 333_333, 750_001]
        for i in 0..<60 {
            if i > 0 { tick += 150 + Int(random.next() % 251) }
            if i % 3 == 1 {
                let tempo = tempos[Int(random.next() % 4)]
                events.append(MIDIEvent(tick: tick - 1 - Int(random.next() % 60), message: .meta(.tempo(microsecondsPerQuarterNote: tempo))))
            }
            events.append(MIDIEvent(tick: tick, message: .noteOn(channel: 0, note: 60, velocity: 100)))
            events.append(MIDIEvent(tick: tick + 40, message: .noteOff(channel: 0, note: 60, velocity: 0)))
        }
        events.sort { $0.tick < $1.tick }
        events.append(MIDIEvent(tick: tick + 40, message: .meta(.endOfTrack)))
        return MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(division), tracks: [MIDITrack(events: events)])
    }

    /// The first non-zero frame after at least 300 silent ones, for each sound in `samples`.
    static func onsets(_ samples: [Float]) -> [Int] {
        var result: [Int] = []
        var silent = 300
        for (i, x) in samples.enumerated() {
            if x != 0 {
                if silent >= 300 { result.append(i) }
                silent = 0
            } else {
                silent += 1
            }
        }
        return result
    }

    @Test(.enabled(if: enabled), arguments: [(UInt16(480), 44_100), (96, 44_100), (1000, 48_000), (384, 22_050)])
    func notesStartOnFluidSynthsFrames(division: UInt16, rate: Int) throws {
        let fluidsynth = try #require(RealFiles.tool("fluidsynth"), "fluidsynth is required under CI")
        let dir = Fixtures.tempDirectory
        let song = Self.clickTrack(division: division, seed: UInt64(division) * 7 + UInt64(rate))
        let aligned = try song.alignedToFluidSynthDispatch(sampleRate: rate)
        let bankPath = dir + "/dispatch-dc.sf2", midiPath = dir + "/dispatch-\(division)-\(rate).mid"
        let wavPath = dir + "/dispatch-\(division)-\(rate).wav"
        try Self.bank.write(to: bankPath)
        try song.write(to: URL(fileURLWithPath: midiPath))
        let fluid = try runProcess(fluidsynth, ["-ni", "-q", "-R", "0", "-C", "0", "-g", "0.2", "-r", "\(rate)",
                                                "-O", "float", "-T", "wav", "-F", wavPath, bankPath, midiPath])
        try #require(fluid.status == 0, "fluidsynth failed: \(fluid.stdout)\(fluid.stderr)")
        let theirs = Self.onsets(try AudioFile(contentsOf: wavPath).channels[0])

        var options = RenderOptions()
        options.sampleRate = Double(rate)
        options.synthesizer.reverbEnabled = false
        options.synthesizer.chorusEnabled = false
        let capture = RenderCapture()
        try OfflineRenderer(soundBank: Self.bank, options: options).render(aligned, into: capture.sink)
        let ours = Self.onsets(capture.left)

        let predicted = aligned.tracks[0].events.filter { $0.message.isNoteOn }.map(\.tick)
        let exact = song.timedEvents().filter { $0.message.isNoteOn }.map { Int(($0.seconds * Double(rate)).rounded()) }
        #expect(predicted.count == 60)
        // Both voices start on the predicted frame (their first sample is 0: the amplitude ramps
        // up from 0 over the first block in both synthesizers).
        #expect(theirs == predicted.map { $0 + 1 }, "FluidSynth \(theirs.prefix(8)) predicted \(predicted.prefix(8))")
        #expect(ours == theirs, "Polyphon \(ours.prefix(8)) FluidSynth \(theirs.prefix(8))")
        // And the alignment is what it measures: the exact frames are elsewhere.
        #expect(zip(exact, predicted).filter { $0 != $1 }.count > 50)
    }
}
