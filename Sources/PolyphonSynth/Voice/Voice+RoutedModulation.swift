import PolyphonSoundFontCore

extension Voice {
    /// The routed LFOs and flex envelopes where the coming period ends (``RoutedModulation``):
    /// the pan they move is set now (the mix reads it once per rendered chunk), and a voice
    /// whose amplitude envelope (`egN_ampeg`) finishes there ends after the period.
    @inline(__always)
    mutating func routedPoint(_ period: Int) -> RoutedModulation.Output {
        let output = routedModulation.ahead(period)
        if routedModulation.movesPan {
            let pan = Units.panGains(total(.pan) + output.pan * 5)  // percent as SF2's ‰
            sound.panLeft = pan.left
            sound.panRight = pan.right
        }
        if output.ended { control.endsAfterPeriod = true }
        return output
    }

    /// Releases the flex envelopes. With one as the amplitude envelope the SF2 volume
    /// envelope (held at full level by the zone) stays at its level through the release, and
    /// the flex envelope alone decides when the voice ends.
    mutating func releaseRoutedModulation() {
        routedModulation.release()
        if routedModulation.amplitudeEnvelope >= 0 { volumeEnvelope.setRelease(frames: .infinity) }
    }
}
