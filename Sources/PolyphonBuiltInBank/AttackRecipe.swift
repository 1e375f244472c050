import PolyphonSoundFont

/// The part of a spectral tone that plays once: extra partials that die away (a hammer's or
/// mallet's brightness, a percussive organ's click) and a noise burst (hammer, chiff, breath).
struct AttackRecipe: Sendable {
    /// Seconds before the loop starts (rounded up to whole loop lengths).
    var duration = 0.4
    /// Amplitudes of the extra partials, like ``SpectralRecipe/harmonics``.
    var brightness: (@Sendable (_ h: Int, _ hz: Double) -> Double)? = nil
    /// Level of the extra partials relative to the tone's peak.
    var brightLevel = 1.0
    /// Time constant of their decay, seconds.
    var brightDecay = 0.1
    /// Level of the noise burst relative to the tone's peak (0 = none).
    var noiseLevel = 0.0
    /// Time constant of the burst, seconds.
    var noiseDecay = 0.01
    /// Centre and width of the burst's band, Hz.
    var noiseCentre = 3000.0
    var noiseWidth = 4000.0
}
