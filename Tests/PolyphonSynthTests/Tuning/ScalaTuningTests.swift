import Foundation
import Testing
@testable import PolyphonSynth

/// Scala scales (`.scl`) and keyboard mappings (`.kbm`) made into tunings and played.
@Suite("Tuning: Scala files")
struct ScalaTuningTests {
    static let thirtyOneToneFile = """
        ! 31edo.scl
        !
        31-tone equal temperament
         31
        !
        """ + "\n" + (1...30).map { String(format: " %.5f", Double($0) * 1200 / 31) }.joined(separator: "\n") + "\n 2/1\n"

    static let justIntonationFile = """
        ! ji-12.scl: Ptolemy's intense diatonic, chromatically filled

        Just intonation, 5-limit
        12

        16/15  ! minor second
        9/8
        6/5
        5/4
        4/3
        45/32
        3/2
        8/5
        5/3   \t   major sixth, anything after the ratio is ignored
        9/5
        15/8
        2
        """

    /// A4 (key 69) at 440 Hz; key 60 plays degree 0.
    static let aAt440Mapping = """
        ! a440.kbm
        12
        0
        127
        60
        69
        440.0
        12
        ! mapping
        0
        1
        2
        3
        4
        5
        6
        7
        8
        9
        10
        11
        """

    static var thirtyOneTone: Tuning {
        try! Tuning(scale: ScalaScale(bytes: Array(thirtyOneToneFile.utf8)))
    }

    static var justIntonation: Tuning {
        try! Tuning(scale: ScalaScale(bytes: Array(justIntonationFile.utf8)),
                    keyboardMapping: KeyboardMapping(bytes: Array(aAt440Mapping.utf8)))
    }

    @Test func thirtyOneToneEqualTemperament() throws {
        let scale = try ScalaScale(bytes: Array(Self.thirtyOneToneFile.utf8))
        #expect(scale.description == "31-tone equal temperament" && scale.noteCount == 31 && scale.warnings.isEmpty)
        let tuning = Self.thirtyOneTone
        // Scala's default mapping: key 60 at 261.626 Hz, each key one step of 38.71 cents.
        #expect(abs(tuning.cents(ofKey: 60) - 6000) < 1e-6)
        for key in [0, 29, 59, 61, 91, 127] {
            #expect(abs(tuning.cents(ofKey: key) - (6000 + Double(key - 60) * 1200 / 31)) < 1e-4, "key \(key)")
        }
        try expectPlayed(tuning, keys: [48, 60, 61, 72, 91])
    }

    @Test func justIntonationWithAKeyboardMapping() throws {
        let tuning = Self.justIntonation
        let expected: [(key: Int, hz: Double)] = [(69, 440), (60, 264), (64, 330), (67, 396), (72, 528), (57, 220),
                                                   (66, 264 * 45.0 / 32)]
        for e in expected {
            #expect(abs(Measure.cents(tuning.frequency(ofKey: e.key), e.hz)) < 1e-6, "key \(e.key)")
        }
        try expectPlayed(tuning, keys: expected.map(\.key))
    }

    /// Renders each key with the tuning configured and measures it against the tuning.
    func expectPlayed(_ tuning: Tuning, keys: [Int]) throws {
        var score = TuningScore()
        for (i, key) in keys.enumerated() { score.note(UInt8(key), at: 0.05 + 0.7 * Double(i)) }
        let render = try score.renderPolyphon(TestBank.sine()) { $0.tuning = tuning }
        for (i, key) in keys.enumerated() {
            let hz = score.frequency(ofNote: i, in: render)
            #expect(abs(Measure.cents(hz, tuning.frequency(ofKey: key))) < 0.1, "key \(key): \(hz) Hz")
        }
    }

    @Test func aMappingWithUnmappedKeysAndAnOctaveDegree() throws {
        // White keys only play a 7-note scale; black keys ('x') keep their equal-tempered pitch.
        let mapping = try KeyboardMapping(bytes: Array("""
            12
            0
            127
            60
            60
            261.6255653
            7
            0
            x
            1
            x
            2
            3
            x
            4
            x
            5
            x
            6
            """.utf8))
        let scale = try ScalaScale(description: "7-EDO", degreeCents: (1...7).map { Double($0) * 1200 / 7 })
        let tuning = try Tuning(scale: scale, keyboardMapping: mapping)
        #expect(abs(tuning.cents(ofKey: 62) - (6000 + 1200.0 / 7)) < 1e-6)
        #expect(abs(tuning.cents(ofKey: 61) - 6100) < 1e-6)
        #expect(abs(tuning.cents(ofKey: 72) - 7200) < 1e-6)
        #expect(abs(tuning.cents(ofKey: 59) - (6000 - 1200.0 / 7)) < 1e-6)
    }

