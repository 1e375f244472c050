import PolyphonSoundFont

/// The 128 General MIDI melodic programs of the built-in bank, in program order, with the GM
/// names. Families share timbres and differ in envelope, filter, layering and level.
enum GeneralMIDIPrograms {
    typealias P = ProgramPatch
    typealias E = ProgramPatch.Envelope
    typealias S = ProgramPatch.Sweep

    static let all: [ProgramPatch] = piano + chromatic + organ + guitar + bass + strings + ensemble + brass
        + reed + pipe + synthLead + synthPad + synthEffects + ethnic + percussive + soundEffects

    /// Level trims in dB per program, set so that each program plays General MIDI songs at a
    /// real GM bank's level (FluidR3_GM, the bank most songs are heard with): each program's
    /// phrase of the level set in `GeneralMIDILevelTests` — four keys across the register songs
    /// give its instrument, at velocities 50, 85 and 115, and a long note — has the energy of
    /// FluidR3_GM's, both rendered by Polyphon with effects off. That test prints what is left.
    static let loudnessTrim: [Double] = [
        2.6, 2.3, 7.6, 3.9, 8.8, 2.7, 2.4, 3.2, 6.3, 4.2, 5.8, 0.8, 9.1, -1, 4, -5,
        4.2, 5.3, 5.4, 5.8, 4.4, 2.9, 2.8, 3.9, 4.4, 2.5, 3.7, 4.9, -0.4, 6.4, 8.2, 10.1,
        4.5, 4.2, 4.3, 8.7, 6.3, 2.6, 8, 12.9, 4.5, 4.6, 2.3, 4.5, 1.1, 12, -1.2, 1.3,
        2.6, 8.4, 7.1, 5.7, 5.5, 5.5, 6.4, 10.8, 3.9, 8.1, 9.6, 6.3, 6.5, 5.4, 8.8, 6.9,
        5.7, 6.8, 6.1, 4.3, 5.2, 2.4, 6.9, 7.2, 6.5, 7.7, 8.6, 6.3, 8.7, 9.6, 10.3, 7.1,
        6.8, 2.3, 3.6, 5.5, 5.9, 8.3, -2.3, 5.3, 2, 5.1, 5.7, 12.6, 15, 11.1, 9.5, 13.6,
        6.8, 12.5, 7.1, 4.8, 5, 9, 5.2, 11.2, 0.6, -1.7, -6.2, -1.6, 1.7, 4, 4.2, 4.1,
        3.2, -0.9, 7.9, 5.9, 10.1, 9.3, 12.6, 4.8, -2.4, 3.6, 5, 2.5, 3.3, -6.1, 5.4, 3,
    ]

    static let piano: [P] = [
        P("Acoustic Grand Piano", .piano, .decaying(14, release: 0.7), keyToDecay: 40, filter: 3000,
          sweep: S(decay: 3, sustain: 0, filterCents: 1800), velocityToFilter: 3600, reverb: 200),
        P("Bright Acoustic Piano", .piano, .decaying(12, release: 0.35), keyToDecay: 40, filter: 4500,
          sweep: S(decay: 2.5, sustain: 0, filterCents: 1800), velocityToFilter: 1800, reverb: 200),
        P("Electric Grand Piano", .piano, .decaying(8, release: 0.3), keyToDecay: 40, filter: 3000, resonance: 4,
          sweep: S(decay: 1.5, sustain: 0.2, filterCents: 1800), detune: 6, width: 0.3, velocityToFilter: 1200, reverb: 150, chorus: 300),
        P("Honky-tonk Piano", .piano, .decaying(5, release: 1.3), keyToDecay: 40, filter: 3500,
          sweep: S(decay: 2, sustain: 0, filterCents: 900), detune: 14, width: 0.5, velocityToFilter: 1800, reverb: 150),
        P("Electric Piano 1", .tinePiano, .decaying(9, release: 0.2), keyToDecay: 30, reverb: 150, chorus: 200),
        P("Electric Piano 2", .fmPiano, .decaying(8, release: 1.1), keyToDecay: 30, detune: 7, width: 0.5, reverb: 150, chorus: 300),
        P("Harpsichord", .harpsichord, .decaying(7, release: 0.25), keyToDecay: 30, reverb: 150),
        P("Clavi", .clavinet, .decaying(4, release: 0.3), keyToDecay: 30, filter: 2500, resonance: 6,
          sweep: S(decay: 0.4, sustain: 0.1, filterCents: 2400), velocityToFilter: 1200),
    ]

