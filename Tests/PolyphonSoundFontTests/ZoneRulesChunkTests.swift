import Foundation
import Testing
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore

/// Instrument zones' play conditions written into the SF2 (the private `zext` list) and read
/// back: equal conditions on the same zones, nothing for banks without them, and malformed
/// lists rejected with the chunk and byte offset.
@Suite struct ZoneRulesChunkTests {
    /// Every field away from its default, two controller ranges, three header limits.
    static var everyField: PlayCondition {
        var c = PlayCondition()
        c.trigger = .releaseKey
        c.releaseDecay = 3.5
        c.releasePlaysAfterAttackEnded = true
        c.channels = 2...9
        c.controllers = [.init(controller: 1, lower: 10, upper: 90.5), .init(controller: 127, lower: 0, upper: 3)]
        c.pitchBend = -100...4096
        c.programs = 3...4
        c.channelPressure = 5...6
        c.keyPressure = 7...127
        c.randomLower = 0.25
        c.randomUpper = 0.75
        c.sequenceLength = 4
        c.sequencePosition = 3
        c.counter = 2
        c.lastKeyswitch = 36...38
        c.defaultKeyswitch = 37
        c.keyDown = 40
        c.keyUp = 41
        c.previousKey = 50
        c.ignoresNoteOff = true
        c.group = -7
        c.offBy = 4_000_000_000
        c.offTime = nil
        c.region = 12
        c.polyphony.region = 4
        c.polyphony.group = 8
        c.polyphony.note = 2
        c.polyphony.noteSelfMask = false
        c.polyphony.headers = [.init(header: 1, limit: 3), .init(header: 2, limit: 0), .init(header: 9, limit: 256)]
        c.sustainPedal = SustainPedal(controller: 66, threshold: 1, isFollowed: false)
        return c
    }

    /// Two instruments (the second with a global zone), conditions on some zones only.
    static func bank(_ conditions: [PlayCondition?]) -> SoundFont {
        var b = SoundFont.Builder(name: "Rules")
        let s = b.addSample(TestBanks.sine(64), name: "sine", sampleRate: 44_100, originalPitch: 60, loop: 8..<56)
        func zone(_ c: PlayCondition?) -> Zone {
            Zone(generators: [Generator(.sampleModes, 1), Generator(.sampleID, Int16(s))], playCondition: c)
        }
        let plain = b.addInstrument("Plain", zones: [zone(nil)])
        let sfz = b.addInstrument("SFZ", globalZone: Zone(generators: [Generator(.releaseVolEnv, 100)]),
                                  zones: conditions.map(zone))
        b.addPreset("Plain", program: 0, zones: [Zone(generators: [Generator(.instrument, Int16(plain))])])
        b.addPreset("SFZ", program: 1, zones: [Zone(generators: [Generator(.instrument, Int16(sfz))])])
        return b.build()
    }

    @Test func conditionsTravelToTheSameZonesAndOtherBanksWriteNoList() throws {
        var defaults = PlayCondition()
        defaults.counter = 3
        let bank = Self.bank([nil, Self.everyField, nil, defaults])
        let bytes = bank.serialized()
        let read = try SoundFont(bytes: bytes, name: "rules.sf2")
        #expect(read.warnings.isEmpty, "\(read.warnings)")
        #expect(read.instruments == bank.instruments)
        #expect(read.instruments[1].zones.map { $0.playCondition } == [nil, Self.everyField, nil, defaults])
        #expect(read.serialized() == bytes)

        // The list follows pdta; a condition with no lists is the smallest record.
        let top = try TestBanks.chunks(bytes, in: 12..<bytes.count)
        #expect(top.map { String(decoding: bytes[$0.dataOffset..<($0.dataOffset + 4)], as: UTF8.self) }
                == ["INFO", "sdta", "pdta", "zext"])
        let izpc = try TestBanks.chunk("izpc", in: Self.bank([defaults]).serialized(), list: "zext")
        #expect(izpc.size == 8 + ZoneRulesChunk.minimumRecordSize)

        let plain = TestBanks.rich().serialized()
        #expect(try TestBanks.chunks(plain, in: 12..<plain.count).count == 3)
    }

    /// The bytes of a bank with one condition, with `edit` applied to its `izpc` body (offsets
    /// from the body's start), and the body's offset in the file.
    static func edited(_ edit: (inout [UInt8], Int) -> Void) throws -> (bytes: [UInt8], body: Int) {
        var defaults = PlayCondition()
        defaults.sequenceLength = 2
        var bytes = bank([defaults]).serialized()
        let body = try TestBanks.chunk("izpc", in: bytes, list: "zext").dataOffset
        edit(&bytes, body)
        return (bytes, body)
    }

    static func error(_ bytes: [UInt8]) -> SoundFontError? {
        do {
            _ = try SoundFont(bytes: bytes, name: "bad.sf2")
            return nil
        } catch { return error }
    }

    @Test func malformedConditionsAreErrorsNamingChunkAndOffset() throws {
        // Record layout: bag u16 at 8, trigger at 10, … sequenceLength i64 at 41, counter at 57.
        let cases: [(String, (inout [UInt8], Int) -> Void, Int)] = [
            ("record count past the chunk", { b, o in b[o + 4] = 0xFF; b[o + 7] = 0x7F }, 4),
            ("unknown trigger", { b, o in b[o + 10] = 9 }, 10),
            ("non-finite rt_decay", { b, o in b[o + 14] = 0x7F; b[o + 13] = 0xC0 }, 11),
            ("flag neither 0 nor 1", { b, o in b[o + 15] = 2 }, 15),
            ("reversed channels", { b, o in b[o + 16] = 16; b[o + 17] = 1 }, 16),
            ("controller ranges past the end", { b, o in b[o + 18] = 200 }, -1),
            ("zero sequence length", { b, o in for i in 0..<8 { b[o + 41 + i] = 0 } }, 41),
            ("counter beyond the zones", { b, o in b[o + 57] = 5 }, 57),
            ("bag of a global zone", { b, o in b[o + 8] = 1 }, 8),
        ]
        for (what, edit, at) in cases {
            let (bytes, body) = try Self.edited(edit)
            let error = try #require(Self.error(bytes), "\(what)")
            #expect(error.chunk == "izpc", "\(what): \(error)")
            if at >= 0 { #expect(error.offset == body + at, "\(what): \(error)") }
            #expect(error.description.hasPrefix("bad.sf2: izpc at byte "), "\(error)")
        }
        // A list of a later version is skipped with a warning: the zones play unconditioned.
        let (later, _) = try Self.edited { b, o in b[o] = 2 }
        let read = try SoundFont(bytes: later, name: "later.sf2")
        #expect(read.instruments[1].zones[0].playCondition == nil)
        #expect(read.warnings.map(\.chunk) == ["izpc"])
    }
}
