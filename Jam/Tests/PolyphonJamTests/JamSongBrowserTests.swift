import Foundation
import Testing
import PolyphonAudio
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonTestSupport

/// A MIDI file on the jam page in headless Chromium (`jam-file-in-chromium.py`): read by the
/// page's WebAssembly reader, played by the worklet's player and compared with the native
/// render of the same file — whole, with the drums muted, and from bar 9 after a seek.
extension JamBrowserTests {
    static let fileScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("jam-file-in-chromium.py").path

    /// A four-track song at 240 bpm in 4/4 (a bar lasts one second), ten bars of notes and an end
    /// at bar 12: piano chords on channel 1 with a lyric each bar, a bass on channel 2 whose
    /// expression, pan, volume, program and bend change along the way, and drums on channel 10.
    /// `drums: false` leaves the drum notes out; `fromBar` starts the song at that bar (from 1),
    /// with the state the song has set by then written at its start; `faster` multiplies the
    /// tempo, `transpose` moves the notes of channels 1 and 2, `bassVolume` sets the bass's volume
    /// at the start instead of its change at bar 5.
    static func song(drums: Bool = true, fromBar: Int = 1, faster: Int = 1, transpose: Int = 0, bassVolume: UInt8? = nil) -> MIDIFile {
        let tpq = 480, bar = 4 * tpq, start = (fromBar - 1) * bar
        func keep(_ events: [MIDIEvent]) -> [MIDIEvent] {
            events.filter { $0.tick >= start }.map { MIDIEvent(tick: $0.tick - start, message: $0.message) }
        }
        func track(_ name: String, _ state: [MIDIMessage], _ events: [MIDIEvent]) -> MIDITrack {
            let head = [MIDIEvent(tick: 0, message: .meta(.text(.trackName, MIDIText(name))))] + state.map { MIDIEvent(tick: 0, message: $0) }
            let body = keep(events.sorted { $0.tick < $1.tick })
            return MIDITrack(events: head + body + [MIDIEvent(tick: 11 * bar - start, message: .meta(.endOfTrack))])
        }
        let conductor = track("Song", [.meta(.tempo(microsecondsPerQuarterNote: UInt32(250_000 / faster))),
                                       .meta(.timeSignature(TimeSignature(numerator: 4, denominatorExponent: 2)))], [])
        var piano: [MIDIEvent] = []
        for b in 0..<10 {
            let root = 60 + transpose + [0, 5, 7, 3][b % 4]
            piano.append(MIDIEvent(tick: b * bar, message: .meta(.text(.lyric, MIDIText("bar\(b + 1)")))))
            for key in [root, root + 4, root + 7] {
                piano.append(MIDIEvent(tick: b * bar, message: .noteOn(channel: 0, note: UInt8(key), velocity: 90)))
                piano.append(MIDIEvent(tick: b * bar + 3 * tpq, message: .noteOff(channel: 0, note: UInt8(key), velocity: 0)))
            }
        }
        var bass: [MIDIEvent] = [
            MIDIEvent(tick: 2 * bar, message: .controlChange(channel: 1, controller: 11, value: 90)),
            MIDIEvent(tick: 5 * bar, message: .programChange(channel: 1, program: 34)),
            MIDIEvent(tick: 6 * bar + tpq, message: .pitchBend(channel: 1, value: 8192 + 2000)),
        ]
        // The page's volume replaces the song's: its change at bar 5 is not sent at all.
        if bassVolume == nil { bass.append(MIDIEvent(tick: 4 * bar, message: .controlChange(channel: 1, controller: 7, value: 70))) }
        for half in 0..<20 {
            let key = UInt8(36 + transpose + [0, 7, 5, 3][half % 4])
            bass.append(MIDIEvent(tick: half * 2 * tpq, message: .noteOn(channel: 1, note: key, velocity: 100)))
            bass.append(MIDIEvent(tick: half * 2 * tpq + 800, message: .noteOff(channel: 1, note: key, velocity: 0)))
        }
        var kit: [MIDIEvent] = []
        for beat in 0..<(drums ? 40 : 0) {
            for key in [beat % 2 == 0 ? 36 : 38, 42] {
                kit.append(MIDIEvent(tick: beat * tpq, message: .noteOn(channel: 9, note: UInt8(key), velocity: 110)))
                kit.append(MIDIEvent(tick: beat * tpq + 120, message: .noteOff(channel: 9, note: UInt8(key), velocity: 0)))
            }
        }
        // What the song has set by `fromBar`, as a seek there chases it.
        let pianoState: [MIDIMessage] = [.programChange(channel: 0, program: 0)]
        var bassState: [MIDIMessage] = [.programChange(channel: 1, program: 33), .controlChange(channel: 1, controller: 10, value: 30)]
        if let bassVolume { bassState.append(.controlChange(channel: 1, controller: 7, value: bassVolume)) }
        if fromBar > 1 {
            bassState += bass.filter { $0.tick < start && !$0.message.isNoteOn && !$0.message.isNoteOff }.map(\.message)
        }
        return MIDIFile(format: .multipleTracks, division: .ticksPerQuarterNote(UInt16(tpq)),
                        tracks: [conductor, track("Piano", pianoState, piano), track("Bass", bassState, bass), track("Drums", [], kit)])
    }

