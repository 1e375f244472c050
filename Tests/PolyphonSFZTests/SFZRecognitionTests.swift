import Foundation
import PolyphonSoundFont
import PolyphonTestSupport
import Testing
@testable import PolyphonSFZ

/// Telling SFZ apart from the other banks, by content where it can be told.
@Suite struct SFZRecognitionTests {
    @Test(arguments: [
        "<region> sample=a.wav", "\u{FEFF}  <Group>\n", "// Piano\n// by someone\n\n<control>\ndefault_path=x/",
        "/* header\n comment */ #define $X 1", "#include \"a.sfzh\"", "\r\n\t<global>",
    ])
    func sfzTextIsRecognisedByContent(text: String) {
        #expect(SoundBankKind.sniff(head: Array(text.utf8)) == .sfz)
    }

    @Test(arguments: ["hello", "<html>", "<?xml version=\"1.0\"?><plist>", "// only a comment", "lokey=60"])
    func otherTextIsNot(text: String) {
        #expect(SoundBankKind.sniff(head: Array(text.utf8)) != .sfz)
    }

    @Test func aFileNamedSfzIsRecognisedWhenCommentsFillItsHead() throws {
        let directory = try TemporaryDirectory(prefix: "polyphon-sfz")
        let writer = TestFiles(root: directory.path)
        let text = String(repeating: "// a long licence text, line after line\n", count: 200) + "<region> sample=a.wav"
        try writer.write(text, to: "Long.SFZ")
        try writer.write(text, to: "long.txt")
        #expect(try SoundBankKind.sniff(path: directory.file("Long.SFZ")) == .sfz)
        #expect(try SoundBankKind.sniff(path: directory.file("long.txt")) == nil)
    }

    @Test func anSfzIsNeverDiscoveredAsTheGeneralMIDIBank() throws {
        let home = try TemporaryDirectory(prefix: "polyphon-sfz")
        try TestFiles(root: home.path).write("<region> sample=a.wav", to: ".soundfonts/piano.sfz")
        let locator = SoundBankLocator(environment: [:], homeDirectory: home.path, systemRoot: home.path + "/none")
        #expect(try locator.candidates() == [.builtIn])
        #expect(try locator.candidates(explicitPath: home.path + "/.soundfonts/piano.sfz")
                == [.file(path: home.path + "/.soundfonts/piano.sfz", origin: .commandLine)])
    }

    @Test func openingAnSfzAsASoundFontSaysWhatItIs() throws {
        let directory = try TemporaryDirectory(prefix: "polyphon-sfz")
        try TestFiles(root: directory.path).write("<region> sample=a.wav", to: "p.sfz")
        #expect(throws: SoundBankError(path: directory.file("p.sfz"), kind: .sfzInstrument)) {
            try SoundFont(contentsOfAnyBank: directory.file("p.sfz"))
        }
    }
}
