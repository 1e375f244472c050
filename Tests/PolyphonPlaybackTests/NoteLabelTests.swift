import Foundation
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth
import Testing

/// Note labels against the file's notes and against the rendered audio, to the frame.
@Suite struct NoteLabelTests {
    static func frame(_ tick: Int) -> Int64 { Int64((Double(tick) / 960 * 44100).rounded()) }

    static func options() -> RenderOptions {
        var o = RenderOptions()
        o.synthesizer.reverbEnabled = false
        o.synthesizer.chorusEnabled = false
        return o
    }

    @Test func labelsAgreeWithTheAudioToTheFrame() throws {
        // Instant attack and a 1 ms release: the sound starts on the onset frame (the sine's
        // first point is 0, so the first non-zero sample is the next one) and dies right after
        // the offset.
        let bank = Fixtures.sineBank(generators: [Generator(.delayVolEnv, -32768), Generator(.attackVolEnv, -32768),
                                                  Generator(.releaseVolEnv, -12000)])
        // A: ticks 7–487. B: 1000–1200, held by the pedal (down 1100, up 1500).
        let song = Fixtures.song([(0, 69, 7, 480), (0, 72, 1000, 200)],
                                 extra: [MIDIEvent(tick: 1100, message: .controlChange(channel: 0, controller: 64, value: 127)),
                                         MIDIEvent(tick: 1500, message: .controlChange(channel: 0, controller: 64, value: 0))])
        let labels = Timeline(file: song, sampleRate: 44100).noteLabels()
        #expect(labels.map(\.onsetFrame) == [Self.frame(7), Self.frame(1000)])
        #expect(labels.map(\.offsetFrame) == [Self.frame(487), Self.frame(1500)])
        #expect(labels.map(\.pitch) == [69, 72])
        #expect(labels.allSatisfy { $0.velocity == 100 && $0.channel == 1 && $0.program == 0 && !$0.isDrum })
        #expect(labels[1].onsetSeconds == Double(Self.frame(1000)) / 44100)

        let capture = RenderCapture()
        _ = try OfflineRenderer(soundBank: bank, options: Self.options()).render(song, into: capture.sink)
        let audio = capture.left
        func firstSound(after frame: Int64) -> Int { audio[Int(frame)...].firstIndex { $0 != 0 } ?? -1 }
        func loudest(_ range: Range<Int64>) -> Float {
            let upper = min(Int(range.upperBound), audio.count), lower = min(Int(range.lowerBound), upper)
            return audio[lower..<upper].map(abs).max() ?? 0
        }
        for label in labels {
            #expect(audio[Int(label.onsetFrame - 200)..<Int(label.onsetFrame)].allSatisfy { $0 == 0 },
                    "sound before the onset of \(label.pitch)")
            #expect(firstSound(after: label.onsetFrame) == Int(label.onsetFrame) + 1)
            // Full level up to the offset, silence soon after it.
            #expect(loudest(label.offsetFrame - 150..<label.offsetFrame) > 0.01)
            #expect(loudest(label.offsetFrame + 2000..<label.offsetFrame + 2200) < 1e-4)
        }
        // B sounds on through its note-off while the pedal holds it.
        #expect(loudest(Self.frame(1200)..<Self.frame(1500) - 1) > 0.01)
    }

    /// A song's timeline holds each note as a note-on that knows its end (no note-off event):
    /// its labels end there, the same as the labels of the song written as a MIDI file.
    @Test func aSongsLabelsEndWhereItsNotesDo() {
        var song = Song()
        song.replaceTempo(120)
        song.addTrack(program: 0) { track in
            track.note(60, beats: 1)
            track.note(60, beats: 0.5)  // struck again on the frame the first ends
            track.controller(64, value: 127)
            track.note(64, beats: 0.25)
            track.rest(beats: 1)
            track.controller(64, value: 0)
        }
        let labels = Timeline(song: song, sampleRate: 44_100).noteLabels()
        #expect(labels.map { [$0.pitch, Int($0.onsetFrame), Int($0.offsetFrame)] }
                    == [[60, 0, 22_050], [60, 22_050, 33_075], [64, 33_075, 60_638]])
        #expect(labels == Timeline(file: song.midiFile(), sampleRate: 44_100).noteLabels())
    }

    @Test func aShortNoteEndsAfterTheMinimumNoteLengthAsTheAudioDoes() throws {
        let bank = Fixtures.sineBank(generators: [Generator(.delayVolEnv, -32768), Generator(.attackVolEnv, -32768),
                                                  Generator(.releaseVolEnv, -12000)])
        // A 1-tick note (46 frames), and one released after 1 tick with the pedal going down
        // before its minimum length is up: the held-back release begins anyway.
        let song = Fixtures.song([(0, 69, 100, 1), (1, 69, 400, 1)],
                                 extra: [MIDIEvent(tick: 404, message: .controlChange(channel: 1, controller: 64, value: 127)),
                                         MIDIEvent(tick: 900, message: .controlChange(channel: 1, controller: 64, value: 0))])
        let labels = Timeline(file: song, sampleRate: 44100).noteLabels()
        // 10 ms at 44.1 kHz is 441 frames: 7 control periods, 448 frames.
        #expect(labels.map(\.offsetFrame) == [Self.frame(100) + 448, Self.frame(400) + 448])
        let capture = RenderCapture()
        _ = try OfflineRenderer(soundBank: bank, options: Self.options()).render(song, into: capture.sink)
        let audio = capture.left
        func loudest(_ range: Range<Int64>) -> Float {
            let upper = min(Int(range.upperBound), audio.count), lower = min(Int(range.lowerBound), upper)
            return audio[lower..<upper].map(abs).max() ?? 0
        }
        for l in labels {
            #expect(loudest(l.offsetFrame - 60..<l.offsetFrame) > 0.01, "note \(l.channel) still sounds before its offset")
            #expect(loudest(l.offsetFrame + 2000..<l.offsetFrame + 2200) < 1e-4, "note \(l.channel) is over after it")
        }
        // Turned off, the labels follow the note-offs.
        #expect(Timeline(file: song, sampleRate: 44100).noteLabels(minimumNoteLength: 0).map(\.offsetFrame)
                == [Self.frame(101), Self.frame(401)])
    }

    @Test func aKeyStruckAgainUnderThePedalLeavesTheEarlierNoteSounding() throws {
        let song = Fixtures.song([(0, 60, 0, 300), (0, 60, 100, 100), (1, 62, 0, 50), (1, 62, 100, 100)],
                                 extra: [MIDIEvent(tick: 10, message: .controlChange(channel: 0, controller: 64, value: 127)),
                                         MIDIEvent(tick: 600, message: .controlChange(channel: 0, controller: 64, value: 0))])
        let labels = Timeline(file: song, sampleRate: 44100).noteLabels()
        // Channel 1 (pedal down): both strikes of key 60 sound until the pedal lifts at 600.
        // Channel 2 (no pedal): the first note ends at its note-off.
        #expect(labels.map { [Int($0.onsetFrame), Int($0.offsetFrame), $0.channel] } == [
            [Int(Self.frame(0)), Int(Self.frame(600)), 1],
            [Int(Self.frame(0)), Int(Self.frame(50)), 2],
            [Int(Self.frame(100)), Int(Self.frame(600)), 1],
            [Int(Self.frame(100)), Int(Self.frame(200)), 2],
        ])
    }

    @Test func pedalsStillDownAtTheEndReleaseWhereTheTailBegins() throws {
        let song = Fixtures.song([(0, 60, 0, 100)],
                                 extra: [MIDIEvent(tick: 50, message: .controlChange(channel: 0, controller: 64, value: 127)),
                                         MIDIEvent(tick: 200, message: .pitchBend(channel: 0, value: 8192))])
        let schedule = Timeline(file: song, sampleRate: 44100)
        // The last frame carries an event, so the tail begins on the frame after it.
        #expect(schedule.noteLabels().map(\.offsetFrame) == [Self.frame(200) + 1])
        #expect(schedule.noteLabels(liftPedalsAtEnd: false).map(\.offsetFrame) == [Self.frame(200)])
    }

    @Test func retriggersAllSoundOffAndUnreleasedNotes() throws {
        let events: [MIDIEvent] = [
            MIDIEvent(tick: 0, message: .programChange(channel: 2, program: 33)),
            MIDIEvent(tick: 0, message: .noteOn(channel: 1, note: 60, velocity: 90)),
            MIDIEvent(tick: 100, message: .noteOn(channel: 1, note: 60, velocity: 80)),   // ends the first
            MIDIEvent(tick: 200, message: .noteOff(channel: 1, note: 60, velocity: 0)),
            MIDIEvent(tick: 300, message: .controlChange(channel: 2, controller: 64, value: 100)),
            MIDIEvent(tick: 300, message: .noteOn(channel: 2, note: 40, velocity: 70)),
            MIDIEvent(tick: 350, message: .controlChange(channel: 2, controller: 123, value: 0)),  // held by the pedal
            MIDIEvent(tick: 400, message: .controlChange(channel: 2, controller: 121, value: 0)),  // lifts it
            MIDIEvent(tick: 500, message: .noteOn(channel: 9, note: 36, velocity: 127)),
            MIDIEvent(tick: 600, message: .controlChange(channel: 9, controller: 120, value: 0)),
            MIDIEvent(tick: 700, message: .noteOn(channel: 3, note: 50, velocity: 10)),          // never released
            MIDIEvent(tick: 960, message: .meta(.endOfTrack)),
        ]
        let file = MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDITrack(events: events)])
        let labels = Timeline(file: file, sampleRate: 44100).noteLabels()
        let summary = labels.map { [Int($0.onsetFrame), Int($0.offsetFrame), $0.pitch, $0.velocity, $0.channel, $0.program] }
        let f = { (t: Int) in Int(Self.frame(t)) }
        #expect(summary == [
            [f(0), f(100), 60, 90, 2, 0],
            [f(100), f(200), 60, 80, 2, 0],
            [f(300), f(400), 40, 70, 3, 33],
            [f(500), f(600), 36, 127, 10, 0],
            [f(700), f(960), 50, 10, 4, 0],
        ])
        #expect(labels.map(\.isDrum) == [false, false, false, true, false])
    }

    @Test func labelFilesListEveryNote() throws {
        let song = Fixtures.song([(0, 60, 0, 480), (9, 38, 240, 10)])
        let labels = Timeline(file: song, sampleRate: 48000).noteLabels()
        let csv = String(decoding: try NoteLabelFormat.csv.encode(labels, sampleRate: 48000), as: UTF8.self)
        let lines = csv.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("onset_seconds,offset_seconds,onset_frame,offset_frame,pitch"))
        // The 10-tick drum note is shorter than the minimum note length: 512 frames at 48 kHz.
        #expect(lines[2].hasPrefix("0.25,"))
        #expect(lines[2].contains(",12000,12512,38,100,10,0,1,"), "\(lines[2])")
        let json = try JSONSerialization.jsonObject(with: try NoteLabelFormat.json.encode(labels, sampleRate: 48000)) as? [String: Any]
        #expect(json?["sampleRate"] as? Double == 48000)
        #expect((json?["notes"] as? [[String: Any]])?.count == 2)
    }

    @Test func programStemsFollowProgramChangesAndAddUpToTheMix() throws {
        let bank = Fixtures.sineBank(generators: [Generator(.releaseVolEnv, -1200)])
        // Channels 0 and 1 both play program 0 (one stem); channel 0 switches to program 5
        // before its second note; channel 10 plays drums.
        let song = Fixtures.song([(0, 60, 0, 480), (1, 64, 240, 480), (0, 67, 960, 480), (9, 36, 100, 200)],
                                 extra: [MIDIEvent(tick: 0, message: .controlChange(channel: 1, controller: 91, value: 100)),
                                         MIDIEvent(tick: 900, message: .programChange(channel: 0, program: 5))])
        var o = Self.options()
        o.synthesizer.reverbEnabled = true
        o.synthesizer.chorusEnabled = true
        var stems: [Int: RenderCapture] = [:]
        var labels: [String] = []
        let mix = RenderCapture()
        _ = try OfflineRenderer(soundBank: bank, options: o).renderStems(song, mode: .program, stemSink: { stem in
            let c = RenderCapture()
            stems[stem.index] = c
            labels.append(stem.label)
            return c.sink
        }, mix: mix.sink)
        #expect(stems.keys.sorted() == [0, 5, 128])
        #expect(labels.count == 3 && labels[0].hasPrefix("program000") && labels[1].hasPrefix("program005")
                && labels[2].hasPrefix("drums000"))
        #expect(mix.largestDifference(fromSumOf: stems.values) < 1e-6)
        // Each stem holds only its own notes: program 5's stem is silent before its note (tick 960).
        let before = Int(Self.frame(960))
        #expect(stems[5]!.left[..<before].allSatisfy { $0 == 0 })
        #expect(stems[5]!.left[before...].contains { $0 != 0 })
    }

    /// Drum parts as the synthesizer has them: a GS part made a rhythm part plays a kit; after
    /// GS Reset only channel 10 does; after XG System On bank 127 makes a channel drums.
    @Test func labelsAndStemsFollowGSRhythmPartsAndXGDrumBanks() throws {
        let gsDrums: [UInt8] = [0x41, 0x10, 0x42, 0x12, 0x40, 0x12, 0x15, 0x02, 0x17, 0xF7]  // part 2 = channel 2
        let gsReset: [UInt8] = [0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]
        let xgOn: [UInt8] = [0x43, 0x10, 0x4C, 0x00, 0x00, 0x7E, 0x00, 0xF7]
        let song = Fixtures.song([(1, 38, 100, 100), (1, 60, 1100, 100), (3, 42, 2100, 100), (3, 62, 3100, 100)],
                                 extra: [MIDIEvent(tick: 0, message: .systemExclusive(gsDrums)),
                                         MIDIEvent(tick: 1000, message: .systemExclusive(gsReset)),
                                         MIDIEvent(tick: 2000, message: .systemExclusive(xgOn)),
                                         MIDIEvent(tick: 2010, message: .controlChange(channel: 3, controller: 0, value: 127)),
                                         MIDIEvent(tick: 3000, message: .controlChange(channel: 3, controller: 0, value: 0))])
        let labels = Timeline(file: song, sampleRate: 44100).noteLabels()
        #expect(labels.map(\.pitch) == [38, 60, 42, 62])
        #expect(labels.map(\.isDrum) == [true, false, true, false])

        var names: [String] = []
        _ = try OfflineRenderer(soundBank: Fixtures.sineBank(generators: []), options: Self.options())
            .renderStems(song, mode: .program, stemSink: { stem in names.append(stem.label); return RenderCapture().sink },
                         mix: RenderCapture().sink)
        // Melodic stems first, then kits.
        #expect(names.count == 2 && names[0].hasPrefix("program000") && names[1].hasPrefix("drums000"), "\(names)")
    }
}
