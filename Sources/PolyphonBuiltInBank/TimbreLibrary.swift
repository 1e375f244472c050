import PolyphonMath
import PolyphonSoundFont

/// The named timbres of the built-in bank. Each is rendered once (one sample per root key) and
/// shared by every program and drum that names it.
enum TimbreName: Int, CaseIterable, Sendable {
    case piano, tinePiano, fmPiano, harpsichord, clavinet
    case celesta, glockenspiel, musicBox, vibraphone, marimba, xylophone, tubularBell, dulcimer
    case drawbarOrgan, percussiveOrgan, rockOrgan, pipeOrgan, reedOrgan, accordion, harmonica
    case nylonGuitar, steelGuitar, jazzGuitar, cleanGuitar, mutedGuitar, overdriveGuitar, distortionGuitar, guitarHarmonic
    case acousticBass, fingerBass, pickBass, fretlessBass, slapBass, sawBass, fmBass
    case bowedString, stringEnsemble, synthStrings, choirAah, choirOoh, synthVoice, orchestraHit
    case brass, mutedTrumpet, frenchHorn, brassSection, synthBrass
    case saxophone, oboe, bassoon, clarinet
    case flute, recorder, panFlute, bottle, whistle, ocarina
    case squareLead, sawLead, calliope, voiceLead, fifthsLead, bassLead
    case warmPad, polyPad, glassPad, metalPad, bellPad, crystal
    case sitar, banjo, shamisen, koto, kalimba, bagpipe, steelDrum
    case tinkleBell, agogo, woodblock, membrane, sineDrum, cymbalNoise
    case fretNoise, breath, seashore, birdTweet, telephone, helicopter, applause, gunshot

    private static let low = [28, 40, 52, 64]
    private static let mid = [33, 52, 71, 90]
    private static let high = [55, 72, 89, 106]
    private static let wide = [28, 43, 58, 73, 88]

    private static func spectral(_ roots: [Int], stereo: Bool = false, _ r: SpectralRecipe) -> Timbre {
        Timbre(source: .spectral(r), roots: roots, stereo: stereo)
    }
    private static func pluck(_ roots: [Int], _ r: PluckRecipe) -> Timbre { Timbre(source: .plucked(r), roots: roots) }
    private static func fm(_ roots: [Int], _ r: FMRecipe) -> Timbre { Timbre(source: .frequencyModulation(r), roots: roots) }

    /// The partials of a sawtooth on `ratio` × the fundamental.
    private static func sawtooth(_ count: Int, ratio: Double, level: Double) -> [(ratio: Double, amplitude: Double)] {
        (1...count).map { h -> (ratio: Double, amplitude: Double) in (ratio * Double(h), level / Double(h)) }
    }

