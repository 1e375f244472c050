import PolyphonSoundFontCore

extension Voice {
    /// The routed LFOs and flex envelopes where the coming period ends (``RoutedModulation``):
    /// the pan they move is set now (the mix reads it once per rendered chunk), and a voice
    /// whose amplitude envelope (`egN_ampeg`) finishes there ends after the period.
    @inline(__always)
    mutating func routedPoint(_ period: Int) -> RoutedModulation.Output {
        var output = routedModulation.ahead(period)
        // The period plays one pitch: the one at its middle follows a moving pitch best (the
        // gain and the filter glide to where the period ends).
        if routedModulation.movesPitch { output.pitch = routedModulation.ahead(period / 2).pitch }
        if routedModulation.movesPan {
            routedModulation.lastPan = output.pan
            applyRoutedPan()
        }
        if output.ended { control.endsAfterPeriod = true }
        return output
    }

    /// The pan gains with the routed pan (percent, as SF2's ‰) on top of the zone's and its
    /// modulators' — set again after a channel change recomputed them without it.
    mutating func applyRoutedPan() {
        let pan = Units.panGains(total(.pan) + routedModulation.lastPan * 5 + voiceControllers.panPermille)
        sound.panLeft = pan.left
        sound.panRight = pan.right
    }

    /// Releases the flex envelopes. With one as the amplitude envelope the SF2 volume
    /// envelope (held at full level by the zone) stays at its level through the release, and
    /// the flex envelope alone decides when the voice ends.
    mutating func releaseRoutedModulation() {
        routedModulation.release()
        if routedModulation.amplitudeEnvelope >= 0 { volumeEnvelope.setRelease(frames: .infinity) }
    }
}