    static let chromatic: [P] = [
        P("Celesta", .celesta, .decaying(5, release: 2.5), keyToDecay: 30, reverb: 250),
        P("Glockenspiel", .glockenspiel, .decaying(6, release: 0.8), keyToDecay: 20, reverb: 250),
        P("Music Box", .musicBox, .decaying(5, release: 0.8), keyToDecay: 20, reverb: 300),
        P("Vibraphone", .vibraphone, .decaying(10, release: 0.7), keyToDecay: 20, tremolo: (5.5, 2.5), reverb: 250),
        P("Marimba", .marimba, .decaying(2.5, release: 1.4), keyToDecay: 30, reverb: 200),
        P("Xylophone", .xylophone, .decaying(1.6, release: 0.25), keyToDecay: 20, reverb: 200),
        P("Tubular Bells", .tubularBell, .decaying(16, release: 1.5), keyToDecay: 20, reverb: 300),
        P("Dulcimer", .dulcimer, .decaying(9, release: 0.6), keyToDecay: 30, detune: 5, width: 0.4, reverb: 200),
    ]

    static let organ: [P] = [
        P("Drawbar Organ", .drawbarOrgan, .held(0.006, release: 0.06), reverb: 150, chorus: 200),
        P("Percussive Organ", .percussiveOrgan, .held(0.003, release: 0.3), filter: 6000, reverb: 150, chorus: 150),
        P("Rock Organ", .rockOrgan, .held(0.006, release: 0.24), filter: 6000, vibrato: (6.5, 12, 0), tremolo: (6.5, 1.5), reverb: 150),
        P("Church Organ", .pipeOrgan, .held(0.08, release: 0.9), width: 0.7, reverb: 400),
        P("Reed Organ", .reedOrgan, .held(0.06, release: 0.2), filter: 4000, reverb: 200),
        P("Accordion", .accordion, .held(0.05, release: 0.15), tremolo: (5.5, 1), detune: 9, width: 0.3, reverb: 150),
        P("Harmonica", .harmonica, .held(0.04, release: 0.12), vibrato: (5, 15, 0.3), reverb: 150),
        P("Tango Accordion", .accordion, .held(0.04, release: 0.12), filter: 5000, detune: 5, width: 0.4, reverb: 150),
    ]

    static let guitar: [P] = [
        P("Acoustic Guitar (nylon)", .nylonGuitar, .decaying(8, release: 0.4), keyToDecay: 30, reverb: 200),
        P("Acoustic Guitar (steel)", .steelGuitar, .decaying(9, release: 0.4), keyToDecay: 30, detune: 3, width: 0.3, reverb: 200),
        P("Electric Guitar (jazz)", .jazzGuitar, .decaying(7, release: 0.25), keyToDecay: 30, filter: 3000, reverb: 150),
        P("Electric Guitar (clean)", .cleanGuitar, .decaying(9, release: 0.6), keyToDecay: 30, reverb: 150, chorus: 400),
        P("Electric Guitar (muted)", .mutedGuitar, .decaying(2.2, release: 0.28), keyToDecay: 20, filter: 2500, reverb: 100),
        P("Overdriven Guitar", .overdriveGuitar, .swell(0.004, decay: 18, sustainDB: 30, release: 0.2), filter: 4500,
          sweep: S(decay: 0.6, sustain: 0.3, filterCents: 1200), vibrato: (5, 8, 0.6), reverb: 200),
        P("Distortion Guitar", .distortionGuitar, .swell(0.004, decay: 20, sustainDB: 30, release: 0.2), filter: 5000,
          sweep: S(decay: 0.5, sustain: 0.4, filterCents: 1200), detune: 4, width: 0.4, reverb: 200),
        P("Guitar Harmonics", .guitarHarmonic, .decaying(7, release: 0.5), keyToDecay: 20, transpose: 12, reverb: 250),
    ]

