import Foundation
import PolyphonMIDI
import PolyphonSoundFont
@_exported import PolyphonTestSupport

/// Runs the built `polyphon` executable (it sits beside the test bundle).
enum CLI {
    static var binary: String {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // Swift Testing may run from inside the .xctest bundle on some platforms.
        for _ in 0..<4 where !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("polyphon").path) {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent("polyphon").path
    }

    typealias Result = ProcessResult

    static func run(_ args: [String], environment: [String: String] = [:]) throws -> Result {
        try runProcess(binary, args, environment: environment)
    }

    static let isCI = RealFiles.isCI

    /// The repository's root, found from this file's path.
    static var repository: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// A directory for this test run's files.
    static let workDirectory = TemporaryDirectory.forThisProcess(prefix: "polyphon-cli")

    /// ``SineBank`` as a file.
    static func bankFile() throws -> String {
        let path = workDirectory + "/test.sf2"
        if FileManager.default.fileExists(atPath: path) { return path }
        try SineBank.make().write(to: path)
        return path
    }

    /// A two-track song: a 1 s note on channel 1 and a drum hit, 480 PPQN at 120 BPM.
    static func songFile() throws -> String {
        let path = workDirectory + "/song.mid"
        if FileManager.default.fileExists(atPath: path) { return path }
        let conductor = MIDITrack(events: [
            MIDIEvent(tick: 0, message: .meta(.text(.trackName, MIDIText("Conductor")))),
            MIDIEvent(tick: 0, message: .meta(.tempo(microsecondsPerQuarterNote: 500_000))),
            MIDIEvent(tick: 0, message: .meta(.endOfTrack)),
        ])
        let melody = MIDITrack(events: [
            MIDIEvent(tick: 0, message: .meta(.text(.trackName, MIDIText("Melody")))),
            MIDIEvent(tick: 0, message: .programChange(channel: 0, program: 0)),
            MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: 69, velocity: 100)),
            MIDIEvent(tick: 960, message: .noteOff(channel: 0, note: 69, velocity: 0)),
            MIDIEvent(tick: 960, message: .meta(.endOfTrack)),
        ])
        let drums = MIDITrack(events: [
            MIDIEvent(tick: 240, message: .noteOn(channel: 9, note: 38, velocity: 110)),
            MIDIEvent(tick: 480, message: .noteOff(channel: 9, note: 38, velocity: 0)),
            MIDIEvent(tick: 480, message: .meta(.endOfTrack)),
        ])
        try MIDIFile(format: .multipleTracks, division: .ticksPerQuarterNote(480),
                     tracks: [conductor, melody, drums]).write(to: URL(fileURLWithPath: path))
        return path
    }
}