    // MARK: - Bad files

    @Test func aScaleOfNoNotesIsAnErrorNamingTheLine() {
        #expect(throws: ScalaFileError(line: 3, reason: .noNotes)) {
            try ScalaScale(bytes: Array("! empty\nnothing here\n0\n".utf8))
        }
    }

    @Test func tenThousandNotesAreReadWithAWarning() throws {
        let lines = (1...10_000).map { String(format: "%.4f", Double($0) * 0.12) }.joined(separator: "\n")
        let scale = try ScalaScale(bytes: Array("big\n10000\n\(lines)\n".utf8))
        #expect(scale.noteCount == 10_000 && scale.warnings.count == 1)
        let tuning = try Tuning(scale: scale)
        #expect(abs(tuning.cents(ofKey: 61) - 6000.12) < 1e-6)
        #expect(abs(tuning.cents(ofKey: 59) - (6000 - 0.12)) < 1e-6)
    }

    @Test func aCountFarAboveTheLinesIsAnErrorWithoutReservingIt() {
        #expect(throws: ScalaFileError(line: 6, reason: .tooFewNotes(declared: 999_999_999, found: 2))) {
            try ScalaScale(bytes: Array("huge\n999999999\n100.0\n2/1\n\n".utf8))
        }
    }

    @Test func badPitchesNameTheirLine() {
        #expect(throws: ScalaFileError(line: 5, reason: .invalidPitch("abc"))) {
            try ScalaScale(bytes: Array("! c\nd\n3\n100.0\nabc\n2/1\n".utf8))
        }
        #expect(throws: ScalaFileError(line: 4, reason: .invalidRatio("5/0"))) {
            try ScalaScale(bytes: Array("d\n\n2\n5/0\n2/1\n".utf8))
        }
        #expect(throws: ScalaFileError(line: 3, reason: .invalidRatio("-3/2"))) {
            try ScalaScale(bytes: Array("d\n2\n-3/2\n2/1\n".utf8))
        }
        #expect(throws: ScalaFileError(line: 3, reason: .periodNotPositive)) {
            try ScalaScale(bytes: Array("d\n1\n-100.0\n".utf8))
        }
        #expect(throws: ScalaFileError(line: 2, reason: .invalidNoteCount("twelve"))) {
            try ScalaScale(bytes: Array("d\ntwelve\n".utf8))
        }
        #expect(throws: ScalaFileError(line: 2, reason: .missingDescription)) {
            try ScalaScale(bytes: Array("! only a comment".utf8))
        }
    }

    @Test func commentsBlankLinesAndCarriageReturnsAreAccepted() throws {
        let scale = try ScalaScale(bytes: Array("! a\r\n!\r\n\r\n\r\n 2\r\n\r\n! between\r\n 701.955 fifth\r\n 2/1\r\n".utf8))
        #expect(scale.description == "" && scale.degreeCents.count == 2)
        #expect(abs(scale.degreeCents[0] - 701.955) < 1e-9 && abs(scale.degreeCents[1] - 1200) < 1e-9)
    }

    @Test func badMappingsNameTheirLine() {
        #expect(throws: ScalaFileError(line: 4, reason: .missingField("middle key"))) {
            try KeyboardMapping(bytes: Array("12\n0\n127\n".utf8))
        }
        #expect(throws: ScalaFileError(line: 3, reason: .invalidField(name: "last key", text: "200"))) {
            try KeyboardMapping(bytes: Array("0\n0\n200\n60\n69\n440\n0\n".utf8))
        }
        #expect(throws: ScalaFileError(line: 9, reason: .invalidMappingEntry("?"))) {
            try KeyboardMapping(bytes: Array("2\n0\n127\n60\n69\n440.0\n2\n0\n?\n".utf8))
        }
        let unmapped = try! KeyboardMapping(bytes: Array("2\n0\n127\n60\n61\n440.0\n2\n0\nx\n".utf8))
        #expect(throws: ScalaFileError(line: 0, reason: .referenceKeyUnmapped(61))) {
            try Tuning(scale: ScalaScale(description: "two", degreeCents: [600, 1200]), keyboardMapping: unmapped)
        }
    }
}
