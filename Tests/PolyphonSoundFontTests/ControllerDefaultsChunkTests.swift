import Foundation
import Testing
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore

/// Presets' controller defaults (SFZ `set_ccN`) written into the SF2's private `zext` list as a
/// `pcdf` chunk and read back: equal defaults on the same presets, with or without play
/// conditions beside them, and malformed records rejected with the chunk and byte offset.
@Suite struct ControllerDefaultsChunkTests {
    static let defaults = [ControllerDefault(controller: 1, value: 0), ControllerDefault(controller: 20, value: 127),
                           ControllerDefault(controller: 74, value: 64)]

    /// ZoneRulesChunkTests' bank (presets 0 and 1), the second preset with ``defaults``.
    static func bank(conditions: [PlayCondition?] = [nil]) -> SoundFont {
        var bank = ZoneRulesChunkTests.bank(conditions)
        bank.presets[1].controllerDefaults = defaults
        return bank
    }

    @Test func defaultsTravelToTheSamePresetsBesideOrWithoutPlayConditions() throws {
        for conditions in [[nil], [PlayCondition()]] as [[PlayCondition?]] {
            let bank = Self.bank(conditions: conditions)
            let bytes = bank.serialized()
            let read = try SoundFont(bytes: bytes, name: "defaults.sf2")
            #expect(read.warnings.isEmpty, "\(read.warnings)")
            #expect(read.presets.map(\.controllerDefaults) == [[], Self.defaults])
            #expect(read.instruments[1].zones.map(\.playCondition) == conditions)
            #expect(read.serialized() == bytes)
            let pcdf = try TestBanks.chunk("pcdf", in: bytes, list: "zext")
            #expect(pcdf.size == 8 + 3 + 2 * Self.defaults.count)
        }
    }

    @Test func malformedDefaultsAreErrorsNamingChunkAndOffset() throws {
        // Layout: version u16 at 0, count u32 at 4, preset u16 at 8, count u8 at 10, pairs from 11.
        let cases: [(String, (inout [UInt8], Int) -> Void, Int)] = [
            ("a preset the bank lacks", { b, o in b[o + 8] = 2 }, 8),
            ("a value past 127", { b, o in b[o + 14] = 200 }, 13),
            ("a controller past 127", { b, o in b[o + 11] = 128 }, 11),
            ("pairs past the chunk", { b, o in b[o + 10] = 9 }, 11),
            ("records past the chunk", { b, o in b[o + 4] = 2 }, 17),
        ]
        for (what, edit, at) in cases {
            var bytes = Self.bank().serialized()
            let body = try TestBanks.chunk("pcdf", in: bytes, list: "zext").dataOffset
            edit(&bytes, body)
            let error = try #require(ZoneRulesChunkTests.error(bytes), "\(what)")
            #expect(error.chunk == "pcdf" && error.offset == body + at, "\(what): \(error)")
        }
        // A chunk of a later version is skipped with a warning.
        var later = Self.bank().serialized()
        later[try TestBanks.chunk("pcdf", in: later, list: "zext").dataOffset] = 2
        let read = try SoundFont(bytes: later, name: "later.sf2")
        #expect(read.presets[1].controllerDefaults.isEmpty && read.warnings.map(\.chunk) == ["pcdf"])
    }
}
