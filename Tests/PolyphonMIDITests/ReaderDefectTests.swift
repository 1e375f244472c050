import Testing
@testable import PolyphonMIDI
@testable import PolyphonMIDICore

/// Real-world defects the reader repairs, each with a warning, and corrupt data it refuses.
@Suite("Reader defects")
struct ReaderDefectTests {
    static let notes: [UInt8] = [0x00, 0x90, 0x3C, 0x40, 0x60, 0x3C, 0x00]
    static let trackA: [UInt8] = notes + SMF.endOfTrack(delta: 4)
    static let trackB: [UInt8] = [0x00, 0xC1, 0x05, 0x10, 0x91, 0x40, 0x40, 0x10, 0x40, 0x00] + SMF.endOfTrack()
    static let clean: MIDIFile = try! MIDIFile(bytes: SMF.file([trackA, trackB]))

    private func kinds(_ file: MIDIFile) -> [MIDIFileWarning.Kind] { file.warnings.map(\.kind) }

    @Test func cleanFileHasNoWarnings() {
        #expect(Self.clean.warnings.isEmpty)
        #expect(Self.clean.tracks.count == 2)
    }

    @Test func trackLengthTooLong() throws {
        // The first chunk claims 10 more bytes than it has; the next MTrk follows its end of track.
        let bytes = SMF.header(tracks: 2) + SMF.track(Self.trackA, length: Self.trackA.count + 10) + SMF.track(Self.trackB)
        let file = try MIDIFile(bytes: bytes)
        #expect(kinds(file) == [.trackLengthTooLong(declared: Self.trackA.count + 10, actual: Self.trackA.count)])
        #expect(file.warnings[0].trackIndex == 0)
        #expect(file.warnings[0].byteOffset == 14 + 8 + Self.trackA.count)
        #expect(file.tracks == Self.clean.tracks)
    }

    @Test func trackLengthTooShort() throws {
        let bytes = SMF.header(tracks: 2) + SMF.track(Self.trackA, length: 5) + SMF.track(Self.trackB)
        let file = try MIDIFile(bytes: bytes)
        #expect(kinds(file) == [.trackLengthTooShort(declared: 5, actual: Self.trackA.count)])
        #expect(file.tracks == Self.clean.tracks)
    }

    @Test func trackLengthTooShortEndingAtEventBoundary() throws {
        // The declared end falls between two events and junk-free event bytes follow.
        let bytes = SMF.header(tracks: 2) + SMF.track(Self.trackA, length: 4) + SMF.track(Self.trackB)
        let file = try MIDIFile(bytes: bytes)
        #expect(kinds(file) == [.trackLengthTooShort(declared: 4, actual: Self.trackA.count)])
        #expect(file.tracks == Self.clean.tracks)
    }

    @Test func missingEndOfTrack() throws {
        let bytes = SMF.file([Self.notes, Self.trackB])
        let file = try MIDIFile(bytes: bytes)
        #expect(kinds(file) == [.missingEndOfTrack])
        #expect(file.warnings[0].byteOffset == 14 + 8 + Self.notes.count)
        #expect(file.tracks[0].events.count == 2)
        #expect(file.tracks[1] == Self.clean.tracks[1])
        // The writer adds the end of track.
        let rewritten = try MIDIFile(bytes: file.serialized())
        #expect(rewritten.warnings.isEmpty)
        #expect(rewritten.tracks[0].events.last?.message == .meta(.endOfTrack))
    }

    @Test func missingEndOfTrackInLastTrack() throws {
        let file = try MIDIFile(bytes: SMF.file([Self.trackA, Self.notes]))
        #expect(kinds(file) == [.missingEndOfTrack])
        #expect(file.warnings[0].trackIndex == 1)
    }

    @Test func truncatedLastTrack() throws {
        let full = SMF.file([Self.trackA, Self.trackB])
        // Cut inside the second event of the last track.
        let cut = Array(full.prefix(full.count - Self.trackB.count + 5))
        let file = try MIDIFile(bytes: cut)
        #expect(kinds(file) == [.truncatedTrack])
        #expect(file.warnings[0].trackIndex == 1)
        #expect(file.tracks[1].events.map(\.message) == [.programChange(channel: 1, program: 5)])
        // Cut exactly between two events: still a truncated track, nothing dropped.
        let atBoundary = Array(full.prefix(full.count - Self.trackB.count + 3))
        let file2 = try MIDIFile(bytes: atBoundary)
        #expect(kinds(file2) == [.truncatedTrack])
        #expect(file2.tracks[1].events.count == 1)
    }

