import Foundation
import Testing

/// The command line against files that ask for too much, and banks that are half there.
@Suite struct HostileInputTests {
    /// 30 bytes that ask for 142 years of audio.
    static let yearLongFile: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 1]
        + Array("MTrk".utf8) + [0, 0, 0, 20, 0x00, 0xFF, 0x51, 0x03, 0xFF, 0xFF, 0xFF, 0x00, 0x90, 0x45, 0x64,
                                0xFF, 0xFF, 0xFF, 0x7F, 0x80, 0x45, 0x00, 0x00, 0xFF, 0x2F]

    @Test func aYearLongFileIsRefusedInOneLine() throws {
        let path = CLI.workDirectory + "/years.mid"
        try Data(Self.yearLongFile).write(to: URL(fileURLWithPath: path))
        let output = CLI.workDirectory + "/years.wav"
        let started = Date()
        let r = try CLI.run(["render", path, "-o", output, "-s", try CLI.bankFile(), "-q"])
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("polyphon: using") }
        #expect(lines.count == 1)
        #expect(lines.first?.contains("years.mid: track 0, tick 268435455") == true)
        #expect(lines.first?.contains("--max-duration") == true)
        #expect(!FileManager.default.fileExists(atPath: output))

        // A lower limit refuses a song that is merely too long; 'none' and a higher one accept it.
        let song = try CLI.songFile()
        let short = try CLI.run(["render", song, "-o", CLI.workDirectory + "/short.wav", "-s", try CLI.bankFile(),
                                 "--max-duration", "0.5", "-q"])
        #expect(short.status == 1)
        #expect(short.stderr.contains("past the maximum duration of 0.5 s"))
        for limit in ["none", "60"] {
            let ok = try CLI.run(["render", song, "-o", CLI.workDirectory + "/ok.wav", "-s", try CLI.bankFile(),
                                  "--max-duration", limit, "-q"])
            #expect(ok.status == 0, "\(ok.stderr)")
        }
        let bad = try CLI.run(["render", song, "--max-duration", "-3", "-s", try CLI.bankFile()])
        #expect(bad.status == 64)
    }

    /// A truncated bank in the user's sound font directory is skipped with one warning, and the
    /// search goes on (to a system bank, or the built-in one).
    @Test func aBrokenDiscoveredBankIsSkippedWithAWarning() throws {
        let home = CLI.workDirectory + "/home-\(UUID().uuidString)"
        let banks = home + "/soundfonts"
        try FileManager.default.createDirectory(atPath: banks, withIntermediateDirectories: true)
        let good = try Data(contentsOf: URL(fileURLWithPath: try CLI.bankFile()))
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: banks + "/broken.sf2"))
        try good.write(to: URL(fileURLWithPath: banks + "/whole.sf2.dpkg-new"))
        let r = try CLI.run(["render", try CLI.songFile(), "-o", CLI.workDirectory + "/discovered.wav", "-q"],
                            environment: ["XDG_DATA_HOME": home, "HOME": home, "SOUNDFONT": "", "POLYPHON_SOUNDFONT": ""])
        #expect(r.status == 0, "\(r.stderr)")
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains("skipping bank") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("broken.sf2") == true)
        #expect(!r.stderr.contains("dpkg-new"))
        #expect(r.stderr.contains("polyphon: using") || r.stderr.contains("built-in"))
    }
}