    static let bass: [P] = [
        P("Acoustic Bass", .acousticBass, .decaying(7, release: 0.2), keyToDecay: 20, filter: 2000),
        P("Electric Bass (finger)", .fingerBass, .decaying(9, release: 0.15), keyToDecay: 20, filter: 2500),
        P("Electric Bass (pick)", .pickBass, .decaying(4, release: 0.24), keyToDecay: 20, filter: 2500,
          sweep: S(decay: 0.3, sustain: 0.2, filterCents: 1200)),
        P("Fretless Bass", .fretlessBass, .swell(0.01, decay: 12, sustainDB: 40, release: 0.25), vibrato: (5, 6, 0.5)),
        P("Slap Bass 1", .slapBass, .swell(0.001, decay: 0.6, sustainDB: 8, release: 0.16), keyToDecay: 20, filter: 1200,
          sweep: S(decay: 0.2, sustain: 0, filterCents: 2400), velocityToFilter: 1200),
        P("Slap Bass 2", .slapBass, .decaying(4, release: 0.2), keyToDecay: 20, filter: 800, resonance: 4,
          sweep: S(decay: 0.25, sustain: 0, filterCents: 1800)),
        P("Synth Bass 1", .sawBass, .swell(0.002, decay: 6, sustainDB: 12, release: 0.65), filter: 300,
          sweep: S(decay: 0.35, sustain: 0.15, release: 0.1, filterCents: 4200), velocityToFilter: 1200),
        P("Synth Bass 2", .fmBass, .swell(0.002, decay: 5, sustainDB: 15, release: 0.04), velocityToFilter: 0),
    ]

    static let strings: [P] = [
        P("Violin", .bowedString, .swell(0.08, decay: 30, sustainDB: 3, release: 0.25), filter: 7000,
          vibrato: (5.5, 18, 0.25), reverb: 250),
        P("Viola", .bowedString, .swell(0.09, decay: 30, sustainDB: 3, release: 0.25), filter: 5000,
          vibrato: (5.2, 16, 0.25), reverb: 250),
        P("Cello", .bowedString, .swell(0.1, decay: 30, sustainDB: 3, release: 0.3), filter: 4000,
          vibrato: (5, 14, 0.3), reverb: 250),
        P("Contrabass", .bowedString, .swell(0.12, decay: 30, sustainDB: 3, release: 0.3), filter: 2500,
          vibrato: (4.5, 10, 0.3), reverb: 250),
        P("Tremolo Strings", .stringEnsemble, .held(0.05, release: 0.3), filter: 6000, tremolo: (8, 8), reverb: 300),
        P("Pizzicato Strings", .stringEnsemble, .decaying(1.5, release: 1.3), keyToDecay: 20, filter: 2500,
          sweep: S(decay: 0.25, sustain: 0, filterCents: 2400), reverb: 300),
        P("Orchestral Harp", .nylonGuitar, .decaying(10, release: 0.8), keyToDecay: 30, filter: 3500, detune: 3, width: 0.4, reverb: 350),
        P("Timpani", .membrane, .decaying(6, release: 0.8), keyToDecay: 20, filter: 2000, reverb: 300),
    ]

    static let ensemble: [P] = [
        P("String Ensemble 1", .stringEnsemble, .held(0.2, release: 2.1), filter: 7000, reverb: 350),
        P("String Ensemble 2", .stringEnsemble, .held(0.45, release: 0.6), filter: 4000, reverb: 350),
        P("SynthStrings 1", .synthStrings, .held(0.15, release: 0.4), filter: 3500, resonance: 3,
          sweep: S(attack: 0.3, decay: 1.5, sustain: 0.4, filterCents: 1200), reverb: 300, chorus: 300),
        P("SynthStrings 2", .synthStrings, .held(0.13, release: 3.3), filter: 2500, reverb: 300, chorus: 300),
        P("Choir Aahs", .choirAah, .held(0.25, release: 0.5), vibrato: (5, 8, 0.3), reverb: 400),
        P("Voice Oohs", .choirOoh, .held(0.08, release: 0.9), vibrato: (5, 8, 0.3), reverb: 400),
        P("Synth Voice", .synthVoice, .held(0.12, release: 0.4), vibrato: (5.5, 10, 0.2), detune: 6, width: 0.5, reverb: 350, chorus: 300),
        P("Orchestra Hit", .orchestraHit, .decaying(2.5, release: 0.3), filter: 6000,
          sweep: S(decay: 0.3, sustain: 0.3, filterCents: 1200), reverb: 350),
    ]