    /// A `.kar` karaoke file: "@" header text events, then one text event per syllable, a
    /// syllable starting with "\\" starting a paragraph and "/" a line — two lines, "Twinkle
    /// twinkle" and "Little star", a syllable every half second (120 bpm), each on a melody note.
    static func karaoke() -> MIDIFile {
        let syllables = ["\\Twin", "kle ", "twin", "kle", "/Lit", "tle ", "star"]
        var words = [MIDIEvent(tick: 0, message: .meta(.text(.text, MIDIText("@KMIDI KARAOKE FILE")))),
                     MIDIEvent(tick: 0, message: .meta(.text(.text, MIDIText("@TTwinkle"))))]
        var melody: [MIDIEvent] = []
        for (i, syllable) in syllables.enumerated() {
            words.append(MIDIEvent(tick: 240 + 480 * i, message: .meta(.text(.text, MIDIText(syllable)))))
            let key = UInt8([60, 60, 67, 67, 69, 69, 67][i])
            melody += [MIDIEvent(tick: 240 + 480 * i, message: .noteOn(channel: 0, note: key, velocity: 90)),
                       MIDIEvent(tick: 240 + 480 * i + 400, message: .noteOff(channel: 0, note: key, velocity: 0))]
        }
        let end = MIDIEvent(tick: 480 * 8, message: .meta(.endOfTrack))
        return MIDIFile(format: .multipleTracks, division: .ticksPerQuarterNote(480),
                        tracks: [MIDITrack(events: [MIDIEvent(tick: 0, message: .meta(.tempo(microsecondsPerQuarterNote: 500_000)))] + [end]),
                                 MIDITrack(events: words + [end]), MIDITrack(events: melody + [end])])
    }

    /// `file` played from its start to tick `end`, then once more from tick `start` to `end`: the
    /// section's events copied after it, with `chase[track]` (the state the song had set before
    /// `start`) at the jump.
    static func looped(_ file: MIDIFile, start: Int, end: Int, chase: [Int: [MIDIMessage]]) -> MIDIFile {
        var copy = file
        copy.tracks = file.tracks.enumerated().map { index, track in
            let body = track.events.filter { $0.tick < end && !$0.message.isEndOfTrack }
            let again = track.events.filter { $0.tick >= start && $0.tick < end && !$0.message.isEndOfTrack }
                .map { MIDIEvent(tick: $0.tick + end - start, message: $0.message) }
            let jump = (chase[index] ?? []).map { MIDIEvent(tick: end, message: $0) }
            return MIDITrack(events: body + jump + again + [MIDIEvent(tick: 2 * end - start, message: .meta(.endOfTrack))])
        }
        return copy
    }

    /// The native render of `file` at `rate` as the page plays it (reverb and chorus on).
    static func nativeRender(_ file: MIDIFile, bank: SoundFont, rate: Double) throws -> [Float] {
        var options = RenderOptions()
        options.sampleRate = rate
        options.synthesizer.reverbEnabled = true
        options.synthesizer.chorusEnabled = true
        var left: [Float] = []
        _ = try OfflineRenderer(soundBank: bank, options: options)
            .render(file, into: { l, _, n in left.append(contentsOf: UnsafeBufferPointer(start: l, count: n)) })
        return left
    }

    /// How many samples differ and the largest difference in dBFS.
    static func difference(_ a: [Float], _ b: [Float]) -> (differing: Int, count: Int, worstDB: Double) {
        let count = min(a.count, b.count)
        let worst = zip(a[..<count], b[..<count]).map { abs($0 - $1) }.max() ?? 1
        return (zip(a[..<count], b[..<count]).filter { $0 != $1 }.count, count, Measure.db(Double(worst)))
    }

