import Foundation
import PolyphonAudio
import PolyphonMIDI

/// A sampled piano laid out as free SFZ piano libraries are, built on disk for the tests that
/// play one through `render`, `play` and `jam`: a folder holding the `.sfz`, an `#include`d
/// settings file of `#define`s and an `#include`d file of groups, `default_path` to a folder of
/// samples, two velocity layers, release samples (`trigger=release`, `rt_decay`) and a sample
/// named in the SFZ in another letter case than on disk, as libraries made on Windows are.
/// Samples are sines, so which one played is told by its pitch: the soft layer is recorded 40
/// cents flat, the loud one 40 cents sharp, the release samples an octave up.
///
/// With `compressedSamples` (libsndfile present) the C5 samples are FLAC (soft) and Ogg Vorbis
/// (loud); without, 24-bit WAV.
public struct SFZPianoLibrary {
    /// The `.sfz` file.
    public let path: String
    /// True when the C5 samples were written as FLAC and Ogg Vorbis.
    public let hasCompressedSamples: Bool

    /// Cents the soft layer's samples lie from their key.
    public static let softDetune = -40.0
    /// Cents the loud layer's samples lie from their key.
    public static let loudDetune = 40.0
    /// Highest velocity of the soft layer.
    public static let softLayerTop = 64
    /// dB per second the release samples lose while their key was held.
    public static let releaseDecay = 6.0
    /// The release samples' length in seconds.
    public static let releaseSeconds = 0.4

    /// The frequency key `key` plays at from a sample of `detune` cents (its keycenter tracked).
    public static func frequency(key: Int, detune: Double) -> Double {
        440 * pow(2, (Double(key) - 69) / 12 + detune / 1200)
    }

    /// Writes the library into a new folder `Upright Piano` of `directory`.
    public init(in directory: String, compressedSamples: Bool = (try? Libsndfile.load()) != nil) throws {
        let root = directory + "/Upright Piano"
        for folder in ["", "/Programs", "/Samples", "/Samples/Release"] {
            try FileManager.default.createDirectory(atPath: root + folder, withIntermediateDirectories: true)
        }
        let c5 = compressedSamples ? (soft: "C5p.flac", loud: "C5f.ogg") : (soft: "C5p.wav", loud: "C5f.wav")
        path = root + "/Upright Piano.sfz"
        hasCompressedSamples = compressedSamples
        try """
            // Upright Piano: two velocity layers, release samples, sustain pedal.
            #include "Programs/settings.sfz"
            <control> default_path=Samples/
            <global> ampeg_release=$RELEASE
            #include "Programs/layers.sfz"
            """.write(toFile: path, atomically: true, encoding: .utf8)
        try """
            #define $RELEASE 0.05
            #define $SOFT_TOP \(Self.softLayerTop)
            """.write(toFile: root + "/Programs/settings.sfz", atomically: true, encoding: .utf8)
        try """
            <group> lovel=1 hivel=$SOFT_TOP
            <region> sample=C4p.wav lokey=21 hikey=65 pitch_keycenter=c4
            <region> sample=\(c5.soft) lokey=66 hikey=108 pitch_keycenter=c5
            <group> lovel=\(Self.softLayerTop + 1) hivel=127
            <region> sample=C4F.WAV lokey=21 hikey=65 pitch_keycenter=60
            <region> sample=\(c5.loud) lokey=66 hikey=108 pitch_keycenter=72
            <group> trigger=release rt_decay=\(Self.releaseDecay) ampeg_release=0.01
            <region> sample=Release/rel_C4.wav lokey=21 hikey=108 pitch_keycenter=60
            """.write(toFile: root + "/Programs/layers.sfz", atomically: true, encoding: .utf8)

        let rate = 44_100.0
        func sine(_ frequency: Double, seconds: Double) -> [Float] {
            // Faded in and out over 2 ms so no sample starts or ends with a click.
            let count = Int(seconds * rate), fade = 88.0
            return (0..<count).map { i in
                let edge = min(1, Double(i) / fade, Double(count - 1 - i) / fade)
                return Float(0.5 * edge * sin(2 * Double.pi * frequency * Double(i) / rate))
            }
        }
        func write(_ name: String, _ points: [Float], as sampleFormat: SampleFormat) throws {
            let writer = try makeAudioFileWriter(path: root + "/Samples/" + name, sampleFormat: sampleFormat,
                                                 channelCount: 1, sampleRate: rate)
            try writer.write(planar: [points])
            try writer.close()
        }
        try write("C4p.wav", sine(Self.frequency(key: 60, detune: Self.softDetune), seconds: 2), as: .int24)
        try write(c5.soft, sine(Self.frequency(key: 72, detune: Self.softDetune), seconds: 2), as: .int24)
        // On disk in lower case: the SFZ says C4F.WAV.
        try write("c4f.wav", sine(Self.frequency(key: 60, detune: Self.loudDetune), seconds: 2), as: .int16)
        try write(c5.loud, sine(Self.frequency(key: 72, detune: Self.loudDetune), seconds: 2), as: .int16)
        try write("Release/rel_C4.wav", sine(Self.frequency(key: 72, detune: 0), seconds: Self.releaseSeconds), as: .int16)
    }