    static let brass: [P] = [
        P("Trumpet", .brass, .swell(0.03, decay: 20, sustainDB: 4, release: 0.12), filter: 2500,
          sweep: S(attack: 0.04, decay: 0.4, sustain: 0.6, release: 0.1, filterCents: 2000), vibrato: (5.5, 10, 0.4),
          velocityToFilter: 1800, reverb: 200),
        P("Trombone", .brass, .swell(0.05, decay: 20, sustainDB: 4, release: 0.15), filter: 1600,
          sweep: S(attack: 0.05, decay: 0.5, sustain: 0.6, release: 0.1, filterCents: 2000), vibrato: (5, 8, 0.5),
          velocityToFilter: 1800, reverb: 200),
        P("Tuba", .brass, .swell(0.06, decay: 20, sustainDB: 4, release: 0.15), filter: 900,
          sweep: S(attack: 0.06, decay: 0.5, sustain: 0.5, release: 0.1, filterCents: 1800), velocityToFilter: 1200, reverb: 200),
        P("Muted Trumpet", .mutedTrumpet, .swell(0.02, decay: 20, sustainDB: 4, release: 0.1), vibrato: (5.5, 8, 0.4), reverb: 200),
        P("French Horn", .frenchHorn, .held(0.08, release: 0.3), filter: 2000,
          sweep: S(attack: 0.1, decay: 0.6, sustain: 0.6, filterCents: 1200), vibrato: (5, 6, 0.5), reverb: 300),
        P("Brass Section", .brassSection, .swell(0.14, decay: 20, sustainDB: 3, release: 0.5), filter: 2500,
          sweep: S(attack: 0.05, decay: 0.5, sustain: 0.6, release: 0.1, filterCents: 2000), velocityToFilter: 1800, reverb: 250),
        P("Synth Brass 1", .synthBrass, .swell(0.01, decay: 15, sustainDB: 6, release: 0.15), filter: 1000, resonance: 6,
          sweep: S(attack: 0.02, decay: 0.5, sustain: 0.35, release: 0.15, filterCents: 3600), velocityToFilter: 1200, chorus: 200),
        P("Synth Brass 2", .synthBrass, .swell(0.06, decay: 15, sustainDB: 6, release: 0.2), filter: 800, resonance: 3,
          sweep: S(attack: 0.2, decay: 0.8, sustain: 0.5, release: 0.2, filterCents: 3000), detune: 8, chorus: 300),
    ]

    static let reed: [P] = [
        P("Soprano Sax", .saxophone, .held(0.03, release: 0.1), filter: 6000, vibrato: (5.5, 14, 0.3), reverb: 200),
        P("Alto Sax", .saxophone, .held(0.03, release: 0.1), filter: 4500, vibrato: (5.2, 14, 0.3), reverb: 200),
        P("Tenor Sax", .saxophone, .held(0.04, release: 0.28), filter: 5000, vibrato: (5, 12, 0.35), reverb: 200),
        P("Baritone Sax", .saxophone, .held(0.04, release: 0.12), filter: 2500, vibrato: (4.8, 10, 0.35), reverb: 200),
        P("Oboe", .oboe, .held(0.04, release: 0.1), vibrato: (5.5, 12, 0.3), reverb: 250),
        P("English Horn", .oboe, .held(0.05, release: 0.12), filter: 3000, vibrato: (5, 10, 0.3), reverb: 250),
        P("Bassoon", .bassoon, .held(0.04, release: 0.1), vibrato: (5, 8, 0.35), reverb: 250),
        P("Clarinet", .clarinet, .held(0.03, release: 0.1), reverb: 250),
    ]

