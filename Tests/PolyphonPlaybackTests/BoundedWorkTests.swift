import Foundation
import Testing
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

/// A file from anywhere must not make a render run for hours, fill the disk or hold memory in
/// proportion to the time it spans.
@Suite struct BoundedWorkTests {
    /// 30 bytes of MIDI that ask for 142 years of audio: one tick per quarter note at the
    /// slowest tempo (0xFFFFFF µs per quarter), a note, then a delta time of 0x0FFFFFFF ticks.
    static let yearLongFile: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 1]
        + Array("MTrk".utf8) + [0, 0, 0, 20,
                                0x00, 0xFF, 0x51, 0x03, 0xFF, 0xFF, 0xFF,   // tempo 16.8 s per quarter
                                0x00, 0x90, 0x45, 0x64,                     // note on A4
                                0xFF, 0xFF, 0xFF, 0x7F, 0x80, 0x45, 0x00,   // 0x0FFFFFFF ticks later: off
                                0x00, 0xFF, 0x2F]                           // truncated end of track is fine

    @Test func aYearLongFileIsRefusedUpFrontNamingTheEvent() throws {
        let file = try MIDIFile(bytes: Self.yearLongFile, name: "years.mid")
        #expect(file.duration > 100 * 365 * 86400)
        let renderer = OfflineRenderer(soundBank: Fixtures.sineBank())
        var rendered = 0
        let started = Date()
        do {
            try renderer.render(file, into: { _, _, n in rendered += n })
            Issue.record("a 142-year song was rendered")
        } catch let error as DurationLimitError {
            #expect(error.trackIndex == 0)
            #expect(error.tick == 0x0FFF_FFFF)
            #expect(error.limitSeconds == DurationLimit.defaultSeconds)
            #expect(error.description.contains("track 0, tick 268435455"))
            #expect(error.description.contains("years"))
            #expect(error.description.contains("--max-duration"))
        }
        #expect(rendered == 0)
        #expect(Date().timeIntervalSince(started) < 5)
        // Stems check before they render too.
        #expect(throws: DurationLimitError.self) {
            try renderer.renderStems(file, mode: .channel, stemSink: { _ in { _, _, _ in } })
        }
    }

    @Test func theLimitIsTheFirstEventPastItAcrossTracks() throws {
        // 120 BPM, 480 PPQN: 960 ticks a second. Track 1 passes 10 s at tick 10_560 (11 s),
        // track 2 at tick 9_840 (10.25 s): track 2's event is the earlier one.
        let file = Fixtures.song([(channel: 0, key: 60, start: 0, length: 10_560),
                                  (channel: 1, key: 62, start: 9_000, length: 840)])
        do {
            try DurationLimit(seconds: 10).check(file)
            Issue.record("an 11 s song passed a 10 s limit")
        } catch {
            #expect(error.trackIndex == 2)
            #expect(error.tick == 9_840)
            #expect(abs(error.eventSeconds - 10.25) < 1e-9)
        }
        // The lead-in counts; no limit means none.
        #expect(throws: DurationLimitError.self) { try DurationLimit(seconds: 11.5).check(file, leadIn: 1) }
        try DurationLimit(seconds: 11.5).check(file)
        try DurationLimit.none.check(file)
    }

    @Test func noTailRunsPastTheLimit() throws {
        // A looped note released at 1 s with a 4 s release (2400 timecents) rings for seconds;
        // a 1.5 s limit cuts the tail at exactly 1.5 s.
        let file = Fixtures.song([(channel: 0, key: 69, start: 0, length: 960)])
        var options = RenderOptions()
        options.maxDuration = DurationLimit(seconds: 1.5)
        options.synthesizer.reverbEnabled = false
        options.synthesizer.chorusEnabled = false
        let slowRelease = Fixtures.sineBank(generators: [Generator(.releaseVolEnv, 2400)])
        let summary = try OfflineRenderer(soundBank: slowRelease, options: options)
            .render(file, into: { _, _, _ in })
        #expect(summary.frames == 66_150)
        options.maxDuration = .none
        let free = try OfflineRenderer(soundBank: slowRelease, options: options).render(file, into: { _, _, _ in })
        #expect(free.frames > 66_150 * 2)
    }

    @Test func aHostileTimeDoesNotOverflowTheSchedule() throws {
        // Thousands of 142-year gaps: seconds × rate passes Int64's range, which must clamp,
        // not trap, when the caller lifts the limit.
        var track: [UInt8] = [0x00, 0xFF, 0x51, 0x03, 0xFF, 0xFF, 0xFF]
        for _ in 0..<2_000 { track += [0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0x01, 0x00] }  // empty text events
        track += [0x00, 0xFF, 0x2F, 0x00]
        let bytes = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 1] + Array("MTrk".utf8)
            + withUnsafeBytes(of: UInt32(track.count).bigEndian, Array.init) + track
        let file = try MIDIFile(bytes: bytes, name: "aeons.mid")
        let schedule = Timeline(file: file, sampleRate: 192_000)
        #expect(schedule.lastEventFrame > 0)
        #expect(throws: DurationLimitError.self) { try DurationLimit().check(file) }
    }

    /// The CPU time this thread has used, in seconds: the work a render does, which a busy
    /// machine's other processes do not inflate as they do the wall-clock time.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// 100,000 notes on one tick: the polyphony limit keeps the work to the voices that can
    /// sound. Measured here at about 2.5 s of CPU in a debug build; the bound guards against a
    /// cost that grows with notes × voices, not a speed figure.
    @Test func aNoteFloodRendersInTimeProportionalToTheVoices() throws {
        var events: [MIDIEvent] = []
        events.reserveCapacity(200_000)
        for i in 0..<100_000 {
            let channel = UInt8(i % 16), key = UInt8((i / 16) % 128)
            events.append(MIDIEvent(tick: 0, message: .noteOn(channel: channel, note: key, velocity: 100)))
        }
        events.append(MIDIEvent(tick: 480, message: .meta(.endOfTrack)))
        let file = MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDITrack(events: events)])
        var options = RenderOptions()
        options.maxTail = 0.5
        let started = Self.threadCPUSeconds()
        let summary = try OfflineRenderer(soundBank: Fixtures.sineBank(), options: options).render(file, into: { _, _, _ in })
        let seconds = Self.threadCPUSeconds() - started
        #expect(summary.maxVoices <= 256)
        #expect(summary.maxVoices == 256)
        #expect(seconds < 20, "100,000 simultaneous notes took \(seconds) s")
    }

    /// Every key of every channel held down at once, for a second.
    @Test func everyKeyOfEveryChannelHeld() throws {
        var notes: [(channel: UInt8, key: UInt8, start: Int, length: Int)] = []
        for channel in UInt8(0)..<16 { for key in UInt8(0)..<128 { notes.append((channel, key, 0, 960)) } }
        var options = RenderOptions()
        options.maxTail = 1
        let started = Self.threadCPUSeconds()
        let summary = try OfflineRenderer(soundBank: Fixtures.sineBank(), options: options).render(Fixtures.song(notes), into: { _, _, _ in })
        #expect(summary.maxVoices == 256)
        #expect(Self.threadCPUSeconds() - started < 20)
    }
}
