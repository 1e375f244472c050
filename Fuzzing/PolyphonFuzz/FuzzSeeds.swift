import Foundation
import PolyphonAudio
import PolyphonMIDI
import PolyphonSoundFont
import PolyphonTestSupport

/// Seed corpora built in code: valid files of each kind and their edge cases, so the fuzzer
/// starts from the structures the parsers know instead of from nothing (and nothing is
/// downloaded).
enum FuzzSeeds {
    static func seeds(for target: FuzzTarget) -> [(name: String, bytes: [UInt8])] {
        switch target {
        case .midiFile: return midiFiles()
        case .soundFont: return soundFonts()
        case .dls: return dlsBanks()
        case .sampleBank: return propertyLists()
        case .midiStream: return midiStreams()
        case .audioFile: return audioFiles()
        case .sfz, .sfzEngine: return sfzInstruments()
        }
    }

    // MARK: Standard MIDI Files

    static func midiFiles() -> [(name: String, bytes: [UInt8])] {
        let conductor = MIDITrack(events: [
            MIDIEvent(tick: 0, message: .meta(.sequenceNumber(7))),
            MIDIEvent(tick: 0, message: .meta(.text(.trackName, MIDIText("Conductor")))),
            MIDIEvent(tick: 0, message: .meta(.tempo(microsecondsPerQuarterNote: 500_000))),
            MIDIEvent(tick: 0, message: .meta(.timeSignature(TimeSignature(numerator: 6, denominatorExponent: 3)))),
            MIDIEvent(tick: 0, message: .meta(.keySignature(KeySignature(sharpsOrFlats: -3, isMinor: true)))),
            MIDIEvent(tick: 0, message: .meta(.smpteOffset(SMPTEOffset(hours: 1, minutes: 2, seconds: 3, frames: 4, fractionalFrames: 5)))),
            MIDIEvent(tick: 240, message: .meta(.tempo(microsecondsPerQuarterNote: 0xFF_FFFF))),
            MIDIEvent(tick: 480, message: .meta(.text(.text, MIDIText("marker")))),
            MIDIEvent(tick: 960, message: .meta(.endOfTrack)),
        ])
        let melody = MIDITrack(events: [
            MIDIEvent(tick: 0, message: .meta(.port(1))),
            MIDIEvent(tick: 0, message: .meta(.channelPrefix(3))),
            MIDIEvent(tick: 0, message: .controlChange(channel: 3, controller: 0, value: 1)),
            MIDIEvent(tick: 0, message: .programChange(channel: 3, program: 48)),
            MIDIEvent(tick: 0, message: .noteOn(channel: 3, note: 60, velocity: 100)),
            MIDIEvent(tick: 0, message: .noteOn(channel: 3, note: 64, velocity: 90)),
            MIDIEvent(tick: 10, message: .pitchBend(channel: 3, value: 12_000)),
            MIDIEvent(tick: 20, message: .channelPressure(channel: 3, pressure: 40)),
            MIDIEvent(tick: 30, message: .polyphonicKeyPressure(channel: 3, note: 60, pressure: 20)),
            MIDIEvent(tick: 40, message: .systemExclusive([0x7E, 0x7F, 0x09, 0x01, 0xF7])),
            MIDIEvent(tick: 50, message: .meta(.sequencerSpecific([0x00, 0x00, 0x41, 1, 2]))),
            MIDIEvent(tick: 60, message: .meta(.unknown(type: 0x60, data: [9, 9]))),
            MIDIEvent(tick: 480, message: .noteOff(channel: 3, note: 60, velocity: 0)),
            MIDIEvent(tick: 480, message: .noteOn(channel: 3, note: 64, velocity: 0)),
            MIDIEvent(tick: 481, message: .meta(.endOfTrack)),
        ])
        var hits: [MIDIEvent] = []
        for i in 0..<16 {
            let key = UInt8(35 + i), velocity = UInt8(20 + i * 6)
            hits.append(MIDIEvent(tick: i * 30, message: .noteOn(channel: 9, note: key, velocity: velocity)))
            hits.append(MIDIEvent(tick: i * 30 + 1, message: .noteOff(channel: 9, note: key, velocity: 64)))
        }
        hits.append(MIDIEvent(tick: 600, message: .meta(.endOfTrack)))
        let drums = MIDITrack(events: hits)
        var out: [(String, [UInt8])] = []
        let multi = MIDIFile(format: .multipleTracks, division: .ticksPerQuarterNote(480), tracks: [conductor, melody, drums])
        out.append(("format1.mid", multi.serialized()))
        out.append(("format1-no-running-status.mid", multi.serialized(runningStatus: false)))
        out.append(("format0.mid", multi.serialized(format: MIDIFileFormat.singleTrack)))
        out.append(("format2.mid", MIDIFile(format: .independentTracks, division: .ticksPerQuarterNote(96),
                                            tracks: [melody, drums]).serialized()))
        out.append(("smpte.mid", MIDIFile(format: .multipleTracks, division: .smpte(framesPerSecond: 29, ticksPerFrame: 80),
                                          tracks: [conductor, melody]).serialized()))
        // A RIFF RMID wrapper around the format-0 file.
        let smf = multi.serialized(format: MIDIFileFormat.singleTrack)
        let data = Array("data".utf8) + le32(smf.count) + smf + (smf.count & 1 == 1 ? [0] : [])
        out.append(("wrapped.rmi", Array("RIFF".utf8) + le32(4 + data.count) + Array("RMID".utf8) + data))
        // Edge cases: an empty track, a four-byte delta, an escape and split SysEx.
        let empty = Array("MThd".utf8) + [0, 0, 0, 6, 0, 1, 0, 1, 0, 96] + Array("MTrk".utf8) + [0, 0, 0, 0]
        out.append(("empty-track.mid", empty))
        let track: [UInt8] = [0xFF, 0xFF, 0xFF, 0x7F, 0x90, 0x3C, 0x40, 0x00, 0xF0, 0x03, 0x43, 0x12, 0x00,
                              0x00, 0xF7, 0x02, 0x34, 0xF7, 0x00, 0x3C, 0x00, 0x00, 0xFF, 0x2F, 0x00]
        out.append(("long-delta-sysex.mid", Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 1] + Array("MTrk".utf8)
                    + be32(track.count) + track))
        return out
    }

    // MARK: SoundFonts

    static func soundFonts() -> [(name: String, bytes: [UInt8])] {
        let sine = (0..<256).map { Int16((12_000 * sin(2 * Double.pi * Double($0) / 32)).rounded()) }
        var out: [(String, [UInt8])] = []

        var simple = SoundFont.Builder(name: "Seed")
        let s = simple.addSample(sine, name: "sine", sampleRate: 22_050, originalPitch: 60, loop: 32..<224)
        let instrument = simple.addInstrument("Sine", zones: [Zone(generators: [
            range(.keyRange, 0, 127), Generator(.sampleModes, 1), Generator(.sampleID, Int16(s))])])
        simple.addPreset("Sine", program: 0, zones: [Zone(generators: [Generator(.instrument, Int16(instrument))])])
        out.append(("simple.sf2", simple.build().serialized()))

        var rich = SoundFont.Builder(name: "Rich")
        let left = rich.addSample(sine, name: "L", sampleRate: 44_100, originalPitch: 69, loop: 16..<240,
                                  sampleType: .left, sampleLink: 1)
        let right = rich.addSample(sine.reversed(), lowBytes: (0..<256).map { UInt8($0) }, name: "R", sampleRate: 44_100,
                                   originalPitch: 69, loop: 16..<240, sampleType: .right, sampleLink: 0)
        let modulators = [
            Modulator(source: ModulatorSource(.noteOnVelocity, isDecreasing: true, curve: .concave),
                      destination: .initialFilterFc, amount: -2400),
            Modulator(source: ModulatorSource(controller: 1, isCC: true), destination: .vibLfoToPitch, amount: 50,
                      amountSource: ModulatorSource(.channelPressure, isBipolar: true, curve: .convex), transform: 2),
            Modulator(source: ModulatorSource(.pitchWheel, isBipolar: true, curve: .switch), destination: 0x8001, amount: 12),
        ]
        let stereo = rich.addInstrument("Stereo", globalZone: Zone(generators: [
            Generator(.attackVolEnv, -2000), Generator(.releaseVolEnv, 1200), Generator(.initialFilterFc, 6000),
            Generator(.initialFilterQ, 100), Generator(.modLfoToPitch, 30), Generator(.exclusiveClass, 2)],
            modulators: modulators), zones: [
            Zone(generators: [range(.keyRange, 0, 63), Generator(.pan, -500), Generator(.sampleModes, 3),
                              Generator(.sampleID, Int16(left))]),
            Zone(generators: [range(.keyRange, 0, 63), Generator(.pan, 500), Generator(.sampleModes, 1),
                              Generator(.startAddrsOffset, 3), Generator(.endloopAddrsOffset, -2),
                              Generator(.sampleID, Int16(right))]),
            Zone(generators: [range(.keyRange, 64, 127), range(.velRange, 1, 90),
                              Generator(.overridingRootKey, 72), Generator(.scaleTuning, 50), Generator(.sampleID, Int16(left))]),
        ])
        rich.addPreset("Stereo", program: 5, zones: [Zone(generators: [Generator(.instrument, Int16(stereo))],
                                                          modulators: [modulators[0]])])
        rich.addPreset("Kit", bank: 128, program: 0, globalZone: Zone(generators: [Generator(.coarseTune, 2)]),
                       zones: [Zone(generators: [range(.keyRange, 35, 81), Generator(.instrument, Int16(stereo))])])
        out.append(("rich-24bit-stereo.sf2", rich.build().serialized()))

        // Play conditions in the private zext list: round robin, a release zone, keyswitches.
        var rules = SoundFont.Builder(name: "Rules")
        let r = rules.addSample(sine, name: "sine", sampleRate: 22_050, originalPitch: 60, loop: 32..<224)
        var first = PlayCondition(), second = PlayCondition(), release = PlayCondition()
        first.sequenceLength = 2
        first.controllers = [.init(controller: 1, lower: 0, upper: 100)]
        second.sequenceLength = 2
        second.sequencePosition = 2
        second.counter = 1
        second.lastKeyswitch = 36...37
        second.defaultKeyswitch = 36
        second.polyphony.headers = [.init(header: 1, limit: 4)]
        release.trigger = .release
        release.releaseDecay = 6
        release.counter = 2
        release.offBy = 3
        let ruled = rules.addInstrument("Rules", zones: [first, second, release].map {
            Zone(generators: [Generator(.sampleModes, 1), Generator(.sampleID, Int16(r))], playCondition: $0)
        })
        rules.addPreset("Rules", program: 0, zones: [Zone(generators: [Generator(.instrument, Int16(ruled))])])
        var ruledBank = rules.build()
        out.append(("play-conditions.sf2", ruledBank.serialized()))
        // Voice shapings beside them (izvs): every family on the first zone, a filter on the last.
        ruledBank.instruments[ruled].zones[0].shaping = voiceShaping
        ruledBank.instruments[ruled].zones[2].shaping = VoiceShaping(filter: FilterShape(.highPass, poles: 4, cutoff: 300))
        out.append(("voice-shaping.sf2", ruledBank.serialized()))
        if let sf3 = sf3Seed(sine) { out.append(("vorbis.sf3", sf3)) }
        return out
    }

    /// An SF3 bank: one Ogg Vorbis sample (encoded through libsndfile when it is installed)
    /// played by one preset, so the fuzzer reaches the decoder.
    static func sf3Seed(_ pcm: [Int16]) -> [UInt8]? {
        let path = NSTemporaryDirectory() + "polyphon-fuzz-seed-\(getpid()).ogg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard let writer = try? makeAudioFileWriter(path: path, format: .ogg, channelCount: 1, sampleRate: 22_050) else {
            return nil
        }
        let long = (0..<8).flatMap { _ in pcm }.map { Float($0) / 32768 }
        guard (try? writer.write(planar: [long])) != nil, (try? writer.close()) != nil,
              let ogg = FileManager.default.contents(atPath: path) else { return nil }
        var bytes = Array(ogg)
        if bytes.count % 2 == 1 { bytes.append(0) }
        let words = stride(from: 0, to: bytes.count, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
        let header = SampleHeader(name: "vorbis", start: 0, end: UInt32(ogg.count), loopStart: 100, loopEnd: 1_500,
                                  sampleRate: 22_050, originalPitch: 60,
                                  sampleType: SampleType(rawValue: SampleType.mono.rawValue | SampleType.vorbisFlag))
        let instrument = Instrument(name: "Vorbis", zones: [Zone(generators: [Generator(.sampleModes, 1), Generator(.sampleID, 0)])])
        let preset = Preset(name: "Vorbis", program: 0, bank: 0, zones: [Zone(generators: [Generator(.instrument, 0)])])
        var info = SoundFontInfo()
        info.versionMajor = 3
        info.versionMinor = 1
        return SoundFont(info: info, presets: [preset], instruments: [instrument], samples: [header],
                         sampleData: SampleData(copying: words)).serialized()
    }

    // MARK: DLS

    static func dlsBanks() -> [(name: String, bytes: [UInt8])] {
        typealias W = DLSTestWriter
        let sample = W.WaveSample(unityNote: 60, fineTune: -12, attenuation: -65_536, loop: (type: 0, start: 1, length: 3))
        let connections = [
            DLSConnection(destination: DLSConnection.Destination.pan, scale: 200 << 16),
            DLSConnection(source: DLSConnection.Source.cc(7), destination: DLSConnection.Destination.gain,
                          transform: DLSConnection.Curve.concave, scale: -96 << 16),
        ]
        let level2 = W.collection([
            W.Instrument(name: "Lead", program: 3, regions: [W.Region(keys: 0...63, sample: sample, connections: connections),
                                                             W.Region(keys: 64...127, velocities: 1...64, keyGroup: 1)],
                         connections: connections),
            W.Instrument(name: "Drums", bank: 0x8000_0000, program: 0, regions: [W.Region(keys: 35...81)]),
        ], waves: [W.Wave(), W.Wave(name: "eight", pcm16: nil, pcm8: [128, 200, 50, 255, 0], sample: sample)])
        let level1 = W.collection([W.Instrument(name: "One", regions: [W.Region(level2: false)], level2: false)],
                                  waves: [W.Wave(channels: 2)], cueShift: 4)
        let noTable = W.collection([W.Instrument()], waves: [W.Wave()], poolTable: false)
        return [("level2.dls", level2), ("level1.dls", level1), ("no-pool-table.dls", noTable)]
    }

    // MARK: SoundBankPlayer property lists

    static func propertyLists() -> [(name: String, bytes: [UInt8])] {
        let entries: [Any] = ["44100", "Piano C3", "59", "48", "Piano C4", "127", "60"]
        var out: [(String, [UInt8])] = []
        for (name, format) in [("bank.plist", PropertyListSerialization.PropertyListFormat.xml),
                               ("bank-binary.plist", .binary)] {
            if let data = try? PropertyListSerialization.data(fromPropertyList: entries, format: format, options: 0) {
                out.append((name, Array(data)))
            }
        }
        let numbers: [Any] = [22_050, "Lead", 127, 64]
        if let data = try? PropertyListSerialization.data(fromPropertyList: numbers, format: .binary, options: 0) {
            out.append(("numbers.plist", Array(data)))
        }
        return out
    }

    // MARK: Live MIDI bytes

    static func midiStreams() -> [(name: String, bytes: [UInt8])] {
        [("notes-running-status.bin", [0x90, 0x3C, 0x64, 0x40, 0x50, 0x3C, 0x00, 0x80, 0x40, 0x00]),
         ("realtime-inside.bin", [0xB0, 0x07, 0xF8, 0x64, 0xC0, 0xFE, 0x05, 0xE0, 0x00, 0x40, 0xFA, 0xFC, 0xFF]),
         ("sysex.bin", [0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7, 0xD0, 0x20]),
         ("system-common.bin", [0xF1, 0x12, 0xF2, 0x00, 0x10, 0xF3, 0x05, 0xF6, 0xF4, 0xF5, 0xF7, 0xA0, 0x3C, 0x10])]
    }

    // MARK: Audio files

    static func audioFiles() -> [(name: String, bytes: [UInt8])] {
        let directory = NSTemporaryDirectory() + "polyphon-fuzz-seeds-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let tone = (0..<64).map { Float(sin(Double($0) / 5) * 0.5) }
        var out: [(String, [UInt8])] = []
        for ext in ["wav", "aiff", "caf"] {
            for (label, format) in [("16", SampleFormat.int16), ("24", .int24), ("32f", .float32)] {
                for channels in [1, 2] {
                    let path = "\(directory)/seed-\(label)-\(channels).\(ext)"
                    guard let writer = try? makeAudioFileWriter(path: path, sampleFormat: format, channelCount: channels,
                                                                sampleRate: 22_050, dither: .none) else { continue }
                    try? writer.write(planar: Array(repeating: tone, count: channels))
                    try? writer.close()
                    if let data = FileManager.default.contents(atPath: path) {
                        out.append(("\(label)-\(channels)ch.\(ext)", Array(data)))
                    }
                }
            }
        }
        return out
    }

    /// A keyRange/velRange generator: low byte first, as the file stores it.
    static func range(_ type: GeneratorType, _ low: UInt8, _ high: UInt8) -> Generator {
        Generator(type, Int16(bitPattern: UInt16(high) << 8 | UInt16(low)))
    }

    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((UInt32(v) >> (8 * $0)) & 0xFF) } }
    static func be32(_ v: Int) -> [UInt8] { le32(v).reversed() }
}