    static let pipe: [P] = [
        P("Piccolo", .flute, .held(0.03, release: 0.1), vibrato: (5.5, 10, 0.25), reverb: 250),
        P("Flute", .flute, .held(0.04, release: 0.15), vibrato: (5, 12, 0.3), reverb: 250),
        P("Recorder", .recorder, .held(0.03, release: 0.1), reverb: 250),
        P("Pan Flute", .panFlute, .held(0.05, release: 0.2), vibrato: (5, 8, 0.4), reverb: 300),
        P("Blown Bottle", .bottle, .held(0.08, release: 0.2), reverb: 300),
        P("Shakuhachi", .panFlute, .held(0.08, release: 0.25), filter: 3000, vibrato: (4.5, 20, 0.2), reverb: 300),
        P("Whistle", .whistle, .held(0.03, release: 0.1), vibrato: (6, 15, 0.2), reverb: 250),
        P("Ocarina", .ocarina, .held(0.03, release: 0.12), vibrato: (5, 8, 0.3), reverb: 250),
    ]

    static let synthLead: [P] = [
        P("Lead 1 (square)", .squareLead, .held(0.003, release: 0.12), filter: 6000),
        P("Lead 2 (sawtooth)", .sawLead, .held(0.003, release: 0.28), filter: 5000),
        P("Lead 3 (calliope)", .calliope, .held(0.02, release: 0.15), vibrato: (6, 10, 0.2), reverb: 200),
        P("Lead 4 (chiff)", .squareLead, .decaying(20, attack: 0.002, release: 0.2), filter: 1800,
          sweep: S(decay: 0.08, sustain: 0, filterCents: 3600)),
        P("Lead 5 (charang)", .distortionGuitar, .swell(0.003, decay: 20, sustainDB: 20, release: 0.1), filter: 4000),
        P("Lead 6 (voice)", .voiceLead, .held(0.2, release: 1.7), vibrato: (5.5, 12, 0.2), reverb: 250, chorus: 200),
        P("Lead 7 (fifths)", .fifthsLead, .held(0.005, release: 0.1), filter: 4000),
        P("Lead 8 (bass + lead)", .bassLead, .held(0.003, release: 0.04), filter: 3000, resonance: 4,
          sweep: S(decay: 0.4, sustain: 0.4, filterCents: 1800)),
    ]

    static let synthPad: [P] = [
        P("Pad 1 (new age)", .bellPad, .held(0.012, release: 3.3), filter: 6000, reverb: 400, chorus: 300),
        P("Pad 2 (warm)", .warmPad, .held(0.5, release: 1.0), filter: 3000, reverb: 400, chorus: 300),
        P("Pad 3 (polysynth)", .polyPad, .swell(0.03, decay: 10, sustainDB: 8, release: 2.4), filter: 1500, resonance: 3,
          sweep: S(decay: 0.8, sustain: 0.3, filterCents: 900), reverb: 300, chorus: 300),
        P("Pad 4 (choir)", .choirAah, .held(0.6, release: 1.2), reverb: 450, chorus: 200),
        P("Pad 5 (bowed)", .glassPad, .held(0.7, release: 1.0), reverb: 450),
        P("Pad 6 (metallic)", .metalPad, .held(0.4, release: 1.2), filter: 5000, reverb: 400, chorus: 300),
        P("Pad 7 (halo)", .choirOoh, .held(0.5, release: 1.4), filter: 5000, vibrato: (4, 6, 0.5), reverb: 500, chorus: 400),
        P("Pad 8 (sweep)", .polyPad, .held(0.4, release: 1.0), filter: 700, resonance: 9,
          sweep: S(attack: 2.5, decay: 3, sustain: 0.5, release: 1, filterCents: 4200), reverb: 400, chorus: 300),
    ]

