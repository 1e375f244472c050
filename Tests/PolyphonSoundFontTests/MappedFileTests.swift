import Foundation
import Testing
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore

/// The file mapping and its read-into-memory fallback.
@Suite struct MappedFileTests {
    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("polyphon-\(UUID().uuidString).sf2").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func mapsRegularFiles() throws {
        let bytes = TestBanks.rich().serialized()
        let path = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try MappedFile(path: path)
        #expect(file.isMapped)
        #expect(Array(file.bytes) == bytes)
    }

    @Test func fallbackReadsWholeFilesLargerThanItsFirstBuffer() throws {
        // 200 000 points: well past the 64 KiB first read buffer, so the buffer must grow.
        let bank = SoundFont.singleSample((0..<200_000).map { Int16(truncatingIfNeeded: $0 &* 31) })
        let bytes = bank.serialized()
        let path = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try MappedFile(path: path, allowMapping: false)
        #expect(!file.isMapped)
        #expect(Array(file.bytes) == bytes)
        let read = try SoundFont(bytes: file.bytes, owner: file, name: path, sampleDecoder: nil)
        withExtendedLifetime(bank) {
            #expect(Array(read.sampleData.words) == Array(bank.sampleData.words))
        }
    }

    #if os(Linux)
    @Test func filesWithoutASizeAreRead() throws {
        // /proc files report size 0 and cannot be mapped; the fallback reads them to the end.
        let file = try MappedFile(path: "/proc/self/status")
        #expect(!file.isMapped)
        #expect(String(decoding: file.bytes, as: UTF8.self).contains("VmRSS"))
    }
    #endif

    @Test func directoriesAndEmptyFilesAreNotSoundFonts() throws {
        #expect(throws: SoundFontError.self) { try SoundFont(contentsOf: FileManager.default.temporaryDirectory.path) }
        let empty = try Self.temporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: empty) }
        do {
            _ = try SoundFont(contentsOf: empty)
            Issue.record("an empty file loaded")
        } catch {
            #expect(error.kind == .notRIFF && error.file == empty)
        }
    }

    @Test func riffSizeTooSmallForTheFormType() throws {
        var bytes = TestBanks.rich().serialized()
        TestBanks.putU32(2, at: 4, in: &bytes)
        do {
            _ = try SoundFont(bytes: bytes, name: "tiny.sf2")
            Issue.record("loaded")
        } catch {
            guard case .malformed = error.kind else { throw TestFailure("\(error)") }
            #expect(error.chunk == "RIFF" && error.offset == 0)
        }
    }
}
