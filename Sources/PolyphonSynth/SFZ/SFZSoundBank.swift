import PolyphonSFZCore
import PolyphonSoundFontCore

/// An SFZ instrument as a bank the synthesizer plays: each region an instrument zone, each
/// sample channel a sample, in one `SoundFont` with one preset.
///
/// The SF2 voice plays what SFZ and SF2 share — key and velocity ranges, `pitch_keycenter`,
/// `pitch_keytrack`, `transpose`, `tune`, `volume`, `amplitude`, `pan`, the `ampeg_` envelope,
/// `offset`, `end`, loop modes and loop points (the file's own when the SFZ has none) — with
/// sfizz's arithmetic. What SF2 cannot express travels beside the zone as a `VoiceShaping`,
/// played with sfizz's designs: the filter (`fil_type` low-, high-, band-pass and band-reject
/// of 1–6 poles, `cutoff`, `resonance`, `fil_keytrack`, `fil_veltrack`) and the `pitcheg_*`
/// and `fileg_*` envelopes, the v1 LFOs `amplfo_*`, `pitchlfo_*` and `fillfo_*`; `volume_onccN`, `pan_onccN`, `pitch_onccN`, `cutoff_onccN` and
/// `resonance_onccN` become SF2 modulators. What it cannot play yet is listed in ``warnings`` (one line per kind, with
/// how many regions it concerns); regions that depend on state it does not follow (round robin,
/// random layers, keyswitches, controller ranges) play as at the start of a performance, and
/// release-triggered regions are left out.
///
/// Samples are decoded through the instrument's `SFZInstrument.sampleProvider`
/// and copied into the bank, so the bank owns its points and any number of synthesizers share it.
public struct SFZSoundBank: Sendable {
    /// The bank: one preset, at the slot ``placement`` chose (and an empty kit beside a melodic
    /// instrument).
    public let soundFont: SoundFont
    /// Where the instrument was placed (never ``SFZPlacement/automatic``).
    public let placement: SFZPlacement
    /// What the synthesizer does not play of the instrument, and samples it could not decode.
    public let warnings: [SFZWarning]
    /// How many of the instrument's regions the bank plays.
    public let regionCount: Int

    /// Builds the bank for `instrument`, decoding every sample its played regions use.
    public init(_ instrument: SFZInstrument, placement: SFZPlacement = .automatic) {
        let slot: SFZPlacement = switch placement {
        case .automatic: instrument.looksLikeDrumKit ? .drumKit : .melodic
        default: placement
        }
        self.placement = slot
        var builder = SoundFont.Builder(name: Self.name(of: instrument.path))
        var notes = SFZNotPlayedTally()
        var warnings: [SFZWarning] = []
        var samplesByFile: [Int: [Int]] = [:]     // file index → sample header per channel
        var failedFiles: Set<Int> = []
        var cycles: [SFZCycleKey: Int] = [:]      // generated wave and keycenter → sample header
        var zones: [Zone] = []
        let state = SFZInitialState(instrument)

        for region in instrument.regions {
            notes.record(region)
            guard region.trigger.kind == .attack, region.selection.triggersOnKeys, state.admits(region.selection) else {
                continue
            }
            guard let source = region.playback.sample else { continue }
            var channelSamples: [Int] = []
            var frameCount = 0
            let playback: SFZResolvedPlayback
            switch source {
            case .file:
                guard let fileIndex = region.sampleIndex, !failedFiles.contains(fileIndex),
                      let provider = instrument.sampleProvider else { continue }
                let decoded: SFZDecodedSample
                do {
                    decoded = try provider.sample(at: fileIndex)
                } catch {
                    failedFiles.insert(fileIndex)
                    warnings.append(SFZWarning(.missingSample, at: region.location,
                                               "\(error); the regions playing it are skipped"))
                    continue
                }
                if let known = samplesByFile[fileIndex] {
                    channelSamples = known
                } else {
                    channelSamples = Self.addSample(decoded, name: instrument.samples[fileIndex].name, to: &builder)
                    samplesByFile[fileIndex] = channelSamples
                }
                frameCount = decoded.metadata.frameCount
                playback = region.resolvedPlayback(sample: decoded.metadata)
            case .generator(let generator):
                guard generator.isPeriodic else {
                    if generator != .silence { notes.note("*noise and *gnoise samples", region) }
                    continue
                }
                let key = SFZCycleKey(generator: generator, keycenter: region.pitch.keycenter)
                if let known = cycles[key] {
                    channelSamples = [known]
                } else {
                    channelSamples = [Self.addCycle(of: generator, keycenter: key.keycenter, to: &builder)]
                    cycles[key] = channelSamples[0]
                }
                frameCount = Self.cyclePoints
                var resolved = region.resolvedPlayback(sample: nil)
                resolved.end = frameCount - 1
                resolved.loop = SFZRange(0, frameCount - 1)
                playback = resolved
            }
            let pans: [Float] = channelSamples.count == 2 ? [-500, 500] : [region.amplitude.pan.value * 5]
            for (sampleID, pan) in zip(channelSamples, pans) {
                zones.append(Zone(generators: SFZZoneMapping.generators(region, playback: playback, sampleID: sampleID,
                                                                        frameCount: frameCount, pan: pan),
                                  modulators: SFZZoneMapping.cancelledDefaults
                                      + SFZZoneMapping.controllerModulators(region),
                                  shaping: SFZZoneMapping.shaping(region)))
            }
            notes.recordPlayed(region, channels: channelSamples.count)
        }

        let instrumentIndex = builder.addInstrument(Self.name(of: instrument.path), zones: zones)
        let (bank, program): (UInt16, UInt16) = switch slot {
        case .drumKit: (128, 0)
        case .preset(let b, let p): (b, p)
        case .automatic, .melodic: (0, 0)
        }
        builder.addPreset(Self.name(of: instrument.path), bank: bank, program: program,
                          zones: [Zone(generators: [Generator(.instrument, Int16(instrumentIndex))])])
        if slot == .melodic {
            // An empty kit, so the drum channel (which falls back to bank 0) stays silent.
            builder.addPreset("No drum kit", bank: 128, program: 0, zones: [])
        }
        soundFont = builder.build()
        self.warnings = warnings + notes.warnings
        regionCount = notes.playedRegions
    }

