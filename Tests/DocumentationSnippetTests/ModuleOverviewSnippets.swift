// The code of the modules' overview pages and of "Polyphon in the browser".
import Foundation
import Testing
import PolyphonTestSupport
// snippet: list-notes
import PolyphonMIDI

/// Prints every note of a Standard MIDI File with the time it starts, in seconds.
func listNotes(of path: String) throws {
    let file = try MIDIFile(contentsOfFile: path)
    print("format \(file.format.rawValue), \(file.tracks.count) tracks, \(file.duration) s")
    for event in file.timedEvents() {
        if case .noteOn(let channel, let note, let velocity) = event.message, velocity > 0 {
            print("\(event.seconds) s: track \(event.trackIndex), channel \(channel + 1), note \(note)")
        }
    }
}
// end snippet

// snippet: midi-bytes
/// The portable core works on bytes: read a file from memory, write it back as format 0.
func mergedIntoOneTrack(_ bytes: [UInt8]) throws -> [UInt8] {
    let file = try MIDIFile(bytes: bytes, name: "upload.mid")
    return file.serialized(format: .singleTrack)
}

/// Raw MIDI from a serial port or a pipe: running status, real-time bytes and SysEx understood.
func messages(in stream: [UInt8]) -> [MIDIStreamMessage] {
    var parser = MIDIByteStreamParser()
    return parser.parse(stream)
}
// end snippet

// snippet: open-banks
import PolyphonSoundFont

/// Opens the bank a user named, or the first one installed, or the built-in bank when there is
/// none; lists its presets.
func openBank(named path: String?) throws -> SoundFont {
    let bank: SoundFont
    switch try SoundBankLocator().locate(explicitPath: path) {
    case .file(let path, let origin):
        print("playing \(path) (from \(origin))")
        bank = try SoundFont(contentsOfAnyBank: path)         // SF2, SF3, DLS or a plist bank
    case .builtIn:
        bank = SoundFont.builtInGeneralMIDI
    }
    for preset in bank.presets {
        print(preset.bank, preset.program, preset.name)
    }
    return bank
}
// end snippet

// snippet: builtin-bank
import PolyphonBuiltInBank

/// Writes the built-in General MIDI bank as an .sf2 file any SoundFont player can load.
func exportBuiltInBank(to path: String) throws {
    let bank = SoundFont.builtInGeneralMIDI                   // made in code on first use
    try bank.write(to: path)
}
// end snippet

// snippet: browser-subsets
/// Cuts one .sf2 per General MIDI program out of a bank for a web page to fetch as it needs them;
/// each subset plays its preset exactly as the whole bank does.
func writePresetSubsets(of bankPath: String, programs: [Int], into directory: String) throws {
    let bank = try SoundFont(contentsOf: bankPath)
    for program in programs {
        guard let index = bank.presetIndex(bank: 0, program: program) else { continue }
        try bank.subset(presetIndexes: [index]).write(to: "\(directory)/preset-0-\(program).sf2")
    }
}
// end snippet

// snippet: audio-file-writer
import PolyphonAudio

/// Writes rendered blocks to a WAV file while measuring their loudness and peak.
func writeBlocks(_ blocks: [(left: [Float], right: [Float])], to path: String) throws {
    let writer = try makeAudioFileWriter(path: path, sampleFormat: .int16, channelCount: 2, sampleRate: 44_100)
    var meter = LoudnessMeter(sampleRate: 44_100, channelCount: 2)
    for block in blocks {
        try writer.write(planar: [block.left, block.right])
        meter.process(planar: [block.left, block.right])
    }
    try writer.close()                                        // completes the header
    print(meter.integratedLoudness, "LUFS,", meter.samplePeakDecibels, "dBFS peak")
}
// end snippet

@Suite struct ModuleOverviewSnippets {
    @Test func notesAreListedFromAWrittenSong() throws {
        let directory = try TemporaryDirectory()
        try makeSeedSong().write(to: URL(fileURLWithPath: directory.file("seed.mid")))
        try listNotes(of: directory.file("seed.mid"))
    }

    @Test func bytesRoundTripIntoOneTrackAndAStreamParses() throws {
        let bytes = makeSeedSong().midiFile().serialized(format: nil, runningStatus: true)
        let merged = try MIDIFile(bytes: mergedIntoOneTrack(bytes))
        #expect(merged.format == .singleTrack && merged.tracks.count == 1)
        #expect(merged.noteCount == 10)
        #expect(messages(in: [0x90, 60, 100, 64, 0]).count == 2)   // the second under running status
    }

    @Test func aNamedBankOpensAndTheBuiltInOneExports() throws {
        let directory = try TemporaryDirectory()
        let path = try SnippetFixtures.sineBankFile(in: directory)
        #expect(try openBank(named: path).presets.count == 129)
        try exportBuiltInBank(to: directory.file("gm.sf2"))
        let exported = try SoundFont(contentsOf: directory.file("gm.sf2"))
        #expect(exported.presetIndex(bank: 0, program: 48) != nil)
    }

    @Test func subsetsHoldOnePresetEach() throws {
        let directory = try TemporaryDirectory()
        try writePresetSubsets(of: SnippetFixtures.sineBankFile(in: directory), programs: [0, 48, 200],
                               into: directory.path)
        #expect(try SoundFont(contentsOf: directory.file("preset-0-48.sf2")).presets.count == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.file("preset-0-200.sf2")))
    }

    @Test func blocksAreWrittenAndMeasured() throws {
        let directory = try TemporaryDirectory()
        let block = (left: [Float](repeating: 0.5, count: 4410), right: [Float](repeating: -0.5, count: 4410))
        try writeBlocks([block, block], to: directory.file("blocks.wav"))
        #expect(try AudioFile(contentsOf: directory.file("blocks.wav")).frameCount == 8820)
    }
}
