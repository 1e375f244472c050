import Testing
@testable import PolyphonMIDI
@testable import PolyphonMIDICore

/// Truncated and bit-flipped variants of valid files: each must load (possibly with warnings) or
/// throw a `MIDIFileError`, never trap or hang; what loads must write and read back cleanly.
@Suite("Mutated files", .timeLimit(.minutes(10)))
struct MutationTests {
    /// Valid files of different shapes: PPQN and SMPTE, formats 0–2, sysex, meta, RMID.
    static let seeds: [[UInt8]] = {
        let everything = SMF.model(format: .singleTrack, [[
            (0, .meta(.text(.trackName, MIDIText("Mutant")))), (0, .meta(.tempo(microsecondsPerQuarterNote: 300_000))),
            (0, .systemExclusive([0x7E, 0x7F, 0x09, 0x01, 0xF7])), (0, .sysExContinuation([0xF8])),
            (5, .noteOn(channel: 0, note: 60, velocity: 100)), (5, .noteOn(channel: 0, note: 64, velocity: 100)),
            (200, .pitchBend(channel: 0, value: 9000)), (300, .noteOn(channel: 0, note: 60, velocity: 0)),
            (300, .meta(.keySignature(KeySignature(sharpsOrFlats: 2, isMinor: false)))),
            (301, .channelPressure(channel: 3, pressure: 9)), (400, .controlChange(channel: 3, controller: 64, value: 0)),
            (20_000, .meta(.endOfTrack)),
        ]]).serialized()
        let smpte = SMF.file(format: 2, division: 0xE728, [
            SMF.meta(0x51, [0x07, 0xA1, 0x20]) + [0x00, 0x90, 0x3C, 0x40, 0x83, 0x60, 0x3C, 0x00] + SMF.endOfTrack(),
            [0x00, 0xC5, 0x01, 0x10, 0xD5, 0x20] + SMF.endOfTrack(delta: 1),
        ])
        let smf = SMF.small
        let form = Array("RMID".utf8) + Array("data".utf8) + SMF.le32(smf.count) + smf
        let rmid = Array("RIFF".utf8) + SMF.le32(form.count) + form
        return [SMF.small, everything, smpte, rmid]
    }()

    /// Loads `bytes`; when they load, checks the file can be written and read back to the same
    /// events (with the end of track the writer adds), and that timing never traps.
    private func exercise(_ bytes: [UInt8]) -> Bool {
        let file: MIDIFile
        do {
            file = try MIDIFile(bytes: bytes, name: "mutant.mid")
        } catch {
            #expect(!error.description.contains("\n"))
            #expect(error.byteOffset >= 0 && error.byteOffset <= bytes.count)
            return false
        }
        _ = file.duration
        _ = file.timedEvents().last
        let written = file.serialized()
        guard let reread = try? MIDIFile(bytes: written) else {
            Issue.record("writer output of a mutant did not read back")
            return true
        }
        // Only defects the writer keeps on purpose remain: raw meta events of odd length (lossless)
        // and a format-0 file with several tracks (kept as read).
        let kept = reread.warnings.filter {
            if case .malformedMetaEvent = $0.kind { return false }
            if case .formatZeroTrackCount = $0.kind { return false }
            return true
        }
        #expect(kept.isEmpty, "\(kept)")
        #expect(reread.tracks == file.tracks.map(Self.withEndOfTrack))
        #expect(reread.serialized() == written)
        return true
    }

    /// The track as the writer puts it out: ending in exactly one end of track.
    static func withEndOfTrack(_ track: MIDITrack) -> MIDITrack {
        var track = track
        if track.events.last?.message.isEndOfTrack != true {
            track.events.append(MIDIEvent(tick: track.endTick, message: .meta(.endOfTrack)))
        }
        return track
    }

    @Test func seedsLoadCleanly() throws {
        for seed in Self.seeds {
            let file = try MIDIFile(bytes: seed)
            #expect(file.warnings.isEmpty)
        }
    }

    @Test func everyTruncation() {
        var loaded = 0, refused = 0
        for seed in Self.seeds {
            for length in 0..<seed.count {
                if exercise(Array(seed.prefix(length))) { loaded += 1 } else { refused += 1 }
            }
        }
        // Both outcomes occur: short prefixes are refused, long ones load with a warning.
        #expect(loaded > 100)
        #expect(refused > 40)
    }

    @Test func randomBitFlipsAndByteChanges() {
        var generator = SplitMix64(seed: 0x5EED_F00D)
        var loaded = 0, refused = 0
        for round in 0..<1600 {
            var bytes = Self.seeds[round % Self.seeds.count]
            let mutations = 1 + Int(generator.next() % 4)
            for _ in 0..<mutations {
                let index = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 4 {
                case 0, 1: bytes[index] ^= UInt8(1) << (generator.next() % 8)
                case 2: bytes[index] = UInt8(truncatingIfNeeded: generator.next())
                default:
                    if generator.next() % 2 == 0 { bytes.remove(at: index) } else { bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: index) }
                }
                if bytes.isEmpty { bytes = [0] }
            }
            if exercise(bytes) { loaded += 1 } else { refused += 1 }
        }
        #expect(loaded > 400)
        #expect(refused > 50)
    }

    @Test(.enabled(if: RealFiles.available("/usr/share/planetblupi/music/music004.mid")))
    func bitFlipsInARealFile() throws {
        let real = try MIDIFile(contentsOfFile: "/usr/share/planetblupi/music/music004.mid")
        let bytes = real.serialized()
        var generator = SplitMix64(seed: 7)
        for _ in 0..<60 {
            var mutant = bytes
            for _ in 0..<(1 + Int(generator.next() % 8)) {
                mutant[Int(generator.next() % UInt64(mutant.count))] ^= UInt8(1) << (generator.next() % 8)
            }
            _ = exercise(mutant)
        }
    }

    @Test func randomGarbageAfterValidHeader() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<300 {
            let count = Int(generator.next() % 64)
            let body = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            _ = exercise(SMF.header(tracks: 1) + SMF.track(body, length: Int(generator.next() % 80)))
            _ = exercise(SMF.header(tracks: 1) + SMF.track(body))
        }
    }
}
