import PolyphonSFZCore
import PolyphonSoundFontCore

/// An SFZ instrument as a bank the synthesizer plays: each region an instrument zone, each
/// sample channel a sample, in one `SoundFont` with one preset.
///
/// The SF2 voice plays what SFZ and SF2 share — key and velocity ranges, `pitch_keycenter`,
/// `pitch_keytrack`, `transpose`, `tune`, `volume`, `amplitude`, `pan`, the `ampeg_` envelope,
/// `offset`, `end`, loop modes and loop points (the file's own when the SFZ has none), `count`
/// and `loop_count` — with
/// sfizz's arithmetic. What SF2 lacks travels with each zone as a `PlayCondition` the
/// synthesizer checks against the channel's state as sfizz does: round robin
/// (`seq_length`/`seq_position`), random layers (`lorand`/`hirand`, drawn from a seeded sequence
/// so renders repeat), keyswitches (`sw_last`, `sw_lolast`/`sw_hilast`, `sw_down`, `sw_up`,
/// `sw_previous`, `sw_default`), `lochan`/`hichan`, `loccN`/`hiccN`, `lobend`/`hibend`,
/// `loprog`/`hiprog` and aftertouch ranges; triggers (`release` held back by the sustain pedal,
/// `release_key`, `first`, `legato`, `rt_decay`, `rt_dead`); `one_shot` voices that ignore
/// note-off; and polyphony groups (`group`, `off_by`, `off_mode`, `off_time`). Beside it a
/// `VoiceShaping` plays, with sfizz's designs, the filter (`fil_type` low-, high-, band-pass and
/// band-reject of 1–6 poles, `cutoff`, `resonance`, `fil_keytrack`, `fil_veltrack` and its
/// `_onccN`, `fil_random`), the
/// `pitcheg_*` and `fileg_*` envelopes and the v1 LFOs `amplfo_*`, `pitchlfo_*`, `fillfo_*`,
/// and the level beyond SF2 (`amp_veltrack`, `amp_velcurve_N`, `amp_keytrack`, `amp_random`,
/// gain above 0 dB, `xfin_*`/`xfout_*` crossfades, `amplitude_onccN`, a stereo file's `width`
/// and `position`);
/// `volume_onccN`, `pan_onccN`, `pitch_onccN`, `cutoff_onccN` and `resonance_onccN` become SF2
/// modulators, and so do `bend_up`/`bend_down`; `pitch_veltrack` and `pitch_random` are settled
/// at note-on. `set_ccN` becomes the preset's `Preset.controllerDefaults`. What it cannot play
/// yet is listed in ``warnings`` (one line per kind, with how many regions it concerns).
///
/// Samples are decoded through the instrument's `SFZInstrument.sampleProvider`
/// and copied once into the bank's pool, so the bank owns its points and any number of
/// synthesizers share it; with `releasingDecodedSamples` the provider then lets its decoded
/// copies go, so the points are held once.
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
    /// - Parameters:
    ///   - instrument: The instrument read from its `.sfz` file, with its sample provider.
    ///   - placement: The bank and program it plays at; ``SFZPlacement/automatic`` puts a drum kit
    ///     at 128:0 and anything else at 0:0.
    ///   - releasingDecodedSamples: When true, the instrument's sample provider forgets the decoded
    ///     files once they are in the bank (they are decoded again if asked for), so a large
    ///     instrument's samples are held once, by the bank.
    public init(_ instrument: SFZInstrument, placement: SFZPlacement = .automatic,
                releasingDecodedSamples: Bool = false) {
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
        var pool = SFZSamplePool()
        let cancelledControllers = SFZZoneMapping.cancelledControllerDefaults(
            SFZZoneMapping.connectedControllers(instrument.regions))

        let groupLimits = SFZPlayConditionMapping.groupLimits(instrument.regions)
        for (regionIndex, region) in instrument.regions.enumerated() {
            notes.record(region)
            guard region.selection.triggersOnKeys, !SFZPlayConditionMapping.isUnreachable(region) else { continue }
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
                    channelSamples = pool.add(decoded, name: instrument.samples[fileIndex].name)
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
                    channelSamples = [Self.addCycle(of: generator, keycenter: key.keycenter, to: &pool)]
                    cycles[key] = channelSamples[0]
                }
                frameCount = Self.cyclePoints
                var resolved = region.resolvedPlayback(sample: nil)
                resolved.end = frameCount - 1
                resolved.loop = SFZRange(0, frameCount - 1)
                playback = resolved
            }
            // A stereo file's sides play hard left and right in SF2 terms (its SF2 twin), and
            // are placed by their StereoShape in the voice.
            let sides: [StereoShape.Side?] = channelSamples.count == 2 ? [.left, .right] : [nil]
            let pans: [Float] = channelSamples.count == 2 ? [-500, 500] : [region.amplitude.pan.value * 5]
            let amplitude = SFZZoneMapping.amplitudeShape(region, stream: UInt32(truncatingIfNeeded: regionIndex),
                                                          curves: instrument.curves)
            let modulators = SFZZoneMapping.cancelledDefaults + cancelledControllers
                + (amplitude?.velocity != nil ? SFZZoneMapping.cancelledVelocityCurve : [])
                + SFZZoneMapping.controllerModulators(region) + SFZZoneMapping.bendModulators(region)
            let shaping = SFZZoneMapping.shapingAndNoteStart(region, curves: instrument.curves,
                                                             stream: UInt32(truncatingIfNeeded: regionIndex))
            for (index, sampleID) in channelSamples.enumerated() {
                // Each zone its own round-robin counter: a stereo file's two count alike.
                let condition = SFZPlayConditionMapping.condition(region, counter: zones.count,
                                                                  defaultKeyswitch: instrument.defaultKeyswitch,
                                                                  regionIndex: regionIndex, groupLimits: groupLimits)
                zones.append(Zone(generators: SFZZoneMapping.generators(region, playback: playback, sampleID: sampleID,
                                                                        frameCount: frameCount, pan: pans[index]),
                                  modulators: modulators, playCondition: condition,
                                  shaping: SFZZoneMapping.shaping(shaping, amplitude: amplitude, region, side: sides[index],
                                                                  curves: instrument.curves)))
            }
            notes.recordPlayed(region)
        }

        let instrumentIndex = builder.addInstrument(Self.name(of: instrument.path), zones: zones)
        let (bank, program): (UInt16, UInt16) = switch slot {
        case .drumKit: (128, 0)
        case .preset(let b, let p): (b, p)
        case .automatic, .melodic: (0, 0)
        }
        let preset = builder.addPreset(Self.name(of: instrument.path), bank: bank, program: program,
                                       zones: [Zone(generators: [Generator(.instrument, Int16(instrumentIndex))])])
        let (defaults, ignoredDefaults) = Self.controllerDefaults(instrument.control)
        builder.presets[preset].controllerDefaults = defaults
        if !ignoredDefaults.isEmpty {
            warnings.append(SFZWarning(.notPlayed, at: nil,
                                       "set_ccN on \(ignoredDefaults.map { "CC \($0)" }.joined(separator: ", ")) ignored:"
                                       + " a channel message or an extended controller, not a value a channel holds"))
        }
        if slot == .melodic {
            // An empty kit, so the drum channel (which falls back to bank 0) stays silent.
            builder.addPreset("No drum kit", bank: 128, program: 0, zones: [])
        }
        soundFont = SoundFont(info: builder.info, presets: builder.presets, instruments: builder.instruments,
                              samples: pool.headers, sampleData: pool.sampleData())
        if releasingDecodedSamples, let provider = instrument.sampleProvider {
            for file in samplesByFile.keys { provider.releaseDecodedSample(at: file) }
        }
        self.warnings = warnings + notes.warnings
        regionCount = notes.playedRegions
    }

    /// The instrument's `set_ccN`/`set_hdccN` as the preset's controller defaults (7-bit, the
    /// fraction of a `set_hdccN` rounded), in controller order, and the controllers left out:
    /// extended ones (≥ 128) and those whose value is a message rather than a state (bank
    /// select, data entry, the channel-mode messages 120–127; ``ControllerDefault/isMessage(_:)``).
    static func controllerDefaults(_ control: SFZControl) -> (defaults: [ControllerDefault], ignored: [Int]) {
        var defaults: [ControllerDefault] = []
        var ignored: [Int] = []
        for (cc, value) in control.controllerDefaults.sorted(by: { $0.key < $1.key }) {
            guard (0..<128).contains(cc), !ControllerDefault.isMessage(UInt8(cc)) else { ignored.append(cc); continue }
            let seven = UInt8(min(max(value.rounded(), 0), 127))
            defaults.append(ControllerDefault(controller: UInt8(cc), value: seven))
        }
        return (defaults, ignored)
    }

    /// Points per cycle of a generated wave.
    static let cyclePoints = 2048

    /// One cycle of `generator`, recorded at the rate that makes it sound at `keycenter`'s
    /// frequency (so the voice's pitch arithmetic plays it like any sample), with the harmonics
    /// below 20 kHz at that key.
    private static func addCycle(of generator: SFZGenerator, keycenter: UInt8,
                                 to pool: inout SFZSamplePool) -> Int {
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
        return pool.add(words: words, low: low, name: generator.sampleName, sampleRate: rate, originalPitch: keycenter)
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