    @Test(.enabled(if: RealFiles.isCI || chromiumAvailable), .timeLimit(.minutes(10)))
    func thePagePlaysAMIDIFileAsTheNativeRendererDoes() async throws {
        try await Self.withFolder { out in
            let song = Self.song()
            try Data(song.serialized()).write(to: URL(fileURLWithPath: out + "/song.mid"))
            try Data(Self.karaoke().serialized()).write(to: URL(fileURLWithPath: out + "/song.kar"))
            let plan: [String: Any] = ["seconds": 11, "seekSeconds": 8, "karaokeSeconds": [1.6, 3.3]]
            try JSONSerialization.data(withJSONObject: plan).write(to: URL(fileURLWithPath: out + "/song.json"))
            let (bank, result) = try await Self.runPage(script: Self.fileScript, out: out, offerSongs: true)
            let rate = try #require(result["sampleRate"] as? Double)

            // A file that is not one: the reader's message names it and the problem; the page goes on.
            let bad = try #require(result["badFile"] as? String)
            print("jam, a file that is no MIDI file: \(bad)")
            #expect(bad.contains("not-midi.mid") && bad.contains("not a Standard MIDI File"))
            // Dropped on the page, it is named in the page's message, shown as an error.
            let dropped = try #require(result["droppedFile"] as? [String: Any])
            print("jam, a file dropped that is no MIDI file: \(dropped)")
            let droppedText = dropped["text"] as? String ?? ""
            #expect(droppedText.hasPrefix("Could not open dropped.mid") && droppedText.contains("not a Standard MIDI File"))
            #expect(dropped["shownAsError"] as? Bool == true)
            // A damaged file that still reads (cut short): it loads, and the page shows the
            // reader's warnings, as `polyphon info` lists them.
            let damaged = try #require(result["damagedFile"] as? [String: Any])
            print("jam, a file cut short: \(damaged)")
            let warnings = damaged["warnings"] as? [String] ?? []
            #expect(warnings.contains { $0.contains("byte") })
            #expect((damaged["text"] as? String ?? "").hasPrefix("cut.mid:"))
            #expect(warnings.allSatisfy { (damaged["text"] as? String ?? "").contains($0) })
            #expect(damaged["shownAsError"] as? Bool == true)

            // What the page read.
            let summary = try #require(result["summary"] as? [String: Any])
            #expect(abs((summary["duration"] as? Double ?? 0) - 11) < 1e-9)
            let tracks = try #require(summary["tracks"] as? [[String: Any]])
            #expect(tracks.map { $0["name"] as? String ?? "" } == ["Song", "Piano", "Bass", "Drums"])
            #expect(tracks.map { $0["notes"] as? Int ?? -1 } == [0, 30, 20, 80])
            let channels = try #require(summary["channels"] as? [[String: Any]])
            #expect(channels.map { $0["channel"] as? Int ?? -1 } == [0, 1, 9])
            #expect(channels.map { $0["program"] as? Int ?? -1 } == [0, 33, 0])
            #expect(channels.map { $0["drums"] as? Bool ?? false } == [false, false, true])
            print("jam song channels: \(channels.map { "\($0["channel"] ?? "?") \($0["name"] ?? "?")" })")
            let lyrics = try #require(summary["lyrics"] as? [[String: Any]])
            #expect(lyrics.map { $0["text"] as? String ?? "" } == (1...10).map { "bar\($0)" })
            #expect(lyrics.enumerated().allSatisfy { abs(($1["time"] as? Double ?? -1) - Double($0)) < 1e-9 })

            // The channel meters while the song played with its drums muted: the piano's rose
            // above −60 dBFS; the drums' ended silent (their level from the run before fell away).
            let levels = try #require(result["mutedLevels"] as? [[Any]])
            let piano = levels.compactMap { $0.first as? Double }.max() ?? -.infinity
            print("jam meters: piano peaked at \(piano) dBFS; drums at the end \(levels.last.map { "\($0[9])" } ?? "?") over \(levels.count) readings")
            #expect(levels.count >= 10 && piano > -60)
            #expect(levels.last.map { $0.count == 16 && $0[9] is NSNull } == true)

            // The whole song, the song with its drums muted and the song from bar 9 against the
            // native renders of the same, of the song without drums and of the song cut at bar 9.
            let full = try Self.floats(out + "/full.f32").left
            let muted = try Self.floats(out + "/muted.f32").left
            let seek = try Self.floats(out + "/seek.f32").left
            let faster = try Self.floats(out + "/faster.f32").left
            let loop = try Self.floats(out + "/loop.f32").left
            let volume = try Self.floats(out + "/volume.f32").left
            let bar = 4 * 480
            let loopedSong = Self.looped(song, start: 2 * bar, end: 4 * bar,
                                         chase: [1: [.programChange(channel: 0, program: 0)],
                                                 2: [.programChange(channel: 1, program: 33), .controlChange(channel: 1, controller: 10, value: 30)]])
            for (name, page, file) in [("whole song", full, song), ("drums muted", muted, Self.song(drums: false)),
                                       ("from bar 9", seek, Self.song(fromBar: 9)),
                                       ("twice as fast, 3 semitones up", faster, Self.song(faster: 2, transpose: 3)),
                                       ("bars 3–4 looped", loop, loopedSong),
                                       ("channel 2 at volume 64", volume, Self.song(bassVolume: 64))] {
                let native = try Self.nativeRender(file, bank: bank, rate: rate)
                let (differing, count, worst) = Self.difference(page, native)
                print("jam \(name) vs native render: \(differing) of \(count) samples differ, worst \(worst) dBFS")
                #expect(count == page.count && Measure.db(Measure.rms(page[...])) > -50, "\(name)")
                #expect(worst < -120, "\(name)")
            }
            // The seek bar's readout at 8 s: bar 9, beat 1 (a bar lasts a second), and the time.
            let seekShown = try #require(result["seekShown"] as? String)
            print("jam seek to 8 s shows \"\(seekShown)\"")
            #expect(seekShown.split(separator: " ") == ["9:1", "0:08.0", "/", "0:11.0"])
            // Muting took something audible away.
            let (_, _, mutedAway) = Self.difference(full, muted)
            #expect(mutedAway > -40)

            // The export with the drums muted: a .mid with the other channels' notes, one track per
            // channel, and the server's render, which is the native render of the song without drums.
            let exported = try MIDIFile(contentsOfFile: out + "/exported.mid")
            let exportedNotes = exported.timedEvents().compactMap { e -> Int? in
                if case .noteOn(let c, _, let v) = e.message, v > 0 { return Int(c) }
                return nil
            }
            #expect(exportedNotes.filter { $0 == 0 }.count == 30 && exportedNotes.filter { $0 == 1 }.count == 20 && exportedNotes.count == 50)
            // It keeps the song's tempo map and resolution: every note on the song's own tick.
            #expect(exported.ticksPerQuarterNote == 480)
            let exportedTempos = exported.timedEvents().compactMap { e -> [Int]? in
                if case .meta(.tempo(let t)) = e.message { return [e.tick, Int(t)] }
                return nil
            }
            let songNoteTicks = song.timedEvents().filter { $0.message.isNoteOn && $0.trackIndex != 3 }.map(\.tick).sorted()
            let exportedNoteTicks = exported.timedEvents().filter(\.message.isNoteOn).map(\.tick).sorted()
            print("jam song export (.mid): tempos \(exportedTempos), \(exportedNoteTicks.count) notes")
            #expect(exportedTempos == [[0, 250_000]] && exportedNoteTicks == songNoteTicks)
            // Channels 1 and 10 soloed: only their notes are exported.
            let soloed = try MIDIFile(contentsOfFile: out + "/soloed.mid").timedEvents().compactMap { e -> Int? in
                if case .noteOn(let c, _, let v) = e.message, v > 0 { return Int(c) }
                return nil
            }
            #expect(soloed.filter { $0 == 0 }.count == 30 && soloed.filter { $0 == 9 }.count == 80 && soloed.count == 110)
            let wav = try AudioFile(contentsOf: out + "/exported.wav")
            let withoutDrums = Array(try Self.nativeRender(Self.song(drums: false), bank: bank, rate: rate).prefix(Int(11 * rate)))
            let (differing, count, worst) = Self.difference(wav.channels[0], withoutDrums)
            print("jam song export (.wav, drums muted) vs native render: \(differing) of \(count) samples differ, worst \(worst) dBFS")
            #expect(count > Int(10 * rate) && worst < -120)

            // The drums muted, a drum part played on the keyboard over the song (on a channel of
            // its own, 3, made a GS rhythm part) exports with it: the song's piano and bass and
            // the played snare, not the song's drums.
            let over = try MIDIFile(contentsOfFile: out + "/over.mid")
            let overNotes = over.timedEvents().compactMap { e -> (channel: Int, key: Int, seconds: Double)? in
                if case .noteOn(let c, let k, let v) = e.message, v > 0 { return (Int(c), Int(k), e.seconds) }
                return nil
            }
            let played = overNotes.filter { $0.channel == 2 }
            print("jam layer over the song: \(played.map { "key \($0.key) at \($0.seconds) s" }), \(overNotes.count) notes in all")
            #expect(overNotes.count == 51 && played.map(\.key) == [38] && played.allSatisfy { $0.seconds > 0.3 })
            #expect(over.timedEvents().contains {
                if case .systemExclusive(let body) = $0.message { body.starts(with: [0x41, 0x10, 0x42, 0x12, 0x40, 0x13, 0x15, 0x02]) } else { false }
            }, "channel 3 made a rhythm part")
            // The layer lands on the song's beats: its note's tick is its frame at the song's 240 bpm.
            let playedTick = over.timedEvents().first { if case .noteOn(2, 38, let v) = $0.message { v > 0 } else { false } }?.tick ?? -1
            let playedFrame = try #require(result["overFrame"] as? Double)
            print("jam layer over the song: key 38 on frame \(playedFrame), tick \(playedTick) of 480 per quarter at 240 bpm")
            #expect(over.ticksPerQuarterNote == 480 && playedTick == Int((playedFrame / rate * 1920).rounded()))

