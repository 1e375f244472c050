import Foundation
import Testing
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore

/// Bank sniffing and the search order of ``SoundBankLocator``, on a fake file system in a
/// temporary directory.
@Suite struct DiscoveryTests {
    static let sfbk = Array("RIFF".utf8) + [4, 0, 0, 0] + Array("sfbk".utf8)
    static let dls = Array("RIFF".utf8) + [4, 0, 0, 0] + Array("DLS ".utf8)
    static let xmlPlist = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><array><string>32000</string></array></plist>
        """.utf8)

    /// A scratch directory removed when the test ends.
    final class Scratch {
        let root: String
        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("polyphon-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }
        @discardableResult
        func write(_ relative: String, _ bytes: [UInt8]) throws -> String {
            let path = root + "/" + relative
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    @Test func sniffsByContentNotExtension() throws {
        let scratch = try Scratch()
        #expect(try SoundBankKind.sniff(path: scratch.write("a.dls", Self.sfbk)) == .soundFont)
        #expect(try SoundBankKind.sniff(path: scratch.write("b.sf2", Self.dls)) == .dls)
        #expect(try SoundBankKind.sniff(path: scratch.write("c.sf2", Self.xmlPlist)) == .sampleBank)
        #expect(try SoundBankKind.sniff(path: scratch.write("d", Array("bplist00".utf8) + [0xD1, 0, 0])) == .sampleBank)
        #expect(try SoundBankKind.sniff(path: scratch.write("e.plist", [0xEF, 0xBB, 0xBF] + Array("\n  <plist version=\"1.0\">".utf8))) == .sampleBank)
        #expect(try SoundBankKind.sniff(path: scratch.write("f.sf2", Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WAVE".utf8))) == nil)
        #expect(try SoundBankKind.sniff(path: scratch.write("g.sf2", Array("<?xml version=\"1.0\"?><html/>".utf8))) == nil)
        #expect(try SoundBankKind.sniff(path: scratch.write("h.sf2", [])) == nil)
        #expect(try SoundBankKind.sniff(path: scratch.write("i.sf2", Array("RIFF".utf8))) == nil)
        #expect(throws: SoundBankError.self) { try SoundBankKind.sniff(path: scratch.root + "/missing.sf2") }
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.fluidR3) && RealFiles.available(RealFiles.museScore)))
    func sniffsRealBanks() throws {
        try #require(FileManager.default.fileExists(atPath: RealFiles.fluidR3))
        #expect(try SoundBankKind.sniff(path: RealFiles.fluidR3) == .soundFont)
        #expect(try SoundBankKind.sniff(path: RealFiles.museScore) == .soundFont)
    }

    @Test func searchOrder() throws {
        let scratch = try Scratch()
        let home = scratch.root + "/home"
        let system = scratch.root + "/sys"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        func locator(_ env: [String: String] = [:]) -> SoundBankLocator {
            SoundBankLocator(environment: env, homeDirectory: home, systemRoot: system)
        }
        // Nothing anywhere: the built-in bank.
        #expect(try locator().locate() == .builtIn)

        // System directory scan: /usr/share/sounds/sf2/* takes any bank file, junk is skipped.
        try scratch.write("sys/usr/share/sounds/sf2/aaa-notes.txt", Array("hello".utf8))
        let scanned = try scratch.write("sys/usr/share/sounds/sf2/zzz.bank", Self.dls)
        #expect(try locator().locate() == .file(path: scanned, origin: .system))
        // /usr/share/soundfonts/*.sf2 comes before it and needs the extension.
        try scratch.write("sys/usr/share/soundfonts/bank.dls", Self.dls)
        let scannedSF2 = try scratch.write("sys/usr/share/soundfonts/b.sf2", Self.sfbk)
        #expect(try locator().locate() == .file(path: scannedSF2, origin: .system))
        // The fixed system files come before the scans, in their order.
        let sf3 = try scratch.write("sys/usr/share/sounds/sf3/default-GM.sf3", Self.sfbk)
        #expect(try locator().locate() == .file(path: sf3, origin: .system))
        let gm = try scratch.write("sys/usr/share/sounds/sf2/default-GM.sf2", Self.sfbk)
        #expect(try locator().locate() == .file(path: gm, origin: .system))

        // User directories beat the system; ~/.local/share/soundfonts beats ~/.soundfonts;
        // a "default" name is preferred within a directory.
        let dotted = try scratch.write("home/.soundfonts/piano.sf2", Self.sfbk)
        #expect(try locator().locate() == .file(path: dotted, origin: .userDirectory(home + "/.soundfonts")))
        try scratch.write("home/.local/share/soundfonts/a-broken.sf2", Array("not a bank".utf8))
        try scratch.write("home/.local/share/soundfonts/b.sf2", Self.sfbk)
        let preferred = try scratch.write("home/.local/share/soundfonts/default.plist", Self.xmlPlist)
        #expect(try locator().locate() == .file(path: preferred, origin: .userDirectory(home + "/.local/share/soundfonts")))
        // XDG_DATA_HOME moves the first user directory.
        let xdg = try scratch.write("xdg/soundfonts/x.sf2", Self.sfbk)
        #expect(try locator(["XDG_DATA_HOME": scratch.root + "/xdg"]).locate()
                == .file(path: xdg, origin: .userDirectory(scratch.root + "/xdg/soundfonts")))

        // SOUNDFONT, then POLYPHON_SOUNDFONT, then the flag.
        let soundfontEnv = try scratch.write("env1.sf2", Self.sfbk)
        let polyphonEnv = try scratch.write("env2.sf2", Self.sfbk)
        let flag = try scratch.write("flag.sf2", Self.sfbk)
        #expect(try locator(["SOUNDFONT": soundfontEnv]).locate()
                == .file(path: soundfontEnv, origin: .environment("SOUNDFONT")))
        let both = ["SOUNDFONT": soundfontEnv, "POLYPHON_SOUNDFONT": polyphonEnv]
        #expect(try locator(both).locate() == .file(path: polyphonEnv, origin: .environment("POLYPHON_SOUNDFONT")))
        #expect(try locator(both).locate(explicitPath: flag) == .file(path: flag, origin: .commandLine))
        // Empty values count as unset.
        #expect(try locator(["SOUNDFONT": ""]).locate(explicitPath: "") == .file(path: preferred, origin: .userDirectory(home + "/.local/share/soundfonts")))
    }

    @Test func namedPathsMustExist() throws {
        let scratch = try Scratch()
        let locator = SoundBankLocator(environment: ["SOUNDFONT": scratch.root + "/typo.sf2"],
                                       homeDirectory: scratch.root, systemRoot: scratch.root)
        do {
            _ = try locator.locate()
            Issue.record("a missing SOUNDFONT was accepted")
        } catch let error as SoundBankError {
            #expect(error.kind == .notFound(origin: "environment variable SOUNDFONT"))
            #expect(error.description.contains("typo.sf2"))
        }
        #expect(throws: SoundBankError.self) { try locator.locate(explicitPath: scratch.root + "/nope.sf2") }
        // A directory is not a bank file.
        #expect(throws: SoundBankError.self) { try locator.locate(explicitPath: scratch.root) }
        // "~" expands to the process's home directory.
        let home = NSHomeDirectory()
        if FileManager.default.fileExists(atPath: home) {
            #expect(throws: SoundBankError.self) { try locator.locate(explicitPath: "~/polyphon-\(UUID().uuidString).sf2") }
        }
    }

    /// A locator that sees only `scratch`, opening banks as the CLI does, and the lines it warns.
    static func open(_ scratch: Scratch, explicit: String? = nil, env: [String: String] = [:])
        throws -> (location: SoundBankLocator.Location, warnings: [String]) {
        let locator = SoundBankLocator(environment: env, homeDirectory: scratch.root + "/home",
                                       systemRoot: scratch.root + "/sys")
        var warnings: [String] = []
        let (_, location) = try locator.open(explicitPath: explicit,
                                             opening: { try SoundFont(contentsOfAnyBank: $0) },
                                             builtIn: { SoundFont.Builder(name: "Built-in stand-in").build() }, skipped: { warnings.append($0) })
        return (location, warnings)
    }

    @Test func halfWrittenAndLeftOverNamesAreNeverBanks() {
        for name in ["FluidR3_GM.sf2.dpkg-new", "FluidR3_GM.sf2.dpkg-tmp", "a.sf2.dpkg-old", "a.sf2.dpkg-dist",
                     "a.sf2.ucf-dist", "a.sf2~", "a.sf2.part", "a.sf2.PART", "a.partial", "a.sf2.crdownload",
                     "a.sf2.tmp", ".a.sf2.swp", ".#a.sf2", "a.sf2.bak", "a.sf2.orig", "a.sf2.rpmnew"] {
            #expect(SoundBankLocator.isTransientName(name), "\(name)")
        }
        for name in ["FluidR3_GM.sf2", "default-GM.sf2", "bank", "piano.sf3", "GM.dls", "kit.plist", "a.SBK"] {
            #expect(!SoundBankLocator.isTransientName(name), "\(name)")
        }
    }

    /// The first run of `polyphon demo` while `fluid-soundfont-gm` was being installed picked the
    /// half-written `FluidR3_GM.sf2.dpkg-new` and stopped; a broken bank found by scanning must
    /// be passed over with one warning, and the next good one used.
    @Test func discoveryPassesOverBrokenBanks() throws {
        let scratch = try Scratch()
        let good = TestBanks.rich().serialized()
        // A truncated bank sorts first and sniffs as a bank; the .dpkg-new copy is complete
        // but half-written by definition; the good bank comes last in name order.
        try scratch.write("sys/usr/share/sounds/sf2/A_truncated.sf2", Array(good.prefix(good.count / 2)))
        try scratch.write("sys/usr/share/sounds/sf2/B_GM.sf2.dpkg-new", Array(good.prefix(100)))
        let goodPath = try scratch.write("sys/usr/share/sounds/sf2/C_GM.sf2", good)
        let candidates = try SoundBankLocator(environment: [:], homeDirectory: scratch.root + "/home",
                                              systemRoot: scratch.root + "/sys").candidates()
        #expect(!candidates.contains { if case .file(let p, _) = $0 { return p.hasSuffix(".dpkg-new") } else { return false } })

        let (location, warnings) = try Self.open(scratch)
        #expect(location == .file(path: goodPath, origin: .system))
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("A_truncated.sf2") == true)
        #expect(warnings.first?.contains("skipping") == true)
        #expect(warnings.allSatisfy { !$0.contains("dpkg-new") && !$0.contains("\n") })

        // Reached twice (a default-GM.sf2 link to the broken file): still one warning.
        try FileManager.default.createSymbolicLink(atPath: scratch.root + "/sys/usr/share/sounds/sf2/default-GM.sf2",
                                                   withDestinationPath: scratch.root + "/sys/usr/share/sounds/sf2/A_truncated.sf2")
        let (again, twice) = try Self.open(scratch)
        #expect(again == .file(path: goodPath, origin: .system))
        #expect(twice.count == 1)
    }

    @Test func onlyBrokenBanksFallBackToTheBuiltInBank() throws {
        let scratch = try Scratch()
        let good = TestBanks.rich().serialized()
        try scratch.write("home/.soundfonts/cut.sf2", Array(good.prefix(300)))
        try scratch.write("sys/usr/share/sounds/sf2/FluidR3_GM.sf2.dpkg-new", good)
        var garbage = good
        for i in stride(from: 12, to: garbage.count, by: 7) { garbage[i] = 0xFF }
        try scratch.write("sys/usr/share/soundfonts/garbled.sf2", garbage)
        let (location, warnings) = try Self.open(scratch)
        #expect(location == .builtIn)
        #expect(warnings.count == 2)
        #expect(warnings.contains { $0.contains("cut.sf2") })
        #expect(warnings.contains { $0.contains("garbled.sf2") })
    }

    @Test func aNamedBrokenBankIsAnError() throws {
        let scratch = try Scratch()
        let good = TestBanks.rich().serialized()
        let cut = try scratch.write("cut.sf2", Array(good.prefix(300)))
        try scratch.write("sys/usr/share/sounds/sf2/C_GM.sf2", good)
        #expect(throws: SoundFontError.self) { _ = try Self.open(scratch, explicit: cut) }
        #expect(throws: SoundFontError.self) { _ = try Self.open(scratch, env: ["SOUNDFONT": cut]) }
        #expect(throws: SoundFontError.self) { _ = try Self.open(scratch, env: ["POLYPHON_SOUNDFONT": cut]) }
    }
}
