import PolyphonSoundFont

extension FuzzSeeds {
    /// A voice shaping with every family set, so the SoundFont target's seeds reach each part
    /// of the `izvs` record and the engine plays it.
    static var voiceShaping: VoiceShaping {
        let wheel = ControllerDepth(controller: 1, depth: 0.5, curve: (0..<128).map { Float($0) / 127 })
        let value = NoteStartValue(0.01, byVelocity: 0.02, random: 0.01, controllers: [wheel])
        var volume = VolumeEnvelopeShape()
        volume.attack = value
        volume.release = value
        volume.isDynamic = true
        var s = VoiceShaping(filter: FilterShape(.lowPass, poles: 2, cutoff: 2_000, resonance: 3),
                             pitchEnvelope: ModulationEnvelopeShape(depth: 100), filterEnvelope: ModulationEnvelopeShape(depth: -600),
                             volumeLFO: LFOShape(.square, frequency: 4, depth: 3), pitchLFO: LFOShape(.sine, frequency: 5, depth: 20),
                             filterLFO: LFOShape(.triangle, frequency: 2, depth: 300))
        s.noteStart = NoteStartShape(volumeEnvelope: volume, delay: value, offset: NoteStartValue(4), loopRepeats: 2)
        s.noteStart?.pitch = NoteStartPitch(velocityTracking: NoteStartValue(300, controllers: [wheel]), random: 20)
        s.secondFilter = FilterShape(.peaking, poles: 2, cutoff: 1_000)
        s.equalizers = [EqualizerBandShape(frequency: 800, gain: 6)]
        s.controllerModulations = [ControllerModulationShape(controller: 74, target: .cutoff, depth: 1_200, smoothing: 5, step: 10)]
        s.routedLFOs = [RoutedLFOShape(frequency: 3, waves: [.init(.sine), .init(.saw, ratio: 2)],
                                       routes: [ModulationRoute(.pan, depth: 50, depthControllers: [wheel])])]
        s.flexEnvelopes = [FlexEnvelopeShape(points: [.init(time: 0.01, level: 1), .init(time: 0.02, level: 0.5, shape: 2)],
                                             sustain: 1, routes: [ModulationRoute(.amplitude, depth: 1)])]
        var amplitude = AmplitudeShape()
        amplitude.velocity = .init(tracking: 0.5)
        amplitude.noteCrossfades = [.init(.key, fadesIn: true, start: 40, end: 70, curve: .power)]
        amplitude.controllerGains = [wheel]
        s.amplitude = amplitude
        s.stereo = StereoShape(side: .left, width: 0.5, widthControllers: [wheel])
        return s
    }
}
