import PolyphonSoundFontCore
import Foundation

/// How a SoundBankPlayer bank becomes a SoundFont.
public struct SampleBankOptions: Hashable, Sendable {
    /// Pan each mono sample's zone as the seed player pans notes: 50 % left at C3 (48) and
    /// below, centre at F4 (65), 50 % right at G5 (79) and above, linear in between. A zone
    /// covers several notes and takes the pan of its root note.
    public var octavePanning: Bool = true
    /// Volume-envelope release in timecents: the seed lets every sample play out with a fade of
    /// about a second; 0 timecents is 1 s.
    public var releaseTimecents: Int16 = 0

    /// The seed player's behaviour.
    public init(octavePanning: Bool = true, releaseTimecents: Int16 = 0) {
        self.octavePanning = octavePanning
        self.releaseTimecents = releaseTimecents
    }

    /// The seed's pan for `note`, in SF2 units (0.1 %: −500 hard left … 500 hard right).
    public static func octavePan(note: Int) -> Int16 {
        if note <= 48 { return -250 }
        if note >= 79 { return 250 }
        if note <= 65 { return Int16((-250.0 + 250.0 * Double(note - 48) / 17.0).rounded()) }
        return Int16((250.0 * Double(note - 65) / 14.0).rounded())
    }
}

extension SoundFont {
    /// The audio file extensions tried beside the property list, in order.
    public static let sampleBankAudioExtensions = ["caf", "wav", "aif", "aiff", "CAF", "WAV", "AIF", "AIFF"]

    /// Loads a SoundBankPlayer sample bank: a property list (XML or binary) naming audio files
    /// that sit beside it.
    ///
    /// The result has one preset (bank 0, program 0) and one instrument, both named after the
    /// property list, with one zone per sample: its key range, `overridingRootKey` at the root
    /// note, no loop, a volume-envelope release of ``SampleBankOptions/releaseTimecents`` and,
    /// with ``SampleBankOptions/octavePanning``, the seed's pan. A stereo file becomes two zones
    /// panned hard left and right over a linked left/right sample pair.
    ///
    /// - Parameters:
    ///   - path: the property list.
    ///   - audioLoader: decodes one audio file (PolyphonAudio's `AudioFile` in practice; see
    ///     ``SampleBankAudio``).
    ///   - options: octave panning and the release given to every zone.
    /// - Throws: ``SampleBankError`` naming the property list and entry.
    public init(contentsOfSampleBank path: String, audioLoader: SampleBankAudioLoader,
                options: SampleBankOptions = SampleBankOptions()) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SampleBankError(file: path, kind: .cannotOpen(error.localizedDescription))
        }
        let description = try SampleBankDescription(propertyList: data, file: path)
        let directory = (path as NSString).deletingLastPathComponent
        let bankName = ((path as NSString).lastPathComponent as NSString).deletingPathExtension

        var builder = Builder(name: bankName)
        builder.info.software = "SoundBankPlayer property list"
        var zones: [Zone] = []
        var warnings: [SoundFontWarning] = []
        for (i, entry) in description.entries.enumerated() {
            let plistEntry = 1 + i * 3
            let candidates = Self.sampleBankAudioExtensions.map {
                (directory as NSString).appendingPathComponent(entry.name + "." + $0)
            }
            guard let audioPath = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
                throw SampleBankError(file: path, entry: plistEntry,
                                      kind: .missingAudio(name: entry.name, tried: candidates.map { ($0 as NSString).lastPathComponent }))
            }
            let audio: SampleBankAudio
            do {
                audio = try audioLoader(audioPath)
            } catch {
                throw SampleBankError(file: path, entry: plistEntry, kind: .badAudio(path: audioPath, reason: "\(error)"))
            }
            guard let first = audio.channels.first, !first.isEmpty,
                  audio.channels.allSatisfy({ $0.count == first.count }),
                  audio.sampleRate.isFinite, (1...Double(UInt32.max)).contains(audio.sampleRate) else {
                throw SampleBankError(file: path, entry: plistEntry,
                                      kind: .badAudio(path: audioPath, reason: "no samples, channels of unequal length or an invalid rate"))
            }
            if abs(audio.sampleRate - description.sampleRate) > 0.5 {
                warnings.append(SoundFontWarning(chunk: "plist", offset: plistEntry, message:
                    "\(entry.name): file rate \(audio.sampleRate) Hz differs from the bank's \(description.sampleRate) Hz; the file's rate plays"))
            }
            if audio.channels.count > 2 {
                warnings.append(SoundFontWarning(chunk: "plist", offset: plistEntry, message:
                    "\(entry.name): \(audio.channels.count) channels; the first two are used"))
            }
            let rate = UInt32(audio.sampleRate.rounded())
            var common: [Generator] = [
                .range(.keyRange, entry.keyRange),
                Generator(.releaseVolEnv, options.releaseTimecents),
                Generator(.sampleModes, 0),
                Generator(.overridingRootKey, Int16(entry.rootKey)),
            ]
            if audio.channels.count == 1 {
                if options.octavePanning {
                    common.insert(Generator(.pan, SampleBankOptions.octavePan(note: Int(entry.rootKey))), at: 1)
                }
                let sample = builder.addSample(Self.pcm16(first), name: entry.name, sampleRate: rate,
                                               originalPitch: entry.rootKey)
                zones.append(Zone(generators: common + [Generator(.sampleID, Int16(sample))]))
            } else {
                let left = builder.samples.count, right = left + 1
                builder.addSample(Self.pcm16(audio.channels[0]), name: entry.name + " L", sampleRate: rate,
                                  originalPitch: entry.rootKey, sampleType: .left, sampleLink: UInt16(right))
                builder.addSample(Self.pcm16(audio.channels[1]), name: entry.name + " R", sampleRate: rate,
                                  originalPitch: entry.rootKey, sampleType: .right, sampleLink: UInt16(left))
                var leftGenerators = common, rightGenerators = common
                leftGenerators.insert(Generator(.pan, -500), at: 1)
                rightGenerators.insert(Generator(.pan, 500), at: 1)
                zones.append(Zone(generators: leftGenerators + [Generator(.sampleID, Int16(left))]))
                zones.append(Zone(generators: rightGenerators + [Generator(.sampleID, Int16(right))]))
            }
        }
        let instrument = builder.addInstrument(bankName, zones: zones)
        builder.addPreset(bankName, bank: 0, program: 0, zones: [Zone(generators: [Generator(.instrument, Int16(instrument))])])
        self = builder.build()
        self.warnings = warnings
    }

    /// Float points (±1 full scale) as 16-bit words, rounded and clipped; exact for 16-bit sources.
    static func pcm16(_ points: [Float]) -> [Int16] {
        points.map { point in
            let scaled = (Double(point) * 32768).rounded()
            guard scaled.isFinite else { return 0 }
            return Int16(max(-32768, min(32767, scaled)))
        }
    }
}
