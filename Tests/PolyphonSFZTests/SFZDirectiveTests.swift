import Testing
@testable import PolyphonSFZCore

/// `#define`, `#include` and `default_path`, and the bounds that keep them from running away.
@Suite struct SFZDirectiveTests {
    typealias R = SFZStatementReaderTests

    @Test func definitionsExpandInNamesValuesAndIncludePaths() {
        let (kinds, warnings) = R.read("""
            #define $KEY 60
            #define $OP lokey
            #define $FILE part
            #include "$FILE.sfzh"
            <region> $OP=$KEY hikey=${KEY}
            """, files: ["/i/part.sfzh": "<group> volume=-3"])
        #expect(R.opcodes(kinds).prefix(2) == ["volume=-3", "lokey=60"])
        // `${KEY}` is not SFZ: `$` alone is an error, `{KEY}` stays.
        #expect(warnings.count == 1)
    }

    @Test func aDefinitionIsItsFirstWordAndTheRestOfTheLineIsRead() {
        let (kinds, warnings) = R.read("#define $V 12 <region> key=$V")
        #expect(warnings.isEmpty)
        #expect(kinds == [.header("region"), .opcode(name: "key", value: "12")])
    }

    @Test func namesAreMatchedAsSoonAsTheySpellADefinitionAsInARIA() {
        let (kinds, _) = R.read("#define $KEY 60\n#define $KEYSW 24\n<region> key=$KEYSW")
        #expect(R.opcodes(kinds) == ["key=60SW"])
    }

    @Test func anUndefinedVariableIsAWarningAndDropped() {
        // The whole identifier is the name (nothing defined starts it): `$NOPE0` goes.
        let (kinds, warnings) = R.read("<region> key=6$NOPE0")
        #expect(R.opcodes(kinds) == ["key=6"])
        #expect(warnings.map(\.kind) == [.directive])
        #expect(warnings[0].message.contains("$NOPE"))
    }

    @Test func aDefinitionThatRefersToItselfStopsWithAWarning() {
        let (kinds, warnings) = R.read("#define $A $A\n<region> key=$A lovel=1")
        #expect(R.opcodes(kinds) == ["lovel=1"])
        #expect(warnings.contains { $0.message.contains("rounds of expansion") })
    }

    @Test func doublingDefinitionsCannotExpandWithoutBound() {
        // Each definition doubles the one before: 2^24 copies of "x" if left alone.
        // Names that are no prefix of one another (ARIA matches the shortest defined name).
        let names = (0...24).map { "Q" + String(UnicodeScalar(UInt8(ascii: "a") + UInt8($0))) }
        var text = "#define $\(names[0]) xxxxxxxx\n"
        for i in 1...24 { text += "#define $\(names[i]) $\(names[i - 1])$\(names[i - 1])\n" }
        text += "<region> sample=$\(names[24]).wav key=1\n"
        var limits = SFZReadingLimits()
        limits.maximumExpandedLength = 4096
        let (kinds, warnings) = R.read(text, limits: limits)
        #expect(R.opcodes(kinds) == ["key=1"])
        #expect(warnings.contains { $0.message.contains("longer than 4096 bytes") })
    }

    @Test func includesAreRelativeToTheIncludingFileThenToTheRoot() {
        let (kinds, warnings) = R.read("#include \"sub/a.sfzh\"", files: [
            "/i/sub/a.sfzh": "<group> volume=1\n#include \"b.sfzh\"\n#include \"c.sfzh\"",
            "/i/sub/b.sfzh": "<region> key=2",  // beside a.sfzh
            "/i/c.sfzh": "<region> key=3",      // beside the root file (sfizz's rule)
        ])
        #expect(warnings.isEmpty)
        #expect(R.opcodes(kinds) == ["volume=1", "key=2", "key=3"])
    }

    @Test func includePathsWithBackslashesAndOtherCaseAreFound() {
        let (kinds, warnings) = R.read("#include \"Sub\\Part.SFZH\"", files: ["/i/sub/part.sfzh": "<region> key=4"])
        #expect(warnings.isEmpty)
        #expect(R.opcodes(kinds) == ["key=4"])
    }

    @Test func theSameFileMayBeIncludedTwiceButNotInsideItself() {
        let (kinds, warnings) = R.read("#include \"r.sfzh\"\n#include \"r.sfzh\"\n#include \"loop.sfzh\"", files: [
            "/i/r.sfzh": "<region> key=5",
            "/i/loop.sfzh": "<region> key=6\n#include \"loop2.sfzh\"",
            "/i/loop2.sfzh": "#include \"loop.sfzh\"",
        ])
        #expect(R.opcodes(kinds) == ["key=5", "key=5", "key=6"])
        #expect(warnings.count == 1)
        #expect(warnings[0].message.contains("inside itself"))
        #expect(warnings[0].location == SFZLocation(file: "/i/loop2.sfzh", line: 1))
    }

    @Test func includesNestDeeperThanTheLimitAreSkipped() {
        var files: [String: String] = [:]
        for i in 0..<40 { files["/i/d\(i).sfzh"] = "<region> key=\(i)\n#include \"d\(i + 1).sfzh\"" }
        let (kinds, warnings) = R.read("#include \"d0.sfzh\"", files: files)
        #expect(R.opcodes(kinds).count == 31)  // the root is depth 1
        #expect(warnings.map(\.kind) == [.limitReached])
    }

    @Test func repeatedIncludesStopAtTheTextBudget() {
        // Ten files each including the next twice: 2^10 inclusions of a 1 kB file.
        var files: [String: String] = [:]
        let filler = "<region> key=1 " + String(repeating: " ", count: 1000) + "\n"
        for i in 0..<10 { files["/i/f\(i).sfzh"] = filler + "#include \"f\(i + 1).sfzh\"\n#include \"f\(i + 1).sfzh\"" }
        files["/i/f10.sfzh"] = filler
        var limits = SFZReadingLimits()
        limits.maximumTotalText = 100_000
        let (kinds, warnings) = R.read("#include \"f0.sfzh\"", files: files, limits: limits)
        #expect(R.opcodes(kinds).count < 100)
        #expect(warnings.contains { $0.kind == .limitReached })
    }

    @Test func aMissingIncludeIsAWarningNamingTheLine() {
        let (kinds, warnings) = R.read("<region> key=1\n#include \"gone.sfzh\"\n<region> key=2")
        #expect(R.opcodes(kinds) == ["key=1", "key=2"])
        #expect(warnings.count == 1)
        #expect(warnings[0].location?.line == 2)
        #expect(warnings[0].message.contains("no such file"))
    }

    @Test func unknownDirectivesAndMalformedOnesAreWarnings() {
        let (kinds, warnings) = R.read("#pragma once\n#define X 1\n#include nope\n<region> key=1")
        #expect(R.opcodes(kinds) == ["key=1"])
        #expect(warnings.count == 3)
    }

    @Test func defaultPathPrefixesTheSamplesOfTheRegionsAfterIt() throws {
        let instrument = try SFZInstrument(text: """
            <region> sample=a.wav key=1
            <control> default_path=Samples\\Piano\\
            <region> sample=b.wav key=2
            <control>
            <region> sample=c.wav key=3
            """, path: "/i/root.sfz")
        #expect(instrument.regions.count == 0)  // nothing exists in this empty file system …
        let names = instrument.warnings.filter { $0.kind == .missingSample }.map(\.message)
        #expect(names.count == 3)
        #expect(names[0].contains("'a.wav'"))
        #expect(names[1].contains("'Samples/Piano/b.wav'"))
        #expect(names[2].contains("'c.wav'"))  // … and every <control> starts without a default path
    }
}