            // Paused, the song stays where it is; played again, it goes on from there.
            let paused = try #require(result["paused"] as? [String: Any])
            let at = paused["at"] as? Double ?? -1, still = paused["still"] as? Double ?? -2, later = paused["later"] as? Double ?? -1
            print("jam pause: at \(at) s, still \(still) s, after playing on \(later) s; lyric shown \(paused["lyric"] ?? "none")")
            #expect(at > 0 && still == at && later > at)
            // The lyric of the bar it paused in is the one highlighted.
            #expect(paused["lyric"] as? String == "bar\(Int(at) + 1)")
            // The piano roll draws the notes around the position while the song plays.
            // The song exports on a desktop and on a phone held sideways alike.
            #expect(result["exportShown"] as? [String: Bool] == ["song-desktop.png": true, "song-phone.png": true])
            let roll = try #require(result["rollPixels"] as? [String: Int])
            print("jam piano roll: \(roll) pixels painted")
            #expect(roll.values.allSatisfy { $0 > 500 })
            // Coloured by channel: piano, bass and drums each in a colour of their own, told
            // apart at a glance (each two at least 100 apart in 8-bit RGB).
            let rollColours = try #require(result["rollColours"] as? [String: [[Int]]])
            for (name, colours) in rollColours {
                let apart = colours.indices.flatMap { i in colours.indices.filter { $0 > i }.map { j in
                    sqrt(Double(zip(colours[i], colours[j]).map { ($0 - $1) * ($0 - $1) }.reduce(0, +)))
                } }
                print("jam piano roll (\(name)): colours \(colours), at least \(apart.min() ?? 0) apart")
                #expect(colours.count == 3 && apart.allSatisfy { $0 >= 100 }, "\(name)")
            }
            #expect(try Self.pngSize(out + "/song-desktop.png") == (1280, 800))
            #expect(try Self.pngSize(out + "/song-phone.png") == (844, 390))
            try Self.keepScreenshots(["song-desktop.png", "song-phone.png"], from: out)

