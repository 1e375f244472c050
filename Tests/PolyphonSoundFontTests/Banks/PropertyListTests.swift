import Foundation
import Testing
@testable import PolyphonSoundFont

/// Polyphon's own property-list reader, against what Foundation writes and against files made
/// to hurt it. (Fuzzing found that Foundation's reader leaks on every malformed list; the
/// SoundBankPlayer bank reads through this one instead.)
@Suite struct PropertyListTests {
    /// A value built from a seed: nested arrays and dictionaries of every scalar kind.
    static func randomValue(_ random: inout SplitMix64, depth: Int = 0) -> (foundation: Any, expected: PropertyListValue) {
        switch random.next() % (depth > 3 ? 5 : 7) {
        case 0:
            let texts = ["", "Piano C4", "a < b & c > d \"q\" 'a'", "Grüße, 音, 🎹", "  spaced  ", "line\nbreak"]
            let s = texts[Int(random.next() % UInt64(texts.count))]
            return (s, .string(s))
        case 1:
            let n = Int64(bitPattern: random.next()) >> Int64(random.next() % 64)
            return (NSNumber(value: n), .integer(n))
        case 2:
            let x = Double(Int64(bitPattern: random.next()) >> 20) / 1024
            return (NSNumber(value: x), .real(x))
        case 3:
            let b = random.next() % 2 == 0
            return (NSNumber(value: b), .boolean(b))
        case 4:
            let bytes = (0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return (Data(bytes), .data(bytes))
        case 5:
            let items = (0..<Int(random.next() % 5)).map { _ in randomValue(&random, depth: depth + 1) }
            return (items.map(\.foundation), .array(items.map(\.expected)))
        default:
            var f: [String: Any] = [:], e: [String: PropertyListValue] = [:]
            for i in 0..<Int(random.next() % 4) {
                let v = randomValue(&random, depth: depth + 1)
                f["key \(i) <&>"] = v.foundation
                e["key \(i) <&>"] = v.expected
            }
            return (f, .dictionary(e))
        }
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func readsWhatFoundationWrites(format: PropertyListSerialization.PropertyListFormat) throws {
        var random = SplitMix64(seed: 2026)
        for _ in 0..<300 {
            let (foundation, expected) = Self.randomValue(&random)
            let root: Any = [foundation, "tail"]
            let data = try PropertyListSerialization.data(fromPropertyList: root, format: format, options: 0)
            let value = try PropertyListReader.read(Array(data))
            #expect(value == .array([expected, .string("tail")]))
        }
    }

    @Test func xmlEntitiesCommentsAndEmptyElements() throws {
        let xml = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <!-- a comment -->
            <plist version="1.0"><array>
              <string>&lt;&#65;&#x42;&amp;&gt;</string><string/><array/><dict/><true/><false/>
              <integer>-42</integer><real>4.5e1</real><data>AAEC/w==</data><!-- inside --><date>2001-01-01T00:00:00Z</date>
            </array></plist>
            """
        let value = try PropertyListReader.read(Array(xml.utf8))
        #expect(value == .array([.string("<AB&>"), .string(""), .array([]), .dictionary([:]), .boolean(true),
                                 .boolean(false), .integer(-42), .real(45), .data([0, 1, 2, 255]),
                                 .date("2001-01-01T00:00:00Z")]))
    }

    /// A binary list: header, objects, an offset table of one-byte offsets, and the trailer.
    static func binary(objects: [[UInt8]], top: Int = 0) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + be64(objects.count) + be64(top) + be64(table)
        return bytes
    }

    static func be64(_ v: Int) -> [UInt8] { (0..<8).reversed().map { UInt8((UInt64(v) >> (8 * $0)) & 0xFF) } }

    static func error(_ bytes: [UInt8]) -> PropertyListError? {
        do { _ = try PropertyListReader.read(bytes); return nil } catch { return error }
    }

    @Test func hostileBinaryListsAreErrorsNotHangs() throws {
        // An array that contains itself.
        let loop = Self.error(Self.binary(objects: [[0xA1, 0x00]]))
        #expect(loop?.reason.contains("contains itself") == true)
        #expect(loop?.offset == 8)
        // Thirty levels of arrays each holding the next one twice: 2³⁰ values if expanded.
        let shared = (0..<30).map { i in [0xA2, UInt8(i + 1), UInt8(i + 1)] } + [[0x09]]
        let started = Date()
        #expect(Self.error(Self.binary(objects: shared))?.reason.contains("more values") == true)
        #expect(Date().timeIntervalSince(started) < 2)
        // Nesting past the depth limit.
        let deep = (0..<100).map { i in [0xA1, UInt8(i + 1)] } + [[0x08]]
        #expect(Self.error(Self.binary(objects: deep))?.reason.contains("nested deeper") == true)
        // A trailer whose counts and offsets do not fit the file.
        var bad = Self.binary(objects: [[0x09]])
        bad[bad.count - 9] = 200
        #expect(Self.error(bad)?.reason.contains("do not fit") == true)
        // A length that claims more than the file (0x5F: length in the next integer object).
        #expect(Self.error(Self.binary(objects: [[0x5F, 0x13, 0, 0, 0, 0x10, 0, 0, 0, 0]])) != nil)
        // A reference past the objects.
        #expect(Self.error(Self.binary(objects: [[0xA1, 0x07]]))?.reason.contains("reference") == true)
        // Valid: the same tiny lists without the faults read.
        #expect(try PropertyListReader.read(Self.binary(objects: [[0xA2, 1, 1], [0x09]])) == .array([.boolean(true), .boolean(true)]))
    }

    @Test func hostileXMLIsAnErrorNamingTheByte() throws {
        let deep = "<plist>" + String(repeating: "<array>", count: 10_000)
        #expect(Self.error(Array(deep.utf8))?.reason.contains("nested deeper") == true)
        for text in ["", "<plist>", "<plist><array><string>open", "<plist><integer>12x</integer></plist>",
                     "<plist><string>&bogus;</string></plist>", "<plist><array></dict></plist>",
                     "<plist><!-- never closed", "<plist><data>!!</data></plist>", "<plist><dict><string/></dict></plist>"] {
            let e = Self.error(Array(text.utf8))
            #expect(e != nil, "\(text)")
            #expect((e?.offset ?? -1) <= text.utf8.count)
        }
    }

    /// Foundation's reader leaked its error object on every malformed list (found by the
    /// sample-bank fuzz target, starting from the empty input): the bank's errors are typed and
    /// say where the list goes wrong.
    @Test func malformedBankListsAreTypedErrors() throws {
        for (bytes, fragment) in [([UInt8](), "byte 0"), (Array("<plist><array><string>44100".utf8), "byte 27"),
                                  (Array("bplist00".utf8) + [UInt8](repeating: 0, count: 40), "byte")] {
            do {
                _ = try SampleBankDescription(propertyList: Data(bytes), file: "bank.plist")
                Issue.record("a malformed list was accepted")
            } catch let error as SampleBankError {
                guard case .notAPropertyList(let why) = error.kind else { Issue.record("\(error)"); continue }
                #expect(why.contains(fragment), "\(why)")
                #expect(error.description.hasPrefix("bank.plist: "))
            }
        }
    }
}
