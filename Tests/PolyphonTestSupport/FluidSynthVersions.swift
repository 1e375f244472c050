/// Where FluidSynth 2.3.1 (the reference CI installs) and FluidSynth 2.6 (the one Polyphon
/// follows, with the SoundFont 2.04 text) play differently, as tests comparing with 2.3.1
/// must allow for.
public enum FluidSynthVersions {
    /// How much louder 2.6 plays than 2.3.1, in dB: 2.3.1's source mapping inverted against 1
    /// and read the concave table at 127 × value, leaving 1.36 cB of attenuation on each of
    /// velocity, CC7 and CC11 at every value. Measured 2.6 − 2.3.1: +0.40 dB on a sine at
    /// any velocity, +0.41 dB on planetblupi's music004 with FluidR3_GM.
    public static let levelAbove231 = 0.41
}