    /// A song that shows every part of the library, one sound at a time, at 480 PPQN and 120 BPM
    /// (times below in seconds): C4 soft with the sustain pedal down from 0.05 to 0.7 and the
    /// key up at 0.3 (the pedal holds it; its release sample sounds from 0.7); C5 loud 1.3–1.7
    /// (release sample from 1.7); E4 loud 2.2–2.5, from the sample whose name differs in case;
    /// D5 soft 2.8–3.1; then, when `gmProgram` is given, A4 on channel 2 with that program
    /// 3.5–3.9, for a bank stacked under the piano.
    public static func song(gmProgram: UInt8? = nil) -> MIDIFile {
        func tick(_ seconds: Double) -> Int { Int((seconds * 960).rounded()) }
        var events: [MIDIEvent] = [MIDIEvent(tick: 0, message: .meta(.tempo(microsecondsPerQuarterNote: 500_000)))]
        func note(_ channel: UInt8, _ key: UInt8, _ velocity: UInt8, _ on: Double, _ off: Double) {
            events.append(MIDIEvent(tick: tick(on), message: .noteOn(channel: channel, note: key, velocity: velocity)))
            events.append(MIDIEvent(tick: tick(off), message: .noteOff(channel: channel, note: key, velocity: 0)))
        }
        events.append(MIDIEvent(tick: tick(0.05), message: .controlChange(channel: 0, controller: 64, value: 127)))
        events.append(MIDIEvent(tick: tick(0.7), message: .controlChange(channel: 0, controller: 64, value: 0)))
        note(0, 60, 40, 0, 0.3)
        note(0, 72, 110, 1.3, 1.7)
        note(0, 64, 110, 2.2, 2.5)
        note(0, 74, 40, 2.8, 3.1)
        if let gmProgram {
            events.append(MIDIEvent(tick: 0, message: .programChange(channel: 1, program: gmProgram)))
            note(1, 69, 100, 3.5, 3.9)
        }
        events = events.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }.map(\.element)
        events.append(MIDIEvent(tick: tick(gmProgram == nil ? 3.5 : 4.3), message: .meta(.endOfTrack)))
        return MIDIFile(format: .multipleTracks, division: .ticksPerQuarterNote(480), tracks: [MIDITrack(events: events)])
    }

    /// What ``song(gmProgram:)`` should sound, window by window (seconds), each holding one
    /// tone: the frequency and a name for messages.
    public static let songTones: [(from: Double, to: Double, frequency: Double, what: String)] = [
        (0.10, 0.28, frequency(key: 60, detune: softDetune), "C4 soft layer (24-bit WAV)"),
        (0.40, 0.65, frequency(key: 60, detune: softDetune), "C4 held by the sustain pedal"),
        (0.78, 0.95, frequency(key: 72, detune: 0), "C4's release sample at pedal up"),
        (1.35, 1.65, frequency(key: 72, detune: loudDetune), "C5 loud layer"),
        (1.74, 1.88, frequency(key: 84, detune: 0), "C5's release sample"),
        (2.25, 2.48, frequency(key: 64, detune: loudDetune), "E4 loud layer (sample named in another case)"),
        (2.85, 3.08, frequency(key: 74, detune: softDetune), "D5 soft layer"),
    ]

    /// dB from C5's release sample (key held 0.4 s, velocity 110) to C4's (held 0.7 s by the
    /// pedal, velocity 40): SF2's velocity curve (40·log10 of the velocities' ratio, sfizz's
    /// default `amp_veltrack=100`) and `rt_decay` for the 0.3 s longer hold.
    public static var releaseLevelDifference: Double {
        40 * log10(40.0 / 110) - releaseDecay * (0.7 - 0.4)
    }
}