            // A .kar file's syllables come back in order on their times, without its "@" headers;
            // the line shown is the one sung, its current syllable highlighted.
            let karaoke = try #require(result["karaoke"] as? [String: Any])
            // Opened from the folder the server offers, listed by file name only.
            #expect(karaoke["listed"] as? [String] == ["song.kar", "song.mid"])
            let karLyrics = try #require(karaoke["lyrics"] as? [[String: Any]])
            #expect(karLyrics.map { $0["text"] as? String ?? "" } == ["\\Twin", "kle ", "twin", "kle", "/Lit", "tle ", "star"])
            #expect(karLyrics.enumerated().allSatisfy { abs(($1["time"] as? Double ?? -1) - (0.25 + 0.5 * Double($0))) < 1e-9 })
            let shown = try #require(karaoke["shown"] as? [[String: Any]])
            print("jam karaoke lines shown at 1.6 s and 3.3 s: \(shown)")
            #expect(shown.map { $0["line"] as? String ?? "" } == ["Twinkle twinkle", "Little star"])
            #expect(shown.map { $0["now"] as? String ?? "" } == ["twin", "star"])
            #expect(shown.map { $0["sung"] as? Int ?? -1 } == [2, 2])

            // Another instrument on channel 1.
            let instrument = try #require(result["instrument"] as? String)
            #expect(instrument.lowercased().contains("violin"), "\(instrument)")
        }
    }
}