    static let synthEffects: [P] = [
        P("FX 1 (rain)", .crystal, .decaying(6, attack: 0.002, release: 1.5), keyToDecay: 20, filter: 6000, reverb: 500, chorus: 300),
        P("FX 2 (soundtrack)", .warmPad, .held(0.8, release: 1.5), filter: 1800, resonance: 3,
          sweep: S(attack: 1.5, decay: 2, sustain: 0.6, filterCents: 1800), reverb: 500),
        P("FX 3 (crystal)", .crystal, .decaying(9, attack: 0.002, release: 1.2), keyToDecay: 20, reverb: 500, chorus: 300),
        P("FX 4 (atmosphere)", .steelGuitar, .decaying(12, release: 1.5), keyToDecay: 20, detune: 8, reverb: 500, chorus: 400),
        P("FX 5 (brightness)", .glassPad, .held(0.07, release: 4.5), reverb: 450, chorus: 300),
        P("FX 6 (goblins)", .metalPad, .held(0.85, release: 4.5), filter: 1200, resonance: 6, vibrato: (0.7, 40, 0.5),
          reverb: 500),
        P("FX 7 (echoes)", .bellPad, .decaying(10, attack: 0.02, release: 2.0), filter: 4000, tremolo: (3, 4), reverb: 600, chorus: 300),
        P("FX 8 (sci-fi)", .metalPad, .held(0.2, release: 1.2), filter: 3000, resonance: 6, vibrato: (3, 60, 0.3), reverb: 500),
    ]

    static let ethnic: [P] = [
        P("Sitar", .sitar, .decaying(9, release: 0.4), keyToDecay: 20, filter: 5000, reverb: 250),
        P("Banjo", .banjo, .decaying(4, release: 0.15), keyToDecay: 20, reverb: 150),
        P("Shamisen", .shamisen, .decaying(3.5, release: 0.12), keyToDecay: 20, reverb: 200),
        P("Koto", .koto, .decaying(8, release: 2.2), keyToDecay: 20, reverb: 250),
        P("Kalimba", .kalimba, .decaying(3, release: 0.3), keyToDecay: 20, reverb: 250),
        P("Bag pipe", .bagpipe, .held(0.02, release: 0.08), filter: 5000, reverb: 200),
        P("Fiddle", .bowedString, .swell(0.05, decay: 30, sustainDB: 3, release: 0.2), vibrato: (6, 20, 0.15), reverb: 200),
        P("Shanai", .oboe, .held(0.03, release: 0.1), vibrato: (6, 18, 0.2), reverb: 250),
    ]

    static let percussive: [P] = [
        P("Tinkle Bell", .tinkleBell, .decaying(5, release: 0.6), keyToDecay: 20, reverb: 300),
        P("Agogo", .agogo, .decaying(2, release: 0.3), keyToDecay: 20, reverb: 200),
        P("Steel Drums", .steelDrum, .decaying(4, release: 0.4), keyToDecay: 20, reverb: 250),
        P("Woodblock", .woodblock, .decaying(0.3, release: 0.4), keyToDecay: 20, reverb: 150),
        P("Taiko Drum", .membrane, .decaying(3, release: 0.5), filter: 1500, sweep: S(decay: 0.3, sustain: 0, pitchCents: 200), reverb: 300),
        P("Melodic Tom", .membrane, .decaying(2.5, release: 0.4), filter: 3000, sweep: S(decay: 0.6, sustain: 0, pitchCents: 500), reverb: 250),
        P("Synth Drum", .sineDrum, .decaying(2.5, release: 0.3), sweep: S(decay: 0.5, sustain: 0, pitchCents: 1200), reverb: 200),
        P("Reverse Cymbal", .cymbalNoise, E(attack: 1.6, hold: 0, decay: 0.6, sustainDB: 96, release: 0.15), reverb: 300),
    ]

    static let soundEffects: [P] = [
        P("Guitar Fret Noise", .fretNoise, .decaying(30, release: 0.2)),
        P("Breath Noise", .breath, .held(0.06, release: 0.15), filter: 4000, reverb: 150),
        P("Seashore", .seashore, .held(0.8, release: 1.0), filter: 5000, reverb: 400),
        P("Bird Tweet", .birdTweet, .held(0.005, release: 0.2), reverb: 300),
        P("Telephone Ring", .telephone, .held(0.003, release: 0.05), filter: 5000),
        P("Helicopter", .helicopter, .held(0.6, release: 0.6), reverb: 200),
        P("Applause", .applause, .held(0.4, release: 0.8), reverb: 300),
        P("Gunshot", .gunshot, .decaying(30, release: 0.5), reverb: 300),
    ]
}
