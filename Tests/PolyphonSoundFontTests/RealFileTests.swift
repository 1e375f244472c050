import Foundation
import Testing
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Real banks installed by Debian packages, checked against FluidSynth's own reading of them.
@Suite(.serialized) struct RealFileTests {
    /// FluidSynth's `inst 1` listing of a bank: "bbb-ppp Name" lines, as (bank, program, name).
    static func fluidSynthPresets(_ path: String) throws -> [(bank: Int, program: Int, name: String)] {
        let data = try runFluidSynth(path, commands: "inst 1\nquit\n")
        var presets: [(Int, Int, String)] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let bytes = Array(line)
            // "000-000 Yamaha Grand Piano": three digits, '-', three digits, a space, the name.
            guard bytes.count >= 8, bytes[3] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: " "),
                  let bank = Int(String(decoding: bytes[0..<3], as: UTF8.self)),
                  let program = Int(String(decoding: bytes[4..<7], as: UTF8.self))
            else { continue }
            presets.append((bank, program, SoundFontText.decode(bytes[8...])))
        }
        return presets
    }

    /// Runs FluidSynth's shell on `path` with `commands` and returns what it printed, log included.
    static func runFluidSynth(_ path: String, commands: String, verbose: Bool = false) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RealFiles.fluidsynth)
        // No MIDI driver; audio to /dev/null through the file driver (this build has no null driver).
        process.arguments = (verbose ? ["-v"] : []) + ["-n", "-a", "file", "-o", "audio.file.name=/dev/null", path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // Feed the commands from another thread: FluidSynth answers while it reads, and a long
        // script would otherwise fill both pipes and deadlock.
        let writer = input.fileHandleForWriting
        let script = Data(commands.utf8)
        let feeder = Thread {
            writer.write(script)
            try? writer.close()
        }
        feeder.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    /// For notes across every preset, the number of voices FluidSynth starts (its verbose log
    /// prints one `noteon` line per voice) must equal the number of regions we resolve.
    func expectRegionCountsMatchFluidSynthVoices(_ path: String) throws {
        try #require(FileManager.default.fileExists(atPath: path), "\(path) is missing")
        try #require(FileManager.default.fileExists(atPath: RealFiles.fluidsynth), "fluidsynth is missing")
        let font = try SoundFont(contentsOf: path)
        // Each note gets a unique (channel, key, velocity) so its log lines can be told apart.
        struct Note: Hashable { var channel: Int, key: Int, velocity: Int }
        var expected: [Note: Int] = [:]
        var commands = ""
        var counter = 0
        for preset in font.presets {
            for key in [24, 36, 48, 60, 67, 84, 100] {
                let note = Note(channel: (counter / 127) % 16, key: key, velocity: 1 + counter % 127)
                counter += 1
                guard expected[note] == nil else { continue }
                expected[note] = font.regions(bank: Int(preset.bank), program: Int(preset.program),
                                              key: UInt8(key), velocity: UInt8(note.velocity)).count
                commands += "select \(note.channel) 1 \(preset.bank) \(preset.program)\n"
                commands += "noteon \(note.channel) \(key) \(note.velocity)\nreset\n"
            }
        }
        commands += "quit\n"
        let log = try Self.runFluidSynth(path, commands: commands, verbose: true)
        var voices: [Note: Int] = [:]
        for line in String(decoding: log, as: UTF8.self).split(separator: "\n") where line.contains("noteon\t") {
            let fields = line.split(separator: "\t")
            guard fields.count >= 4, let c = Int(fields[1]), let k = Int(fields[2]), let v = Int(fields[3]) else { continue }
            voices[Note(channel: c, key: k, velocity: v), default: 0] += 1
        }
        #expect(voices.values.reduce(0, +) > expected.count / 2, "FluidSynth started too few voices; did the log change?")
        print("\(path): \(expected.count) notes, \(expected.values.reduce(0, +)) regions, FluidSynth started \(voices.values.reduce(0, +)) voices")
        var mismatches = 0
        for (note, count) in expected.sorted(by: { $0.key.velocity + 127 * $0.key.channel < $1.key.velocity + 127 * $1.key.channel }) {
            let theirs = voices[note, default: 0]
            if theirs != count {
                mismatches += 1
                if mismatches <= 10 { Issue.record("\(note): \(count) regions, FluidSynth started \(theirs) voices") }
            }
        }
        #expect(mismatches == 0)
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.timGM6mb)))
    func timGM6mbRegionCountsMatchFluidSynthVoices() throws {
        try expectRegionCountsMatchFluidSynthVoices(RealFiles.timGM6mb)
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.fluidR3)))
    func fluidR3RegionCountsMatchFluidSynthVoices() throws {
        try expectRegionCountsMatchFluidSynthVoices(RealFiles.fluidR3)
    }

    func expectPresetsMatchFluidSynth(_ path: String) throws {
        try #require(FileManager.default.fileExists(atPath: path), "\(path) is missing")
        try #require(FileManager.default.fileExists(atPath: RealFiles.fluidsynth), "fluidsynth is missing")
        let font = try SoundFont(contentsOf: path)
        let expected = try Self.fluidSynthPresets(path)
        #expect(expected.count > 100, "FluidSynth listed only \(expected.count) presets")
        let ours = font.presets
            .map { (bank: Int($0.bank), program: Int($0.program), name: $0.name) }
            .sorted { ($0.bank, $0.program) < ($1.bank, $1.program) }
        #expect(ours.count == expected.count)
        for (a, b) in zip(ours, expected) {
            #expect(a.bank == b.bank && a.program == b.program && a.name == b.name,
                    "ours \(a.bank)-\(a.program) '\(a.name)' vs FluidSynth \(b.bank)-\(b.program) '\(b.name)'")
        }
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.fluidR3)))
    func fluidR3PresetsMatchFluidSynth() throws {
        try expectPresetsMatchFluidSynth(RealFiles.fluidR3)
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.timGM6mb)))
    func timGM6mbPresetsMatchFluidSynth() throws {
        try expectPresetsMatchFluidSynth(RealFiles.timGM6mb)
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.museScore)))
    func museScoreSF3LoadsWithCompressedSamples() throws {
        try #require(FileManager.default.fileExists(atPath: RealFiles.museScore), "\(RealFiles.museScore) is missing")
        let font = try SoundFont(contentsOf: RealFiles.museScore)
        #expect(font.isSF3)
        // Debian's MuseScore_General_Lite.sf3 lacks the pad byte after its odd-sized sdta list;
        // nothing else in it is wrong.
        #expect(font.warnings.allSatisfy { $0.message.contains("without the RIFF pad byte") }, "\(font.warnings)")
        #expect(font.info.versionMajor == 3)
        #expect(font.presets.count > 100)
        let compressed = font.samples.filter { $0.sampleType.isCompressed }
        #expect(compressed.count == font.samples.count)
        // Each compressed sample's span is an Ogg stream inside smpl: it starts with "OggS".
        let smpl = font.sampleData.bytes
        for sample in compressed.prefix(50) {
            #expect(Int(sample.end) <= smpl.count && sample.start < sample.end)
            #expect(Array(smpl[Int(sample.start)..<Int(sample.start) + 4]) == Array("OggS".utf8), "\(sample.name)")
        }
        #expect(!font.regions(bank: 0, program: 0, key: 60, velocity: 100).isEmpty)
        if FileManager.default.fileExists(atPath: RealFiles.fluidsynth) {
            try expectPresetsMatchFluidSynth(RealFiles.museScore)
            try expectRegionCountsMatchFluidSynthVoices(RealFiles.museScore)
        }
    }

    /// Debian's FluidR3Mono SF3 has an odd-sized sdta list without its pad byte: it must load
    /// with a warning saying so, and read like FluidSynth reads it.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: RealFiles.fluidR3Mono)
                   && FileManager.default.fileExists(atPath: RealFiles.fluidsynth)))
    func fluidR3MonoSF3MatchesFluidSynth() throws {
        let font = try SoundFont(contentsOf: RealFiles.fluidR3Mono)
        #expect(font.isSF3)
        #expect(font.warnings.contains { $0.chunk == "LIST" && $0.message.contains("without the RIFF pad byte") })
        #expect(font.samples.contains { $0.sampleType.isCompressed })
        try expectPresetsMatchFluidSynth(RealFiles.fluidR3Mono)
        try expectRegionCountsMatchFluidSynthVoices(RealFiles.fluidR3Mono)
    }

    /// Real banks survive writing: reading what the writer made gives the same model.
    @Test(.enabled(if: RealFiles.available(RealFiles.timGM6mb) && RealFiles.available(RealFiles.museScore)))
    func realBanksRoundTripThroughTheWriter() throws {
        for path in [RealFiles.timGM6mb, RealFiles.museScore] {
            try #require(FileManager.default.fileExists(atPath: path), "\(path) is missing")
            let font = try SoundFont(contentsOf: path)
            let read = try SoundFont(bytes: font.serialized(), name: path + " (rewritten)")
            #expect(read.warnings.isEmpty, "\(read.warnings)")
            #expect(read.info == font.info)
            #expect(read.presets == font.presets)
            #expect(read.instruments == font.instruments)
            #expect(read.samples == font.samples)
            #expect(read.sampleData.bytes.elementsEqual(font.sampleData.bytes))
        }
    }

    /// The per-note lookup skips zones early; it must give exactly the matching regions of the
    /// full resolution, in the same order.
    @Test(.enabled(if: RealFiles.available(RealFiles.timGM6mb)))
    func noteLookupEqualsFilteredPresetRegions() throws {
        try #require(FileManager.default.fileExists(atPath: RealFiles.timGM6mb))
        let font = try SoundFont(contentsOf: RealFiles.timGM6mb)
        var compared = 0
        for (index, preset) in font.presets.enumerated() {
            let all = font.regions(forPresetAt: index)
            for key in stride(from: UInt8(0), through: 127, by: 9) {
                for velocity: UInt8 in [1, 64, 127] {
                    let expected = all.filter { $0.contains(key: key, velocity: velocity) }
                    let found = font.regions(bank: Int(preset.bank), program: Int(preset.program), key: key, velocity: velocity)
                    #expect(found.map(\.sampleIndex) == expected.map(\.sampleIndex))
                    #expect(found.map(\.generators) == expected.map(\.generators))
                    #expect(found.map(\.modulators) == expected.map(\.modulators))
                    compared += found.count
                }
            }
        }
        #expect(compared > 1000)
    }

    /// The writer's output is a SoundFont FluidSynth reads: it lists the presets we wrote.
    @Test(.enabled(if: RealFiles.available(RealFiles.fluidsynth)))
    func fluidSynthReadsWhatWeWrite() throws {
        try #require(FileManager.default.fileExists(atPath: RealFiles.fluidsynth), "fluidsynth is missing")
        let bank = TestBanks.rich(twentyFourBit: true)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("polyphon-\(UUID().uuidString).sf2")
        defer { try? FileManager.default.removeItem(at: url) }
        try bank.write(to: url)
        let listed = try Self.fluidSynthPresets(url.path)
        #expect(listed.map { "\($0.bank)-\($0.program) \($0.name)" } == ["0-80 Lead", "8-89 Pad", "128-0 Drums"])
        // Global zones, key and velocity ranges and stereo pairs resolve to the voices FluidSynth starts.
        try expectRegionCountsMatchFluidSynthVoices(url.path)
    }

    /// Opening FluidR3_GM (148 MB) maps it instead of reading it: fast, and the resident set
    /// grows by the tables only, not the samples.
    @Test(.enabled(if: RealFiles.available(RealFiles.fluidR3)))
    func openingFluidR3IsCheap() throws {
        try #require(FileManager.default.fileExists(atPath: RealFiles.fluidR3))
        _ = try SoundFont(contentsOf: RealFiles.fluidR3)  // warm the page cache
        let rssBefore = Self.residentBytes()
        let start = ContinuousClock.now
        let font = try SoundFont(contentsOf: RealFiles.fluidR3)
        let elapsed = ContinuousClock.now - start
        let rssAfter = Self.residentBytes()
        #expect(font.sampleData.bytes.count == 148_196_112)
        // Debug build on a shared machine: the release build takes about 2 ms (see the report).
        #expect(elapsed < .milliseconds(500), "loading took \(elapsed)")
        print("FluidR3_GM.sf2 opened in \(elapsed); resident set \(rssBefore.map { "\($0 >> 10)" } ?? "?") KiB before, "
              + "\(rssAfter.map { "\($0 >> 10)" } ?? "?") KiB after (debug build)")
        if let rssBefore, let rssAfter {
            #expect(rssAfter - rssBefore < 20 << 20, "resident set grew by \(rssAfter - rssBefore) bytes")
        }
    }

    /// The current resident set size (Linux: /proc/self/statm), or nil where it cannot be read.
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
