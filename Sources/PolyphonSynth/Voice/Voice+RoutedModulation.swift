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
        if routedModulation.movesPitch { output.pitch = routedModulation.pitch(ahead: period / 2) }
        if routedModulation.movesPan {
            routedModulation.lastPlacement = SIMD4(output.pan, output.width, output.position, 0)
            applyRoutedPan()
        }
        if output.ended { control.endsAfterPeriod = true }
        return output
    }

    /// The pan gains with the routed pan (percent, as SF2's ‰) on top of the zone's and its
    /// modulators' — set again after a channel change recomputed them without it. A stereo
    /// side goes through sfizz's pan, width and position stages with the routed width and
    /// position added; a mono zone has no width or position, as in sfizz.
    mutating func applyRoutedPan() {
        let routed = routedModulation.lastPlacement
        let placement = routedModulation.stereoPlacement
        let pan = shapedAmplitude.stereoGains(panModulation: modulation[Int(GeneratorType.pan.rawValue)] + routed[0] * 5
                                                  + voiceControllers.panPermille,
                                              width: placement[0] + routed[1] / 100,
                                              position: placement[1] + routed[2] / 100)
            ?? Units.panGains(total(.pan) + routed[0] * 5 + voiceControllers.panPermille)
        sound.panLeft = pan.left
        sound.panRight = pan.right
    }

    /// Reads a stereo side's width and position with their controllers on `ch`, which the
    /// routed ones are added to (at note-on and when the channel changes).
    mutating func followStereoPlacement(_ ch: Channel) {
        routedModulation.stereoPlacement = shapedAmplitude.stereoPlacement(ch) ?? SIMD2(repeating: 0)
    }

    /// Releases the flex envelopes. With one as the amplitude envelope the SF2 volume
    /// envelope (held at full level by the zone) stays at its level through the release, and
    /// the flex envelope alone decides when the voice ends.
    mutating func releaseRoutedModulation() {
        routedModulation.release()
        if routedModulation.amplitudeEnvelope >= 0 { volumeEnvelope.setRelease(frames: .infinity) }
    }
}
