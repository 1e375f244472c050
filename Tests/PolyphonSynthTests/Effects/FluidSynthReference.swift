/// FluidSynth 2.3.1's reverb and chorus, measured on the installed `fluidsynth` at 44.1 kHz with
/// `Benchmarks/fx/fxprobe.py table` (a generated one-click / white-noise SoundFont, effect on
/// minus effect off, send 0.2 from CC91/CC93 = 127, gain 1). Re-run the script to refresh them.
///
/// Gains are wet energy (mean of both channels) over send-bus energy, in dB; band gains are
/// relative to the same octave band of the input; RT60 is T20 from Schroeder integration.
enum FluidSynthReference {
    struct ReverbRow: Sendable, CustomStringConvertible {
        var room: Double
        var damp: Double
        var gainDB: Double
        var rt60: Double
        var correlation: Double
        /// (centre Hz, RT60 s, gain dB) for the 250, 1000, 4000 and 8000 Hz octave bands.
        var bands: [(Double, Double, Double)]
        var description: String { "room \(room) damp \(damp)" }
    }

    /// Width 0.5, level 0.9 (FluidSynth's defaults) throughout.
    static let reverb: [ReverbRow] = [
        ReverbRow(room: 0.2, damp: 0.0, gainDB: -4.35, rt60: 0.966, correlation: 0.618,
                  bands: [(250, 0.910, -3.90), (1000, 0.935, -4.21), (4000, 0.968, -4.26), (8000, 0.959, -4.29)]),
        ReverbRow(room: 0.0, damp: 0.0, gainDB: -6.96, rt60: 0.685, correlation: 0.622,
                  bands: [(250, 0.669, -6.63), (1000, 0.695, -6.88), (4000, 0.654, -6.89), (8000, 0.677, -6.92)]),
        ReverbRow(room: 0.5, damp: 0.0, gainDB: -0.73, rt60: 1.729, correlation: 0.612,
                  bands: [(250, 1.616, -0.10), (1000, 1.675, -0.50), (4000, 1.720, -0.65), (8000, 1.715, -0.65)]),
        ReverbRow(room: 0.8, damp: 0.0, gainDB: 3.62, rt60: 3.852, correlation: 0.604,
                  bands: [(250, 3.902, 4.30), (1000, 3.868, 3.89), (4000, 3.877, 3.66), (8000, 3.849, 3.70)]),
        ReverbRow(room: 1.0, damp: 0.0, gainDB: 9.17, rt60: 12.517, correlation: 0.600,
                  bands: [(250, 12.420, 9.61), (1000, 12.419, 9.35), (4000, 12.486, 9.16), (8000, 12.510, 9.20)]),
        ReverbRow(room: 0.2, damp: 0.5, gainDB: -5.78, rt60: 0.738, correlation: 0.626,
                  bands: [(250, 0.909, -3.90), (1000, 0.917, -4.30), (4000, 0.742, -5.12), (8000, 0.594, -5.95)]),
        ReverbRow(room: 0.2, damp: 1.0, gainDB: -10.33, rt60: 0.712, correlation: 0.659,
                  bands: [(250, 0.827, -5.01), (1000, 0.718, -6.42), (4000, 0.451, -9.77), (8000, 0.297, -11.39)]),
        ReverbRow(room: 0.8, damp: 0.5, gainDB: 2.57, rt60: 2.881, correlation: 0.616,
                  bands: [(250, 3.882, 4.29), (1000, 3.572, 3.75), (4000, 2.061, 2.74), (8000, 1.133, 2.41)]),
    ]

    /// Room 0.2, damp 0, level 0.9: (width, gain dB, left/right correlation).
    static let reverbWidth: [(width: Double, gainDB: Double, correlation: Double)] = [
        (0.0, -4.44, 1.000), (1.0, -3.14, 0.029), (10.0, 5.81, -0.979),
    ]

    /// Speed 0.3 Hz, depth 8 ms, 2 s of white noise: (voices, level, gain dB).
    static let chorus: [(voices: Int, level: Double, gainDB: Double)] = [
        (1, 2.0, 5.96), (2, 2.0, 13.46), (3, 2.0, 13.54), (4, 2.0, 16.46), (5, 2.0, 16.53), (3, 1.0, 7.52),
    ]
}
