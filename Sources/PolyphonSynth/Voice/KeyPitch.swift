/// The pitch a voice's key plays relative to its sample's root key, under the tuning its
/// channel was in when the note started (or last retuned in real time): the one place a
/// tuning meets the SoundFont pitch rules.
///
/// In equal temperament that is scaleTuning × (key − root) cents (SF2 2.04 §8.1.3). Under a
/// tuning whose keys lie `d(k)` cents from equal temperament, as FluidSynth 2.6 computes it
/// (`fluid_voice_calculate_pitch`): the root key keeps its tuned pitch and scaleTuning scales
/// the tuned distance to it, i.e. scaleTuning/100 × (T(key) − T(root)) + d(root) with
/// T(k) = 100·k + d(k).
struct KeyPitch {
    /// Cents the tuning moves the key and the root key from equal temperament.
    private var keyDeviation: Float = 0
    private var rootDeviation: Float = 0
    /// False in equal temperament, where the plain rule applies unchanged.
    private var isTuned = false

    init() {}

    init(tuning: TuningTable?, key: Int, root: Int) {
        guard let tuning else { return }
        keyDeviation = tuning.deviation(ofKey: key)
        rootDeviation = tuning.deviation(ofKey: root)
        isTuned = true
    }

    /// The key's pitch in cents above the root key's sample pitch.
    @inline(__always)
    func cents(scaleTuning scale: Float, key: Int, root: Int) -> Float {
        let equal = scale * Float(key - root)
        guard isTuned else { return equal }
        return equal + scale / 100 * (keyDeviation - rootDeviation) + rootDeviation
    }
}

extension Voice {
    /// The key (the keynum generator's, if set) and its root under the channel's tuning now.
    func keyPitch(on channel: Channel) -> KeyPitch {
        KeyPitch(tuning: channel.activeTuning, key: effectiveKey, root: rootKey)
    }

    /// The channel's tuning changed in real time: the voice takes its key's new pitch from now
    /// on, without a new attack.
    mutating func retune(_ channel: Channel, _ context: RenderContext) {
        guard isActive else { return }
        sound.keyPitch = keyPitch(on: channel)
        updateParameters(channel, context)
        restartControlPeriod()
    }
}
