import PolyphonSoundFontCore

/// SFZ's `ampeg_dynamic`: a voice whose amplitude envelope stages depend on controllers
/// (`ampeg_*_onccN`) reads them again whenever a controller on its channel moves, as sfizz's
/// dynamic `ADSREnvelope` does, and the running stage goes on at its new pace — until the note
/// is released (sfizz stops following when a voice is cut; a release already running keeps its
/// time here, so a fast `off_mode` release is never slowed).
extension Voice {
    /// Reads the dynamic envelope's stages at `ch`'s controllers and retimes the running
    /// volume envelope (brought to this frame first, so the change starts here).
    mutating func followDynamicEnvelope(_ ch: Channel, _ context: RenderContext) {
        guard let envelope = shapedAmplitude.dynamicEnvelope, !isReleased else { return }
        catchUp()
        writeVolumeEnvelope(envelope, channel: ch)
        volumeEnvelope.retime(volumeStageFrames(context), sustainCentibels: total(.sustainVolEnv))
        control.targetStep = 0  // the level's fall per period may have changed
    }
}