    @Test func junkBetweenAndAfterChunks() throws {
        let junk: [UInt8] = [0x00, 0x00, 0xFF, 0x13]
        let bytes = SMF.header(tracks: 2) + SMF.track(Self.trackA) + junk + SMF.track(Self.trackB) + [0x00, 0x0A, 0x1A]
        let file = try MIDIFile(bytes: bytes)
        #expect(kinds(file) == [.junkBetweenChunks(count: 4), .junkAfterLastChunk(count: 3)])
        #expect(file.tracks == Self.clean.tracks)
        // Longer junk after the last chunk that contains no MTrk.
        let tail = Array(repeating: UInt8(0xEE), count: 20)
        let file2 = try MIDIFile(bytes: SMF.file([Self.trackA, Self.trackB]) + tail)
        #expect(kinds(file2) == [.junkAfterLastChunk(count: 20)])
    }

    @Test func missingEndOfTrackFollowedByJunk() throws {
        // The events after the declared end cannot be read (F5 is no status byte in a file), so
        // the declared length is trusted and the bytes are skipped as junk.
        let junk: [UInt8] = [0x00, 0xF5, 0x00, 0x00]
        let bytes = SMF.header(tracks: 2) + SMF.track(Self.notes) + junk + SMF.track(Self.trackB)
        let file = try MIDIFile(bytes: bytes)
        #expect(kinds(file) == [.missingEndOfTrack, .junkBetweenChunks(count: 4)])
        #expect(file.tracks[0].events.count == 2)
        #expect(file.tracks[1] == Self.clean.tracks[1])
    }

    @Test func bytesAfterEndOfTrackInsideTheChunk() throws {
        let padded = Self.trackA + [0x00, 0x00, 0x00]
        let file = try MIDIFile(bytes: SMF.file([padded, Self.trackB]))
        #expect(kinds(file) == [.bytesAfterEndOfTrack(count: 3)])
        #expect(file.tracks == Self.clean.tracks)
    }

    @Test func unknownChunksAreSkipped() throws {
        let unknown = Array("XFIH".utf8) + SMF.be32(3) + [1, 2, 3]
        let bytes = SMF.header(tracks: 2) + unknown + SMF.track(Self.trackA) + SMF.track(Self.trackB)
        let file = try MIDIFile(bytes: bytes)
        #expect(kinds(file) == [.unknownChunk(id: "XFIH", length: 3)])
        #expect(file.warnings[0].byteOffset == 14)
        #expect(file.tracks == Self.clean.tracks)
    }

    @Test func trackCountMismatch() throws {
        let more = SMF.header(tracks: 3) + SMF.track(Self.trackA) + SMF.track(Self.trackB)
        #expect(kinds(try MIDIFile(bytes: more)) == [.trackCountMismatch(declared: 3, found: 2)])
        let fewer = SMF.header(tracks: 1) + SMF.track(Self.trackA) + SMF.track(Self.trackB)
        let file = try MIDIFile(bytes: fewer)
        #expect(kinds(file) == [.trackCountMismatch(declared: 1, found: 2)])
        #expect(file.tracks.count == 2)
    }

    @Test func formatZeroWithTwoTracks() throws {
        let file = try MIDIFile(bytes: SMF.file(format: 0, [Self.trackA, Self.trackB]))
        #expect(kinds(file) == [.formatZeroTrackCount(2)])
    }

