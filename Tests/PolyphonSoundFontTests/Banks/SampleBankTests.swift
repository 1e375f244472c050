import Foundation
import Testing
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore

/// SoundBankPlayer property-list banks: parsing, note coverage, generators, stereo, errors.
@Suite struct SampleBankTests {
    /// Records the paths it is asked for and returns audio chosen by file name.
    final class FakeLoader: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var requested: [String] = []
        let audio: [String: SampleBankAudio]
        init(_ audio: [String: SampleBankAudio]) { self.audio = audio }
        func load(_ path: String) throws -> SampleBankAudio {
            lock.lock(); requested.append((path as NSString).lastPathComponent); lock.unlock()
            guard let result = audio[(path as NSString).lastPathComponent] else {
                throw CocoaError(.fileReadCorruptFile)
            }
            return result
        }
    }

    static func ramp(_ count: Int, scale: Float) -> [Float] { (0..<count).map { Float($0) * scale / 32768 } }

    static func writePlist(_ array: [Any], to path: String, format: PropertyListSerialization.PropertyListFormat) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: array, format: format, options: 0)
        try data.write(to: URL(fileURLWithPath: path))
    }

    func makeBank(format: PropertyListSerialization.PropertyListFormat) throws
        -> (scratch: DiscoveryTests.Scratch, plist: String, loader: FakeLoader) {
        let scratch = try DiscoveryTests.Scratch()
        let plist = scratch.root + "/Grand Piano.plist"
        try Self.writePlist(["32000", "P200 Piano D2", "26", "26", "P200 Piano F#2", "30", "29",
                             "Strings", "127", "60"], to: plist, format: format)
        // Files beside the list: CAF for the first, WAV for the second, AIFF for the third (and a
        // decoy with the right name in another directory).
        try scratch.write("P200 Piano D2.caf", [0])
        try scratch.write("P200 Piano F#2.wav", [0])
        try scratch.write("Strings.aiff", [0])
        try scratch.write("other/Strings.caf", [0])
        let loader = FakeLoader([
            "P200 Piano D2.caf": SampleBankAudio(sampleRate: 32000, channels: [Self.ramp(100, scale: 100)]),
            "P200 Piano F#2.wav": SampleBankAudio(sampleRate: 32000, channels: [Self.ramp(50, scale: -300)]),
            "Strings.aiff": SampleBankAudio(sampleRate: 44100, channels: [Self.ramp(80, scale: 10), Self.ramp(80, scale: -10)]),
        ])
        return (scratch, plist, loader)
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func buildsOneZonePerSample(format: PropertyListSerialization.PropertyListFormat) throws {
        let (scratch, plist, loader) = try makeBank(format: format)
        _ = scratch
        #expect(try SoundBankKind.sniff(path: plist) == .sampleBank)
        let font = try SoundFont(contentsOfSampleBank: plist, audioLoader: { try loader.load($0) })
        #expect(loader.requested == ["P200 Piano D2.caf", "P200 Piano F#2.wav", "Strings.aiff"])
        #expect(font.info.name == "Grand Piano")
        #expect(font.presets.count == 1 && font.presets[0].bank == 0 && font.presets[0].program == 0)
        #expect(font.presets[0].name == "Grand Piano")
        let zones = font.instruments[0].zones
        #expect(zones.count == 4)  // two mono samples, one stereo pair

        #expect(zones[0].keyRange == 0...26 && zones[0].value(of: .overridingRootKey) == 26)
        #expect(zones[1].keyRange == 27...30 && zones[1].value(of: .overridingRootKey) == 29)
        #expect(zones[2].keyRange == 31...127 && zones[3].keyRange == 31...127)
        for zone in zones {
            #expect(zone.value(of: .releaseVolEnv) == 0)   // 1 s fade
            #expect(zone.value(of: .sampleModes) == 0)     // plays out, no loop
            #expect(zone.generators.last?.type == .sampleID)
        }
        // Octave panning at the root note: 26 ≤ C3 → 50 % left; 29 too.
        #expect(zones[0].value(of: .pan) == -250 && zones[1].value(of: .pan) == -250)
        // Stereo: hard left/right over a linked pair.
        #expect(zones[2].value(of: .pan) == -500 && zones[3].value(of: .pan) == 500)
        let left = font.samples[Int(zones[2].value(of: .sampleID)!)], right = font.samples[Int(zones[3].value(of: .sampleID)!)]
        #expect(left.sampleType == .left && right.sampleType == .right)
        #expect(Int(left.sampleLink) == Int(zones[3].value(of: .sampleID)!))
        #expect(Int(right.sampleLink) == Int(zones[2].value(of: .sampleID)!))
        #expect(left.sampleRate == 44100 && font.samples[0].sampleRate == 32000)
        // PCM is exact for 16-bit sources.
        let first = try font.playableSample(at: 0)
        #expect(Array(first.points) == (0..<100).map { Int16($0 * 100) })
        let second = try font.playableSample(at: 1)
        #expect(Array(second.points) == (0..<50).map { Int16($0 * -300) })
        // The Strings file's 44.1 kHz is noted against the list's 32 kHz.
        #expect(font.warnings.count == 1 && font.warnings[0].message.contains("Strings"))

        // Every note finds exactly one zone per channel, with the right root.
        for key in UInt8(0)...127 {
            let regions = font.regions(bank: 0, program: 0, key: key, velocity: 100)
            #expect(regions.count == (key >= 31 ? 2 : 1), "key \(key)")
        }
        // The result is an ordinary bank: it survives the SF2 writer and reader.
        let reread = try SoundFont(bytes: font.serialized(), name: "reread")
        #expect(reread.instruments[0].zones == zones)
    }

    @Test func panningCanBeTurnedOffAndFollowsTheSeed() throws {
        #expect(SampleBankOptions.octavePan(note: 30) == -250)
        #expect(SampleBankOptions.octavePan(note: 48) == -250)
        #expect(SampleBankOptions.octavePan(note: 65) == 0)
        #expect(SampleBankOptions.octavePan(note: 79) == 250)
        #expect(SampleBankOptions.octavePan(note: 100) == 250)
        #expect(SampleBankOptions.octavePan(note: 72) == 125)
        let (scratch, plist, loader) = try makeBank(format: .xml)
        _ = scratch
        let font = try SoundFont(contentsOfSampleBank: plist, audioLoader: { try loader.load($0) },
                                 options: SampleBankOptions(octavePanning: false, releaseTimecents: -1200))
        let zones = font.instruments[0].zones
        #expect(zones[0].value(of: .pan) == nil && zones[1].value(of: .pan) == nil)
        #expect(zones.allSatisfy { $0.value(of: .releaseVolEnv) == -1200 })
    }

    func expectError(_ array: [Any]?, raw: [UInt8]? = nil, files: [String] = [],
                     _ check: (SampleBankError) -> Bool) throws {
        let scratch = try DiscoveryTests.Scratch()
        let plist = scratch.root + "/bank.plist"
        if let array { try Self.writePlist(array, to: plist, format: .xml) }
        if let raw { try scratch.write("bank.plist", raw) }
        for file in files { try scratch.write(file, [0]) }
        let loader = FakeLoader(["ok.wav": SampleBankAudio(sampleRate: 32000, channels: [[0.5]]),
                                 "empty.wav": SampleBankAudio(sampleRate: 32000, channels: [[]])])
        do {
            _ = try SoundFont(contentsOfSampleBank: plist, audioLoader: { try loader.load($0) })
            Issue.record("loaded a broken bank")
        } catch let error as SampleBankError {
            #expect(check(error), "\(error)")
            #expect(error.file == plist)
        }
    }

    @Test func brokenBanksAreTypedErrors() throws {
        try expectError(["32000", "ok", "60"]) { $0.kind == .badLayout(count: 3) }
        try expectError(["fast", "ok", "60", "60"]) { $0.entry == 0 }
        try expectError(["32000", "ok", "60", "60", "ok", "50", "50"], files: ["ok.wav"]) {
            $0.entry == 5 && $0.kind == .notesNotAscending(last: 50, previous: 60)
        }
        try expectError(["32000", "ok", "128", "60"]) { $0.entry == 2 }
        try expectError(["32000", "ok", "60", "C4"]) { $0.entry == 3 }
        try expectError(["32000", "../ok", "60", "60"]) { $0.entry == 1 }
        try expectError(["32000", "gone", "60", "60"]) {
            if case .missingAudio(let name, let tried) = $0.kind { return name == "gone" && tried.first == "gone.caf" }
            return false
        }
        try expectError(["32000", "bad", "60", "60"], files: ["bad.wav"]) {
            if case .badAudio = $0.kind { return $0.entry == 1 }
            return false
        }
        try expectError(["32000", "empty", "60", "60"], files: ["empty.wav"]) {
            if case .badAudio = $0.kind { return true }
            return false
        }
        try expectError(nil, raw: Array("<?xml version=\"1.0\"?><plist><dict/></plist>".utf8)) {
            if case .notAPropertyList = $0.kind { return true }
            return false
        }
        try expectError(nil, raw: Array("bplist00garbage".utf8)) {
            if case .notAPropertyList = $0.kind { return true }
            return false
        }
        try expectError(nil) {
            if case .cannotOpen = $0.kind { return true }
            return false
        }
    }
}