    /// Each channel of `sample` (at most two) as a sample header; returns their indexes.
    private static func addSample(_ sample: SFZDecodedSample, name: String, to builder: inout SoundFont.Builder) -> [Int] {
        let frames = sample.metadata.frameCount
        let rate = UInt32(clamping: Int(sample.metadata.sampleRate.rounded()))
        let root = sample.metadata.rootKey ?? 60
        return sample.words.indices.map { channel in
            let words = Array(sample.words[channel].prefix(frames))
            let low = sample.lowBytes.map { Array($0[channel].prefix(frames)) }
            let side = sample.words.count == 2 ? (channel == 0 ? " L" : " R") : ""
            return builder.addSample(words, lowBytes: low, name: name + side, sampleRate: max(rate, 1),
                                     originalPitch: root)
        }
    }

    /// Points per cycle of a generated wave.
    static let cyclePoints = 2048

    /// One cycle of `generator`, recorded at the rate that makes it sound at `keycenter`'s
    /// frequency (so the voice's pitch arithmetic plays it like any sample), with the harmonics
    /// below 20 kHz at that key.
    private static func addCycle(of generator: SFZGenerator, keycenter: UInt8,
                                 to builder: inout SoundFont.Builder) -> Int {
        let frequency = 440 * Math.pow(2, (Double(keycenter) - 69) / 12)
        let harmonics = max(1, Int(20_000 / frequency))
        let points = generator.cycle(pointCount: cyclePoints, harmonicLimit: harmonics)
        var words = [Int16](repeating: 0, count: points.count)
        var low = [UInt8](repeating: 0, count: points.count)
        for (i, x) in points.enumerated() {
            let value = Int32(min(max((Double(x) * 8_388_608).rounded(), -8_388_608), 8_388_607))
            words[i] = Int16(truncatingIfNeeded: value >> 8)
            low[i] = UInt8(truncatingIfNeeded: value)
        }
        let rate = UInt32((Double(cyclePoints) * frequency).rounded())
        return builder.addSample(words, lowBytes: low, name: generator.sampleName, sampleRate: rate,
                                 originalPitch: keycenter)
    }

    /// The file name without its folders and extension.
    private static func name(of path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = file.lastIndex(of: "."), dot != file.startIndex { return String(file[..<dot]) }
        return file.isEmpty ? "SFZ" : file
    }
}

/// A generated wave recorded for one keycenter: regions sharing both share the sample.
private struct SFZCycleKey: Hashable {
    var generator: SFZGenerator
    var keycenter: UInt8
}