    /// The recipe.
    var timbre: Timbre {
        typealias S = SpectrumShapes
        switch self {
        // Piano: stretched harmonics with a hammer notch, unison-width partials, and an attack
        // whose upper partials and hammer thump die within a few hundred milliseconds.
        case .piano:
            return Self.spectral(Self.wide, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 1.1) * (1.05 - abs(PortableMath.sin(PortableMath.pi * Double(h) / 7))) * S.air(hz, 5000) },
                stretch: 0.0003, bandwidthCents: 1.2, ceiling: 8000,
                attack: AttackRecipe(duration: 0.5, brightness: { h, hz in h < 3 ? 0 : S.rolloff(h, 0.6) * S.air(hz, 9000) },
                                     brightLevel: 0.9, brightDecay: 0.12, noiseLevel: 0.3, noiseDecay: 0.006,
                                     noiseCentre: 1800, noiseWidth: 3000)))
        case .tinePiano:
            return Self.fm(Self.mid, FMRecipe(carrier: 1, modulator: 1, indexStart: 1.6, indexEnd: 0.25, indexDecay: 0.4,
                                              tine: (14, 0.35, 0.04)))
        case .fmPiano:
            return Self.fm(Self.mid, FMRecipe(carrier: 1, modulator: 1, indexStart: 3.2, indexEnd: 0.7, indexDecay: 0.6,
                                              tine: (9, 0.25, 0.08)))
        case .harpsichord:
            return Self.pluck(Self.mid, PluckRecipe(brightness: 0.95, damping: 0.12, pickPosition: 0.07, duration: 0.55, decay: 4))
        case .clavinet:
            return Self.pluck(Self.mid, PluckRecipe(brightness: 0.9, damping: 0.3, pickPosition: 0.05, duration: 0.6, decay: 2, drive: 1.5))

        // Chromatic percussion: bar, tube and tine partial ratios (inharmonic), bright attacks.
        case .celesta:
            return Self.spectral(Self.high, SpectralRecipe(partials: [(1, 1), (3, 0.08), (4.1, 0.2), (9.2, 0.05)],
                attack: AttackRecipe(duration: 0.3, brightness: { h, _ in h > 1 ? 1 : 0.2 }, brightLevel: 0.6, brightDecay: 0.08)))
        case .glockenspiel:
            return Self.spectral(Self.high, SpectralRecipe(partials: [(1, 1), (2.756, 0.5), (5.404, 0.25), (8.933, 0.1)], ceiling: 16_000,
                attack: AttackRecipe(duration: 0.3, brightness: { h, _ in h > 1 ? 1 : 0 }, brightLevel: 0.8, brightDecay: 0.1,
                                     noiseLevel: 0.2, noiseDecay: 0.004, noiseCentre: 6000, noiseWidth: 6000)))
        case .musicBox:
            return Self.spectral(Self.high, SpectralRecipe(partials: [(1, 1), (6.27, 0.2), (17.55, 0.06)], ceiling: 16_000,
                attack: AttackRecipe(duration: 0.2, brightness: { h, _ in h > 1 ? 1 : 0 }, brightLevel: 0.7, brightDecay: 0.05)))
        case .vibraphone:
            return Self.spectral(Self.mid, SpectralRecipe(partials: [(1, 1), (4, 0.25), (10, 0.06)],
                attack: AttackRecipe(duration: 0.3, brightness: { h, _ in h > 1 ? 1 : 0 }, brightLevel: 0.6, brightDecay: 0.1,
                                     noiseLevel: 0.1, noiseDecay: 0.005, noiseCentre: 2000, noiseWidth: 3000)))
        case .marimba:
            return Self.spectral(Self.mid, SpectralRecipe(partials: [(1, 1), (3.99, 0.2), (9.9, 0.05)],
                attack: AttackRecipe(duration: 0.2, brightness: { h, _ in h > 1 ? 1 : 0 }, brightLevel: 0.7, brightDecay: 0.03,
                                     noiseLevel: 0.25, noiseDecay: 0.004, noiseCentre: 1000, noiseWidth: 1500)))
        case .xylophone:
            return Self.spectral(Self.high, SpectralRecipe(partials: [(1, 1), (3, 0.4), (6.1, 0.15)], ceiling: 16_000,
                attack: AttackRecipe(duration: 0.2, brightness: { h, _ in h > 1 ? 1 : 0 }, brightLevel: 0.8, brightDecay: 0.04,
                                     noiseLevel: 0.3, noiseDecay: 0.003, noiseCentre: 4000, noiseWidth: 4000)))
        case .tubularBell:
            return Self.spectral(Self.mid, SpectralRecipe(partials: [(1, 0.6), (2, 0.5), (2.76, 0.8), (4.07, 0.5), (5.4, 0.4), (8.93, 0.2)],
                bandwidthCents: 0.5, ceiling: 14_000,
                attack: AttackRecipe(duration: 0.3, brightness: { h, _ in h > 3 ? 1 : 0.2 }, brightLevel: 0.6, brightDecay: 0.1,
                                     noiseLevel: 0.15, noiseDecay: 0.004, noiseCentre: 3000, noiseWidth: 3000)))
        case .dulcimer:
            return Self.pluck(Self.mid, PluckRecipe(brightness: 0.85, damping: 0.2, pickPosition: 0.12, duration: 0.55, decay: 6))

        // Organs: exactly harmonic drawbar partials (0.5 = the 16' stop), no noise, no drift.
        case .drawbarOrgan:
            return Self.spectral(Self.mid, SpectralRecipe(
                partials: [(0.5, 0.55), (1, 1), (1.5, 0.5), (2, 0.6), (3, 0.35), (4, 0.3), (6, 0.15), (8, 0.15)], ceiling: 14_000))
        case .percussiveOrgan:
            return Self.spectral(Self.mid, SpectralRecipe(
                partials: [(0.5, 0.3), (1, 1), (2, 0.45), (3, 0.5), (4, 0.15)], ceiling: 14_000,
                attack: AttackRecipe(duration: 0.4, brightness: { h, _ in h == 4 ? 2.5 : 0 }, brightLevel: 0.8, brightDecay: 0.15,
                                     noiseLevel: 0.2, noiseDecay: 0.002, noiseCentre: 4000, noiseWidth: 6000)))
        case .rockOrgan:
            return Self.spectral(Self.mid, SpectralRecipe(
                partials: [(0.5, 0.7), (1, 1), (1.5, 0.7), (2, 0.7), (3, 0.5), (4, 0.4), (5, 0.3), (6, 0.3), (8, 0.3)],
                drive: 1.6, ceiling: 12_000))
        case .pipeOrgan:
            return Self.spectral(Self.wide, stereo: true, SpectralRecipe(
                harmonics: { h, hz in (h == 1 || h == 2 || h == 4 || h == 8 ? 1.0 : 0.35) * S.rolloff(h, 0.55) * S.air(hz, 7000) },
                bandwidthCents: 2, noise: [(3000, 4000, 0.01)], ceiling: 13_000, length: 16384,
                attack: AttackRecipe(duration: 0.2, noiseLevel: 0.25, noiseDecay: 0.03, noiseCentre: 2500, noiseWidth: 3000)))
        case .reedOrgan:
            return Self.spectral(Self.mid, SpectralRecipe(harmonics: { h, hz in S.odd(h, 0.7, even: 0.6) * S.air(hz, 4000) },
                                                          bandwidthCents: 1))
        case .accordion:
            return Self.spectral(Self.mid, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 0.5) * S.formants(hz, [(1500, 700, 1)], floor: 0.3) * S.air(hz, 6000) },
                bandwidthCents: 3))
        case .harmonica:
            return Self.spectral(Self.high, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 0.6) * S.formants(hz, [(1800, 900, 1)], floor: 0.2) },
                bandwidthCents: 2, noise: [(2500, 3000, 0.08)]))

        // Guitars: Karplus-Strong strings from dull thumb to bright pick; the electric ones
        // drive a periodic waveform into a soft clipper.
        case .nylonGuitar:
            return Self.pluck(Self.mid, PluckRecipe(brightness: 0.45, damping: 0.55, pickPosition: 0.18, duration: 0.6, decay: 4))
        case .steelGuitar:
            return Self.pluck(Self.mid, PluckRecipe(brightness: 0.8, damping: 0.3, pickPosition: 0.13, duration: 0.6, decay: 6))
        case .jazzGuitar:
            return Self.pluck(Self.mid, PluckRecipe(brightness: 0.4, damping: 0.7, pickPosition: 0.25, duration: 0.55, decay: 3))
        case .cleanGuitar:
            return Self.pluck(Self.mid, PluckRecipe(brightness: 0.7, damping: 0.35, pickPosition: 0.1, duration: 0.6, decay: 5))
        case .mutedGuitar:
            return Self.pluck(Self.mid, PluckRecipe(brightness: 0.6, damping: 0.8, pickPosition: 0.15, duration: 0.5, decay: 2))
        case .overdriveGuitar:
            return Self.spectral(Self.mid, SpectralRecipe(harmonics: { h, hz in S.rolloff(h, 1.1) * S.air(hz, 3000) },
                                                          bandwidthCents: 2, drive: 3, ceiling: 7000))
        case .distortionGuitar:
            return Self.spectral(Self.mid, SpectralRecipe(harmonics: { h, hz in S.rolloff(h, 1) * S.air(hz, 2500) },
                                                          bandwidthCents: 3, drive: 8, ceiling: 6000))
        case .guitarHarmonic:
            return Self.spectral(Self.high, SpectralRecipe(partials: [(1, 1), (2, 0.12), (3, 0.05)],
                attack: AttackRecipe(duration: 0.2, noiseLevel: 0.1, noiseDecay: 0.004, noiseCentre: 3000, noiseWidth: 3000)))

        // Basses: low roots; plucked, fretless (smooth, dark), synth (saw, FM).
        case .acousticBass:
            return Self.pluck(Self.low, PluckRecipe(brightness: 0.3, damping: 0.8, pickPosition: 0.2, duration: 0.6, decay: 3))
        case .fingerBass:
            return Self.pluck(Self.low, PluckRecipe(brightness: 0.4, damping: 0.7, pickPosition: 0.25, duration: 0.6, decay: 4))
        case .pickBass:
            return Self.pluck(Self.low, PluckRecipe(brightness: 0.7, damping: 0.6, pickPosition: 0.1, duration: 0.6, decay: 4))
        case .fretlessBass:
            return Self.spectral(Self.low, SpectralRecipe(harmonics: { h, _ in S.rolloff(h, 1.6) }, ceiling: 6000,
                attack: AttackRecipe(duration: 0.2, brightness: { h, _ in h > 2 ? S.rolloff(h, 1) : 0 }, brightLevel: 0.4, brightDecay: 0.08)))
        case .slapBass:
            return Self.pluck(Self.low, PluckRecipe(brightness: 0.8, damping: 0.5, pickPosition: 0.05, duration: 0.55, decay: 3, drive: 1.2))
        case .sawBass:
            return Self.spectral(Self.low, SpectralRecipe(harmonics: { h, _ in S.rolloff(h, 1) }, ceiling: 9000))
        case .fmBass:
            return Self.fm(Self.low, FMRecipe(carrier: 1, modulator: 1, indexStart: 4, indexEnd: 1.2, indexDecay: 0.15))

        // Strings and ensembles: bowed spectra with body resonances; ensembles are wide
        // PADsynth spectra (many players) in decorrelated left/right samples.
        case .bowedString:
            return Self.spectral(Self.wide, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 0.9) * S.formants(hz, [(300, 150, 0.6), (3000, 1200, 0.7)], floor: 0.4) * S.air(hz, 6000) },
                bandwidthCents: 4, noise: [(3000, 4000, 0.04)], ceiling: 12_000,
                attack: AttackRecipe(duration: 0.2, noiseLevel: 0.15, noiseDecay: 0.05, noiseCentre: 2500, noiseWidth: 4000)))
        case .stringEnsemble:
            return Self.spectral(Self.wide, stereo: true, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 0.9) * S.formants(hz, [(300, 150, 0.6), (3000, 1200, 0.7)], floor: 0.4) * S.air(hz, 6000) },
                bandwidthCents: 18, ceiling: 11_000, length: 16384))
        case .synthStrings:
            return Self.spectral(Self.mid, stereo: true, SpectralRecipe(harmonics: { h, _ in S.rolloff(h, 1) },
                                                                        bandwidthCents: 25, ceiling: 9000, length: 16384))
        case .choirAah:
            return Self.spectral(Self.mid, stereo: true, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 0.4) * S.formants(hz, S.vowelA, floor: 0.01) },
                bandwidthCents: 30, noise: [(2500, 2000, 0.03)], ceiling: 9000, length: 16384))
        case .choirOoh:
            return Self.spectral(Self.mid, stereo: true, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 0.4) * S.formants(hz, S.vowelU, floor: 0.01) },
                bandwidthCents: 25, noise: [(9000, 8000, 0.03)], ceiling: 8000, length: 16384))
        case .synthVoice:
            return Self.spectral(Self.mid, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 0.6) * S.formants(hz, S.vowelA, floor: 0.05) }, bandwidthCents: 8, ceiling: 9000))
        case .orchestraHit:
            return Self.spectral(Self.mid, SpectralRecipe(
                partials: [(1, 1), (1.5, 0.8), (2, 0.9), (2.52, 0.6), (3, 0.7), (4, 0.5), (5, 0.4), (6, 0.35), (8, 0.25), (10, 0.2)],
                bandwidthCents: 25, ceiling: 12_000,
                attack: AttackRecipe(duration: 0.2, noiseLevel: 0.5, noiseDecay: 0.04, noiseCentre: 2000, noiseWidth: 4000)))

        // Brass: strong low harmonics and a bright formant; filters open with the attack.
        case .brass:
            return Self.spectral(Self.mid, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 0.5) * S.formants(hz, [(1200, 700, 1)], floor: 0.35) * S.air(hz, 5000) },
                bandwidthCents: 1, ceiling: 12_000,
                attack: AttackRecipe(duration: 0.2, noiseLevel: 0.08, noiseDecay: 0.02, noiseCentre: 1500, noiseWidth: 2000)))
        case .mutedTrumpet:
            return Self.spectral(Self.mid, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 0.3) * S.formants(hz, [(1800, 400, 1)], floor: 0.05) }, bandwidthCents: 1))
        case .frenchHorn:
            return Self.spectral(Self.mid, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 1.6) * S.formants(hz, [(400, 300, 1)], floor: 0.5) }, bandwidthCents: 1.5))
        case .brassSection:
            return Self.spectral(Self.mid, stereo: true, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 0.5) * S.formants(hz, [(1200, 700, 1)], floor: 0.35) * S.air(hz, 5000) },
                bandwidthCents: 12, ceiling: 11_000, length: 16384))
        case .synthBrass:
            return Self.spectral(Self.mid, stereo: true, SpectralRecipe(harmonics: { h, _ in S.rolloff(h, 1) },
                                                                        bandwidthCents: 8, ceiling: 10_000))

        // Reeds: formant-shaped spectra with breath noise; the clarinet is mostly odd harmonics.
        case .saxophone:
            return Self.spectral(Self.mid, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 0.8) * S.formants(hz, [(600, 300, 1), (1500, 600, 0.6)], floor: 0.2) },
                bandwidthCents: 1.5, noise: [(2500, 3000, 0.06)], ceiling: 10_000))
        case .oboe:
            return Self.spectral(Self.mid, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 0.4) * S.formants(hz, [(1200, 350, 1), (2900, 500, 0.4)], floor: 0.1) },
                bandwidthCents: 1, noise: [(3000, 3000, 0.03)]))
        case .bassoon:
            return Self.spectral(Self.low, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 0.6) * S.formants(hz, [(480, 200, 1), (1200, 400, 0.3)], floor: 0.1) },
                bandwidthCents: 1, noise: [(2000, 2000, 0.02)]))
        case .clarinet:
            return Self.spectral(Self.mid, SpectralRecipe(harmonics: { h, hz in S.odd(h, 0.8, even: 0.1) * S.air(hz, 4000) },
                                                          bandwidthCents: 1, noise: [(2500, 3000, 0.02)]))

        // Pipes: nearly sinusoidal with breath noise and a chiff at the start.
        case .flute:
            return Self.spectral(Self.high, SpectralRecipe(harmonics: { h, _ in h == 1 ? 1 : 0.3 * S.rolloff(h, 1.5) },
                bandwidthCents: 1, noise: [(2500, 3000, 0.12)],
                attack: AttackRecipe(duration: 0.2, noiseLevel: 0.4, noiseDecay: 0.03, noiseCentre: 2000, noiseWidth: 3000)))
        case .recorder:
            return Self.spectral(Self.high, SpectralRecipe(harmonics: { h, _ in h == 1 ? 1 : 0.25 * S.rolloff(h, 1) },
                noise: [(3000, 3000, 0.04)],
                attack: AttackRecipe(duration: 0.2, noiseLevel: 0.3, noiseDecay: 0.02, noiseCentre: 3000, noiseWidth: 3000)))
        case .panFlute:
            return Self.spectral(Self.high, SpectralRecipe(harmonics: { h, _ in h == 1 ? 1 : 0.12 * S.rolloff(h, 2) },
                bandwidthCents: 2, noise: [(2000, 3000, 0.3)],
                attack: AttackRecipe(duration: 0.2, noiseLevel: 0.8, noiseDecay: 0.04, noiseCentre: 1500, noiseWidth: 2500)))
        case .bottle:
            return Self.spectral(Self.mid, SpectralRecipe(harmonics: { h, _ in h == 1 ? 1 : 0.03 },
                bandwidthCents: 3, noise: [(1000, 1500, 0.35)]))
        case .whistle:
            return Self.spectral(Self.high, SpectralRecipe(harmonics: { h, _ in h == 1 ? 1 : 0.01 }, noise: [(3000, 2000, 0.02)]))
        case .ocarina:
            return Self.spectral(Self.high, SpectralRecipe(harmonics: { h, _ in h == 1 ? 1 : (h == 3 ? 0.08 : 0.02) },
                                                           noise: [(2000, 2000, 0.03)]))

        // Synth leads: the classic analogue waveforms.
        case .squareLead:
            return Self.spectral(Self.mid, SpectralRecipe(harmonics: { h, _ in S.odd(h, 1) }))
        case .sawLead:
            return Self.spectral(Self.mid, SpectralRecipe(harmonics: { h, _ in S.rolloff(h, 1) }))
        case .calliope:
            return Self.spectral(Self.high, SpectralRecipe(harmonics: { h, _ in h == 1 ? 1 : 0.2 * S.odd(h, 1.5, even: 0.5) },
                bandwidthCents: 3, noise: [(2500, 3000, 0.12)]))
        case .voiceLead:
            return Self.spectral(Self.mid, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 0.7) * S.formants(hz, S.vowelA, floor: 0.15) }, bandwidthCents: 4))
        case .fifthsLead:
            return Self.spectral(Self.mid, SpectralRecipe(
                partials: Self.sawtooth(20, ratio: 1, level: 1) + Self.sawtooth(20, ratio: 1.5, level: 0.7)))
        case .bassLead:
            return Self.spectral(Self.mid, SpectralRecipe(
                partials: [(0.5, 0.8)] + Self.sawtooth(24, ratio: 1, level: 1)))

        // Pads and effects: very wide spectra, bells, metal.
        case .warmPad:
            return Self.spectral(Self.mid, stereo: true, SpectralRecipe(harmonics: { h, _ in S.rolloff(h, 1.4) },
                                                                        bandwidthCents: 30, ceiling: 7000, length: 16384))
        case .polyPad:
            return Self.spectral(Self.mid, stereo: true, SpectralRecipe(harmonics: { h, _ in S.rolloff(h, 1) },
                                                                        bandwidthCents: 12, ceiling: 9000, length: 16384))
        case .glassPad:
            return Self.spectral(Self.mid, stereo: true, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 1.2) * S.formants(hz, [(2000, 800, 1)], floor: 0.3) },
                bandwidthCents: 40, noise: [(3000, 2000, 0.03)], ceiling: 10_000, length: 16384))
        case .metalPad:
            return Self.spectral(Self.mid, stereo: true, SpectralRecipe(
                partials: [(1, 1), (2.4, 0.6), (3.9, 0.5), (5.6, 0.4), (7.2, 0.3), (9.1, 0.2)],
                bandwidthCents: 20, ceiling: 12_000, length: 16384))
        case .bellPad:
            return Self.spectral(Self.mid, stereo: true, SpectralRecipe(
                partials: [(1, 1), (2, 0.6), (3, 0.25), (4.2, 0.4), (5.4, 0.2), (6.8, 0.12), (8.2, 0.08), (10.1, 0.06), (12.6, 0.04), (15.3, 0.03)],
                bandwidthCents: 10, noise: [(9000, 9000, 0.12)], ceiling: 12_000, length: 16384,
                attack: AttackRecipe(duration: 0.4, brightness: { h, _ in h > 3 ? 1 : 0 }, brightLevel: 0.8, brightDecay: 0.15)))
        case .crystal:
            return Self.spectral(Self.high, stereo: true, SpectralRecipe(
                partials: [(1, 1), (2.756, 0.5), (5.404, 0.4), (8.933, 0.3)], bandwidthCents: 5, ceiling: 15_000, length: 16384,
                attack: AttackRecipe(duration: 0.4, brightness: { h, _ in h > 1 ? 1 : 0 }, brightLevel: 0.9, brightDecay: 0.1)))

        // Ethnic: plucked strings with buzz, kalimba tines, bagpipe drone, steel drum.
        case .sitar:
            return Self.pluck(Self.mid, PluckRecipe(brightness: 1, damping: 0.1, pickPosition: 0.03, duration: 0.6, decay: 5, drive: 2.5))
        case .banjo:
            return Self.pluck(Self.mid, PluckRecipe(brightness: 0.95, damping: 0.45, pickPosition: 0.06, duration: 0.6, decay: 2.5))
        case .shamisen:
            return Self.pluck(Self.mid, PluckRecipe(brightness: 1, damping: 0.5, pickPosition: 0.04, duration: 0.5, decay: 1.2, drive: 0.8))
        case .koto:
            return Self.pluck(Self.mid, PluckRecipe(brightness: 0.75, damping: 0.3, pickPosition: 0.12, duration: 0.55, decay: 4))
        case .kalimba:
            return Self.spectral(Self.high, SpectralRecipe(partials: [(1, 1), (5.9, 0.25), (13.1, 0.06)], ceiling: 15_000,
                attack: AttackRecipe(duration: 0.2, brightness: { h, _ in h > 1 ? 1 : 0 }, brightLevel: 0.6, brightDecay: 0.03,
                                     noiseLevel: 0.2, noiseDecay: 0.003, noiseCentre: 2000, noiseWidth: 3000)))
        case .bagpipe:
            return Self.spectral(Self.mid, SpectralRecipe(
                harmonics: { h, hz in S.rolloff(h, 0.3) * S.formants(hz, [(1200, 600, 1)], floor: 0.2) }, bandwidthCents: 1))
        case .steelDrum:
            return Self.spectral(Self.mid, SpectralRecipe(partials: [(1, 1), (2, 0.5), (3, 0.2), (4, 0.3), (5.02, 0.1)],
                attack: AttackRecipe(duration: 0.3, brightness: { h, _ in h > 2 ? 1 : 0 }, brightLevel: 0.6, brightDecay: 0.06,
                                     noiseLevel: 0.15, noiseDecay: 0.003, noiseCentre: 2000, noiseWidth: 2000)))

        // Percussive programs.
        case .tinkleBell:
            return Self.spectral(Self.high, SpectralRecipe(partials: [(1, 1), (2.4, 0.4), (4.6, 0.3), (7.1, 0.15)], ceiling: 16_000,
                attack: AttackRecipe(duration: 0.2, brightness: { h, _ in h > 1 ? 1 : 0 }, brightLevel: 0.7, brightDecay: 0.05)))
        case .agogo:
            return Self.spectral(Self.mid, SpectralRecipe(partials: [(1, 1), (2.3, 0.6), (3.6, 0.3), (5.1, 0.2)],
                attack: AttackRecipe(duration: 0.2, noiseLevel: 0.2, noiseDecay: 0.003, noiseCentre: 3000, noiseWidth: 3000)))
        case .woodblock:
            return Self.spectral(Self.mid, SpectralRecipe(partials: [(1, 1), (2.7, 0.3), (4.9, 0.1)],
                attack: AttackRecipe(duration: 0.2, noiseLevel: 0.6, noiseDecay: 0.003, noiseCentre: 2000, noiseWidth: 2500)))
        case .membrane:
            return Self.spectral(Self.low, SpectralRecipe(partials: [(1, 1), (1.59, 0.6), (2.14, 0.4), (2.3, 0.3), (2.65, 0.25), (2.92, 0.2)],
                bandwidthCents: 2,
                attack: AttackRecipe(duration: 0.3, brightness: { h, _ in h > 1 ? 1 : 0 }, brightLevel: 0.5, brightDecay: 0.05,
                                     noiseLevel: 0.6, noiseDecay: 0.015, noiseCentre: 1200, noiseWidth: 2000)))
        case .sineDrum:
            return Self.spectral(Self.low, SpectralRecipe(partials: [(1, 1), (2, 0.05)],
                attack: AttackRecipe(duration: 0.2, noiseLevel: 0.3, noiseDecay: 0.005, noiseCentre: 2000, noiseWidth: 3000)))
        case .cymbalNoise:
            return Self.spectral([60], SpectralRecipe(partials: [], noise: [(7000, 6000, 1), (11_000, 5000, 0.6), (3500, 1500, 0.3)],
                                                      length: 16384))

        // Sound effects.
        case .fretNoise: return Timbre(source: .custom(EffectSynthesis.fretNoise), roots: [60])
        case .breath:
            return Self.spectral([60], SpectralRecipe(partials: [], noise: [(1500, 2000, 1), (500, 600, 0.5)], length: 16384))
        case .seashore:
            return Self.spectral([60], SpectralRecipe(partials: [], noise: [(500, 900, 1), (2500, 3000, 0.6)], length: 65536,
                                                      tremolo: (1, 0.85)))
        case .birdTweet: return Timbre(source: .custom(EffectSynthesis.birdTweet), roots: [84])
        case .telephone: return Timbre(source: .custom(EffectSynthesis.telephoneRing), roots: [84])
        case .helicopter:
            return Self.spectral([60], SpectralRecipe(partials: [], noise: [(180, 250, 1), (900, 800, 0.3)], length: 16384,
                                                      tremolo: (6, 0.9)))
        case .applause: return Timbre(source: .custom(EffectSynthesis.applause), roots: [60])
        case .gunshot: return Timbre(source: .custom(EffectSynthesis.gunshot), roots: [60])
        }
    }
}
