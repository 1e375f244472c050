import Testing
@testable import PolyphonSFZCore

/// The text layer: comments, headers, opcodes, values with spaces, and what the reader does with
/// text it cannot read (a warning, then the next line).
@Suite struct SFZStatementReaderTests {
    /// The statements of `text` read as the file `/i/root.sfz`, with the reader's warnings.
    static func read(_ text: String, files: [String: String] = [:],
                     limits: SFZReadingLimits = SFZReadingLimits()) -> ([SFZStatement.Kind], [SFZWarning]) {
        let fileSystem = SFZMemoryFileSystem()
        for (path, content) in files { fileSystem.write(content, to: path) }
        var reader = SFZStatementReader(fileSystem: fileSystem, limits: limits)
        reader.read(text: Array(text.utf8), path: "/i/root.sfz")
        return (reader.statements.map(\.kind), reader.warnings)
    }

    static func opcodes(_ kinds: [SFZStatement.Kind]) -> [String] {
        kinds.compactMap { if case .opcode(let n, let v) = $0 { return "\(n)=\(v)" } else { return nil } }
    }

    @Test func headersAndOpcodesShareALineOrSpreadOverMany() {
        let (kinds, warnings) = Self.read("<region>sample=a.wav lokey=60\nhikey=62 <region> key=70")
        #expect(warnings.isEmpty)
        #expect(kinds == [.header("region"), .opcode(name: "sample", value: "a.wav"), .opcode(name: "lokey", value: "60"),
                          .opcode(name: "hikey", value: "62"), .header("region"), .opcode(name: "key", value: "70")])
    }

    @Test func sampleNamesKeepTheirSpacesUpToTheNextOpcode() {
        let (kinds, _) = Self.read("<region> sample=My Piano/C 4 soft.wav   lokey=60 pan=-10\n<region> sample=a b.wav<region>")
        #expect(Self.opcodes(kinds) == ["sample=My Piano/C 4 soft.wav", "lokey=60", "pan=-10", "sample=a b.wav"])
    }

    @Test func lineAndBlockCommentsAreSkippedEverywhere() {
        let text = """
        // leading comment <region> sample=no.wav
        <region> /* inline
        block */ sample=a.wav // trailing
        lokey=1/*x*/hikey=2
        """
        let (kinds, warnings) = Self.read(text)
        #expect(warnings.isEmpty)
        #expect(Self.opcodes(kinds) == ["sample=a.wav", "lokey=1", "hikey=2"])
    }

    @Test func locationsNameTheFileAndTheLine() {
        let fileSystem = SFZMemoryFileSystem()
        var reader = SFZStatementReader(fileSystem: fileSystem, limits: SFZReadingLimits())
        reader.read(text: Array("\n\n<region>\n  lokey=3".utf8), path: "/i/root.sfz")
        #expect(reader.statements.map(\.location) == [SFZLocation(file: "/i/root.sfz", line: 3), SFZLocation(file: "/i/root.sfz", line: 4)])
    }

    @Test func aByteOrderMarkIsNotPartOfTheText() {
        let (kinds, warnings) = Self.read("\u{FEFF}<region> key=60")
        #expect(warnings.isEmpty)
        #expect(kinds.first == .header("region"))
    }

    @Test func anUnterminatedHeaderIsAWarningAndTheReaderGoesOnAtTheNextLine() {
        let (kinds, warnings) = Self.read("<region lokey=60\n<group> key=61\n<bad name> x=1\n<region> key=62")
        #expect(kinds == [.header("group"), .opcode(name: "key", value: "61"), .header("region"), .opcode(name: "key", value: "62")])
        #expect(warnings.count == 2)
        #expect(warnings.allSatisfy { $0.kind == .syntax })
        #expect(warnings[0].location?.line == 1 && warnings[0].message.contains("closing '>'"))
        #expect(warnings[1].location?.line == 3)
    }

    @Test func anUnterminatedBlockCommentRunsToTheEndWithAWarning() {
        let (kinds, warnings) = Self.read("<region> key=60 /* never closed\n<region> key=61")
        #expect(kinds == [.header("region"), .opcode(name: "key", value: "60")])
        #expect(warnings.map(\.kind) == [.syntax])
    }

    @Test func opcodesWithoutEqualsOrNameAreSkippedWithAWarning() {
        let (kinds, warnings) = Self.read("<region> lokey 60\n=5 hikey=7\n%%% junk\n<region> key=1")
        #expect(Self.opcodes(kinds) == ["key=1"])
        #expect(warnings.count == 3)
    }

    @Test func latin1TextIsReadWhenItIsNotUTF8() {
        // "Flûte.wav" saved by a Windows editor: û is the single byte 0xFB.
        let bytes = Array("<region> sample=Fl".utf8) + [0xFB] + Array("te.wav".utf8)
        var reader = SFZStatementReader(fileSystem: SFZMemoryFileSystem(), limits: SFZReadingLimits())
        reader.read(text: bytes, path: "/i/root.sfz")
        #expect(Self.opcodes(reader.statements.map(\.kind)) == ["sample=Flûte.wav"])
    }

    @Test func theValueEndsWhereSfizzEndsIt() {
        func end(_ line: String) -> String {
            let bytes = Array(line.utf8)
            return String(decoding: bytes.prefix(SFZStatementReader.valueEnd(in: bytes[...])), as: UTF8.self)
        }
        #expect(end("a b c") == "a b c")
        #expect(end("a b=c") == "a")
        #expect(end("a  <region>") == "a")
        #expect(end("a<region>") == "a")
        #expect(end("a #define $X 1") == "a")
        #expect(end("a #b c") == "a #b c")
        #expect(end("x.wav   ") == "x.wav")
        // As in sfizz, a name starting with `$` does not end the value.
        #expect(end("a $V=1") == "a $V=1")
    }
}
