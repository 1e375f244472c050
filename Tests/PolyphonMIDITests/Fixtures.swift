import PolyphonMIDI
@_exported import PolyphonTestSupport

/// Builds Standard MIDI File bytes by hand, so every fixture states its bytes explicitly.
enum SMF {
    /// A variable-length quantity.
    static func vlq(_ value: Int) -> [UInt8] {
        var groups: [UInt8] = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            groups.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return groups
    }

    static func be32(_ value: Int) -> [UInt8] {
        [UInt8((value >> 24) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func le32(_ value: Int) -> [UInt8] {
        Array(be32(value).reversed())
    }

    /// An `MThd` chunk.
    static func header(format: UInt16 = 1, tracks: UInt16, division: UInt16 = 96) -> [UInt8] {
        Array("MThd".utf8) + be32(6) + [UInt8(format >> 8), UInt8(format & 0xFF), UInt8(tracks >> 8),
                                        UInt8(tracks & 0xFF), UInt8(division >> 8), UInt8(division & 0xFF)]
    }

    /// An `MTrk` chunk around `body`, with the correct length unless `length` is given.
    static func track(_ body: [UInt8], length: Int? = nil) -> [UInt8] {
        Array("MTrk".utf8) + be32(length ?? body.count) + body
    }

    /// The end-of-track event with a delta.
    static func endOfTrack(delta: Int = 0) -> [UInt8] {
        vlq(delta) + [0xFF, 0x2F, 0x00]
    }

    /// A meta event with a delta.
    static func meta(_ type: UInt8, _ data: [UInt8], delta: Int = 0) -> [UInt8] {
        vlq(delta) + [0xFF, type] + vlq(data.count) + data
    }

    /// A whole file: header plus one chunk per body (each body gets its correct length).
    static func file(format: UInt16 = 1, division: UInt16 = 96, _ bodies: [[UInt8]]) -> [UInt8] {
        header(format: format, tracks: UInt16(bodies.count), division: division) + bodies.flatMap { track($0) }
    }

    /// A small, valid format-1 file: a conductor track with tempo changes and two instrument
    /// tracks with notes, controllers and running status.
    static let small: [UInt8] = file([
        meta(0x03, Array("Conductor".utf8))
            + meta(0x58, [4, 2, 24, 8])
            + meta(0x51, [0x07, 0xA1, 0x20])             // 500 000 µs: 120 BPM
            + meta(0x51, [0x0F, 0x42, 0x40], delta: 192) // 1 000 000 µs: 60 BPM at tick 192
            + endOfTrack(delta: 192),
        meta(0x03, Array("Piano".utf8))
            + [0x00, 0xC0, 0x00, 0x00, 0xB0, 0x07, 0x64]
            + [0x00, 0x90, 0x3C, 0x40, 0x60, 0x3C, 0x00, 0x00, 0x3E, 0x50, 0x60, 0x80, 0x3E, 0x40]
            + endOfTrack(delta: 10),
        meta(0x03, Array("Bass".utf8))
            + [0x00, 0xC1, 0x21, 0x00, 0x91, 0x24, 0x64, 0x81, 0x40, 0x24, 0x00]
            + [0x00, 0xE1, 0x00, 0x40]
            + endOfTrack(),
    ])

    /// Builds a file from a model, for tests that start from events.
    static func model(format: MIDIFileFormat = .multipleTracks, division: Division = .ticksPerQuarterNote(96),
                      _ tracks: [[(Int, MIDIMessage)]]) -> MIDIFile {
        MIDIFile(format: format, division: division,
                 tracks: tracks.map { MIDITrack(events: $0.map { MIDIEvent(tick: $0.0, message: $0.1) }) })
    }
}



import Foundation