    @Test func malformedMetaLengthsAreKeptRaw() throws {
        let body = SMF.meta(0x51, [0x07, 0xA1, 0x20, 0x00]) + SMF.meta(0x59, [0x00, 0x05]) + SMF.vlq(0) + [0xFF, 0x2F, 0x01, 0x00]
        let file = try MIDIFile(bytes: SMF.file(format: 0, [body]))
        #expect(kinds(file) == [.malformedMetaEvent(type: 0x51, length: 4), .malformedMetaEvent(type: 0x59, length: 2),
                                .malformedMetaEvent(type: 0x2F, length: 1)])
        #expect(file.tracks[0].events.map(\.message) == [
            .meta(.unknown(type: 0x51, data: [0x07, 0xA1, 0x20, 0x00])),
            .meta(.unknown(type: 0x59, data: [0x00, 0x05])),
            .meta(.endOfTrack),
        ])
    }

    @Test func warningsDescribeThemselvesOnOneLine() throws {
        let bytes = SMF.header(tracks: 3) + SMF.track(Self.trackA, length: 5) + SMF.track(Self.notes)
        let file = try MIDIFile(bytes: bytes)
        #expect(file.warnings.count == 3)
        for warning in file.warnings {
            #expect(!warning.description.contains("\n"))
            #expect(warning.description.contains("byte \(warning.byteOffset)"))
        }
        #expect(file.warnings[0].description.hasPrefix("track 0, byte"))
    }

    // MARK: Errors

    private func error(_ bytes: [UInt8]) -> MIDIFileError? {
        do {
            _ = try MIDIFile(bytes: bytes, name: "bad.mid")
            return nil
        } catch {
            return error
        }
    }

    @Test func notAMIDIFile() {
        #expect(error([])?.reason == .notAMIDIFile)
        #expect(error(Array("RIFF".utf8) + SMF.le32(4) + Array("WAVE".utf8))?.reason == .notAMIDIFile)
        #expect(error(Array("MThx".utf8) + SMF.be32(6) + [0, 0, 0, 1, 0, 96])?.reason == .notAMIDIFile)
    }

    @Test func headerErrors() {
        #expect(error(Array("MThd".utf8) + SMF.be32(6) + [0, 1])?.reason == .truncatedHeader)
        #expect(error(Array("MThd".utf8) + SMF.be32(4) + [0, 1, 0, 1])?.reason == .invalidHeaderLength(4))
        #expect(error(SMF.header(format: 3, tracks: 0))?.reason == .unsupportedFormat(3))
        #expect(error(SMF.header(tracks: 0, division: 0))?.reason == .invalidDivision(0))
        #expect(error(SMF.header(tracks: 0, division: 0xE000))?.reason == .invalidDivision(0xE000))
        #expect(error(SMF.header(tracks: 0, division: 0xE928))?.reason == .invalidDivision(0xE928))
        let unsupported = error(SMF.header(format: 7, tracks: 0))
        #expect(unsupported?.byteOffset == 8)
        #expect(unsupported?.trackIndex == nil)
    }

    @Test func headerMayBeLongerThanSix() throws {
        let long = Array("MThd".utf8) + SMF.be32(8) + [0, 0, 0, 1, 0, 96, 0xAA, 0xBB] + SMF.track(Self.trackA)
        let file = try MIDIFile(bytes: long)
        #expect(file.warnings.isEmpty)
        #expect(file.tracks.count == 1)
    }

    @Test func riffWithoutDataChunk() {
        let form = Array("RMID".utf8) + Array("LIST".utf8) + SMF.le32(4) + Array("INFO".utf8)
        #expect(error(Array("RIFF".utf8) + SMF.le32(form.count) + form)?.reason == .missingRIFFDataChunk)
    }

    @Test func corruptTrackData() throws {
        // Data byte first, nothing to run from.
        let noStatus = error(SMF.file([[0x00, 0x3C, 0x40] + SMF.endOfTrack()]))
        #expect(noStatus?.reason == .missingRunningStatus(0x3C))
        #expect(noStatus?.trackIndex == 0)
        #expect(noStatus?.byteOffset == 14 + 8 + 1)
        // Five-byte delta time.
        let longVLQ = error(SMF.file([Self.trackA, [0x81, 0x80, 0x80, 0x80, 0x00, 0x90, 0x3C, 0x40] + SMF.endOfTrack()]))
        #expect(longVLQ?.reason == .variableLengthQuantityTooLong)
        #expect(longVLQ?.trackIndex == 1)
        #expect(longVLQ?.byteOffset == 14 + 8 + Self.trackA.count + 8 + 3)
        // System common and real-time status bytes cannot appear in a file.
        for status: UInt8 in [0xF1, 0xF2, 0xF3, 0xF6, 0xF8, 0xFA, 0xFE] {
            #expect(error(SMF.file([[0x00, status, 0x00] + SMF.endOfTrack()]))?.reason == .unexpectedStatusByte(status))
        }
        // A status byte where a data byte belongs.
        let badData = error(SMF.file([[0x00, 0x90, 0x3C, 0x90, 0x00] + SMF.endOfTrack()]))
        #expect(badData?.reason == .dataByteOutOfRange(0x90))
        #expect(badData?.byteOffset == 14 + 8 + 3)
        let description = try #require(noStatus).description
        #expect(description == "bad.mid: track 0, byte 23 (0x17): data byte 0x3C with no running status in effect")
    }

    @Test func unreadableFile() {
        do {
            _ = try MIDIFile(contentsOfFile: "/nonexistent/dir/none.mid")
            Issue.record("expected an error")
        } catch {
            guard case .unreadable = error.reason else { Issue.record("wrong reason \(error.reason)"); return }
            #expect(error.fileName == "/nonexistent/dir/none.mid")
            #expect(!error.description.contains("\n"))
        }
    }
}
