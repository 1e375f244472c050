import Testing
@testable import PolyphonSFZCore

/// Every opcode family the model holds, read into its typed fields.
@Suite struct SFZOpcodeFamilyTests {
    static func region(_ opcodes: String) throws -> SFZRegion {
        let instrument = try SFZInheritanceTests.instrument("<region> sample=a.wav " + opcodes)
        #expect(instrument.warnings.isEmpty, "\(instrument.warnings)")
        return try #require(instrument.regions.first)
    }

    @Test func selection() throws {
        let r = try Self.region("""
            lokey=c3 hikey=72 lovel=10 hivel=100 lochan=2 hichan=3 locc1=10 hicc1=20 lohdcc2=0.5
            lobend=-100 hibend=200 loprog=4 hiprog=5 lochanaft=1 hichanaft=2 lopolyaft=3 hipolyaft=4
            lobpm=60 hibpm=120 lorand=0.25 hirand=0.5 seq_length=4 seq_position=3 lotimer=0.1 hitimer=2
            """)
        let s = r.selection
        #expect(s.keys == SFZRange(48, 72) && s.velocities == SFZRange(10, 100) && s.channels == SFZRange(2, 3))
        #expect(s.controllers == [SFZControllerRange(controller: 1, range: SFZRange(10, 20)),
                                  SFZControllerRange(controller: 2, range: SFZRange(63.5, 127))])
        #expect(s.pitchBend == SFZRange(-100, 200) && s.programs == SFZRange(4, 5))
        #expect(s.channelPressure == SFZRange(1, 2) && s.keyPressure == SFZRange(3, 4) && s.tempo == SFZRange(60, 120))
        #expect(s.random == SFZRange(0.25, 0.5) && s.sequenceLength == 4 && s.sequencePosition == 3)
        #expect(s.timer == SFZRange(0.1, 2))
    }

    @Test func keyswitches() throws {
        let r = try Self.region("sw_lokey=c1 sw_hikey=e1 sw_last=d1 sw_down=c2 sw_up=d2 sw_previous=e2 sw_default=c1 sw_label=Legato sw_vel=previous")
        let k = r.selection.keyswitch
        #expect(k.range == SFZRange(24, 28) && k.last == 26 && k.down == 36 && k.up == 38 && k.previous == 40)
        #expect(k.defaultKey == 24 && k.label == "Legato" && k.velocitySource == .previous)
        let ranged = try Self.region("sw_last=d1 sw_lolast=c1 sw_hilast=e1").selection.keyswitch
        #expect(ranged.last == nil && ranged.lastRange == SFZRange(24, 28))
    }

    @Test func triggers() throws {
        let r = try Self.region("trigger=release rt_decay=6 rt_dead=on on_locc64=64 start_hicc64=127 sustain_cc=65 sustain_lo=10 sostenuto_sw=off")
        #expect(r.trigger.kind == .release && r.trigger.isRelease && r.trigger.releaseDecay == 6 && r.trigger.playsAfterAttackEnded)
        #expect(r.trigger.controllers == [SFZControllerRange(controller: 64, range: SFZRange(64, 127))])
        #expect(r.trigger.sustainController == 65 && r.trigger.sustainThreshold == 10 && !r.trigger.followsSostenuto)
        for kind in ["attack", "release_key", "first", "legato"] {
            #expect(try Self.region("trigger=\(kind)").trigger.kind.rawValue == kind)
        }
        let ccOnly = try Self.region("hikey=-1 start_locc20=100")
        #expect(!ccOnly.selection.triggersOnKeys)
    }

    @Test func pitch() throws {
        let r = try Self.region("pitch_keycenter=a3 pitch_keytrack=50 pitch_veltrack=1200 pitch_random=10 transpose=-12 tune=-25 tune_oncc1=100 bend_up=1200 bend_down=-100 bend_step=100")
        #expect(r.pitch.keycenter == 57 && r.pitch.keytrack == 50 && r.pitch.velocityTracking.value == 1200)
        #expect(r.pitch.random == 10 && r.pitch.transpose == -12 && r.pitch.tune.value == -25)
        #expect(r.pitch.tune.controllers == [SFZControllerInput(controller: 1, depth: 100)])
        #expect(r.pitch.bendUp == 1200 && r.pitch.bendDown == -100 && r.pitch.bendStep == 100)
        #expect(try Self.region("pitch_keycenter=sample").pitch.keycenterFromSample)
    }

    @Test func amplitude() throws {
        let r = try Self.region("""
            volume=-6 volume_oncc7=-20 volume_curvecc7=4 volume_smoothcc7=10 volume_stepcc7=1 amplitude=50 pan=-30 position=20 width=0
            amp_keycenter=c5 amp_keytrack=-1.5 amp_veltrack=80 amp_random=2 amp_velcurve_64=0.25 amp_velcurve_1=0.1
            group_volume=-3 master_amplitude=50 effect1=20 effect2=30
            """)
        let a = r.amplitude
        #expect(a.volume.value == -6)
        var input = SFZControllerInput(controller: 7, depth: -20)
        input.curve = 4
        input.smoothing = 10
        input.step = 1
        #expect(a.volume.controllers == [input])
        #expect(a.amplitude.value == 50 && a.pan.value == -30 && a.position.value == 20 && a.width.value == 0)
        #expect(a.keycenter == 72 && a.keytrack == -1.5 && a.velocityTracking.value == 80 && a.random == 2)
        #expect(a.velocityCurve == [SFZVelocityPoint(velocity: 1, gain: 0.1), SFZVelocityPoint(velocity: 64, gain: 0.25)])
        #expect(a.groupVolume == -3 && a.masterAmplitude == 50)
        #expect(a.effectSends == [SFZEffectSend(bus: 1, level: 20), SFZEffectSend(bus: 2, level: 30)])
    }

    @Test func crossfades() throws {
        let r = try Self.region("xfin_lokey=c4 xfin_hikey=e4 xfout_lokey=g4 xfout_hikey=b4 xfin_lovel=10 xfin_hivel=20 xfout_lovel=100 xfout_hivel=110 xfin_locc1=0 xfin_hicc1=64 xfout_locc1=64 xfout_hicc1=127 xf_keycurve=gain xf_velcurve=power xf_cccurve=gain")
        let x = r.crossfade
        #expect(x.keyIn == SFZRange(60, 64) && x.keyOut == SFZRange(67, 71))
        #expect(x.velocityIn == SFZRange(10, 20) && x.velocityOut == SFZRange(100, 110))
        #expect(x.controllersIn == [SFZControllerRange(controller: 1, range: SFZRange(0, 64))])
        #expect(x.controllersOut == [SFZControllerRange(controller: 1, range: SFZRange(64, 127))])
        #expect(x.keyCurve == .gain && x.velocityCurve == .power && x.controllerCurve == .gain)
    }

    @Test func envelopes() throws {
        let r = try Self.region("""
            ampeg_delay=0.1 ampeg_start=5 ampeg_attack=0.2 ampeg_hold=0.3 ampeg_decay=0.4 ampeg_sustain=50 ampeg_release=0.5
            ampeg_vel2attack=-0.1 ampeg_vel2sustain=10 ampeg_attackcc1=2 ampeg_attack_curvecc1=3 ampeg_dynamic=1
            pitcheg_attack=1 pitcheg_depth=1200 pitcheg_vel2depth=-100 pitcheg_depth_oncc2=50
            fileg_decay=2 fileg_depth=-2400 fileg_sustain=0
            """)
        let amp = r.amplitudeEnvelope
        #expect(amp.delay == 0.1 && amp.start == 5 && amp.attack == 0.2 && amp.hold == 0.3 && amp.decay == 0.4)
        #expect(amp.sustain == 50 && amp.release == 0.5 && amp.isDynamic)
        #expect(amp.velocityModifiers == [.attack: -0.1, .sustain: 10])
        var input = SFZControllerInput(controller: 1, depth: 2)
        input.curve = 3
        #expect(amp.controllerModifiers == [SFZEnvelopeControllerModifier(stage: .attack, input: input)])
        let pitch = try #require(r.pitchEnvelope)
        #expect(pitch.attack == 1 && pitch.depth.value == 1200 && pitch.velocityToDepth == -100)
        #expect(pitch.depth.controllers == [SFZControllerInput(controller: 2, depth: 50)])
        let filter = try #require(r.filterEnvelope)
        #expect(filter.decay == 2 && filter.depth.value == -2400 && filter.sustain == 0 && filter.release == 0)
    }

    @Test func filtersAndEqualizers() throws {
        let r = try Self.region("""
            fil_type=hpf_2p cutoff=500 resonance=6 cutoff_oncc74=1200 fil_keytrack=100 fil_keycenter=c3 fil_veltrack=2400 fil_random=100
            fil2_type=bpf_1p cutoff2=2000 fil2_gain=3 cutoff2_chanaft=300
            eq1_freq=100 eq1_gain=-6 eq1_bw=2 eq2_gain=3 eq3_type=hshelf eq1_vel2gain=6
            """)
        #expect(r.filters.count == 2)
        let f = r.filters[0]
        #expect(f.type == .highpass2Pole && f.cutoff.value == 500 && f.resonance.value == 6)
        #expect(f.cutoff.controllers == [SFZControllerInput(controller: 74, depth: 1200)])
        #expect(f.keytrack == 100 && f.keycenter == 48 && f.velocityTracking.value == 2400 && f.random == 100)
        #expect(r.filters[1].type == .bandpass1Pole && r.filters[1].cutoff.value == 2000 && r.filters[1].gain.value == 3)
        #expect(r.filters[1].cutoffByChannelPressure == 300)
        #expect(r.equalizers.count == 3)
        #expect(r.equalizers[0].frequency.value == 100 && r.equalizers[0].gain.value == -6 && r.equalizers[0].bandwidth.value == 2)
        #expect(r.equalizers[0].velocityToGain == 6)
        #expect(r.equalizers[1].frequency.value == 500 && r.equalizers[2].frequency.value == 5000)
        #expect(r.equalizers[2].type == .highShelf)
        for name in ["lpf_1p", "hpf_1p", "lpf_2p", "hpf_2p", "bpf_2p", "brf_2p", "lpf_4p", "hpf_4p", "lpf_6p", "hpf_6p"] {
            #expect(try Self.region("fil_type=\(name)").filters[0].type.rawValue == name)
        }
        #expect(try Self.region("fil_type=pkf_2p").filters[0].type == .peaking)
    }

    @Test func legacyLFOs() throws {
        let r = try Self.region("""
            amplfo_delay=0.5 amplfo_fade=1 amplfo_freq=5 amplfo_depth=3 amplfo_depthcc1=2
            pitchlfo_freq=6 pitchlfo_depth=50 pitchlfo_depthchanaft=20 pitchlfo_freqcc2=1 fillfo_depth=1200 fillfo_wave=3
            """)
        let amp = try #require(r.amplitudeLFO)
        #expect(amp.delay == 0.5 && amp.fade == 1 && amp.frequency.value == 5 && amp.depth.value == 3 && amp.wave == .sine)
        #expect(amp.depth.controllers == [SFZControllerInput(controller: 1, depth: 2)])
        let pitch = try #require(r.pitchLFO)
        #expect(pitch.frequency.value == 6 && pitch.depth.value == 50 && pitch.depthByChannelPressure == 20)
        #expect(pitch.frequency.controllers == [SFZControllerInput(controller: 2, depth: 1)])
        #expect(r.filterLFO?.depth.value == 1200 && r.filterLFO?.wave == .square)
    }

    @Test func v2LFOsAndFlexEnvelopes() throws {
        let r = try Self.region("""
            lfo1_freq=2 lfo1_wave=1 lfo1_pitch=100 lfo1_pitch_oncc1=50 lfo1_cutoff=1200 lfo1_volume=-3
            lfo2_freq=0.5 lfo2_phase=1.25 lfo2_delay=1 lfo2_fade=2 lfo2_count=3 lfo2_wave2=3 lfo2_ratio2=2 lfo2_scale2=0.5
            lfo2_offset2=0.1 lfo2_steps=4 lfo2_step2=50 lfo2_eq1gain=6 lfo2_resonance2=3
            eg1_time1=0.1 eg1_level1=1 eg1_shape1=2 eg1_time2=0.5 eg1_level2=0.5 eg1_sustain=2 eg1_pitch=1200 eg1_ampeg=1
            eg2_freq_lfo1=5
            """)
        #expect(r.lfos.count == 2)
        let l1 = r.lfos[0]
        #expect(l1.frequency.value == 2 && l1.subwaves == [SFZLFOSubwave(wave: .sine)])
        #expect(l1.routes == [SFZModulationRoute(target: .pitch, depth: SFZModulatedValue(100, controllers: [SFZControllerInput(controller: 1, depth: 50)])),
                              SFZModulationRoute(target: .cutoff(filter: 0), depth: SFZModulatedValue(1200)),
                              SFZModulationRoute(target: .volume, depth: SFZModulatedValue(-3))])
        let l2 = r.lfos[1]
        #expect(l2.frequency.value == 0.5 && l2.phase.value == 0.25 && l2.delay.value == 1 && l2.fade.value == 2 && l2.count == 3)
        #expect(l2.subwaves.count == 2 && l2.subwaves[1] == SFZLFOSubwave(wave: .square, offset: 0.1, ratio: 2, scale: 0.5))
        #expect(l2.steps == [0, 50, 0, 0])
        #expect(l2.routes.map(\.target) == [.equalizerGain(band: 0), .resonance(filter: 1)])
        #expect(r.flexEnvelopes.count == 2)
        let e1 = r.flexEnvelopes[0]
        #expect(e1.points.count == 3 && e1.points[1].time.value == 0.1 && e1.points[1].level.value == 1 && e1.points[1].shape == 2)
        #expect(e1.sustainPoint == 2 && e1.drivesAmplitude && e1.routes.map(\.target) == [.pitch])
        #expect(r.flexEnvelopes[1].routes == [SFZModulationRoute(target: .lfoFrequency(lfo: 0), depth: SFZModulatedValue(5))])
    }

    @Test func playbackAndLoops() throws {
        let r = try Self.region("""
            offset=100 offset_random=10 offset_cc1=1000 end=5000 loop_mode=loop_sustain loop_start=200 loop_end=4000
            loop_crossfade=0.01 delay=0.25 delay_random=0.1 delay_oncc3=1 direction=reverse count=2 loop_mode=loop_continuous
            oscillator=on oscillator_phase=-1 oscillator_multi=3 oscillator_detune=10 sample_quality=3
            """)
        let p = r.playback
        #expect(p.offset == 100 && p.offsetRandom == 10 && p.offsetControllers == [SFZControllerInput(controller: 1, depth: 1000)])
        #expect(p.end == 5000 && p.loopStart == 200 && p.loopEnd == 4000 && p.loopCrossfade == 0.01)
        // count= makes the region one-shot, and a later loop_mode wins, as in sfizz.
        #expect(p.count == 2 && p.loopMode == .continuous)
        #expect(p.delay.value == 0.25 && p.delayRandom == 0.1 && p.delay.controllers == [SFZControllerInput(controller: 3, depth: 1)])
        #expect(p.isReversed && p.quality == 3)
        #expect(p.oscillator.mode == .on && p.oscillator.phase == -1 && p.oscillator.voices == 3 && p.oscillator.detune.value == 10)
        for mode in SFZLoopMode.allCases {
            #expect(try Self.region("loop_mode=\(mode.rawValue)").playback.loopMode == mode)
        }
    }

    @Test func polyphony() throws {
        let r = try Self.region("group=3 off_by=4 off_mode=normal polyphony=2 note_polyphony=1 note_selfmask=off output=1")
        #expect(r.polyphony.group == 3 && r.polyphony.offBy == 4 && r.polyphony.offMode == .normal)
        #expect(r.polyphony.limit == 2 && r.polyphony.noteLimit == 1 && !r.polyphony.noteSelfMask && r.polyphony.output == 1)
        let timed = try Self.region("off_time=0.5 polyphony_group=9")
        #expect(timed.polyphony.offMode == .time && timed.polyphony.offTime == 0.5 && timed.polyphony.group == 9)
    }

    @Test func generators() throws {
        let i = try SFZInheritanceTests.instrument("""
            <region> sample=*sine key=60
            <region> sample=*tri key=61
            <region> sample=*saw key=62
            <region> sample=*square key=63
            <region> sample=*noise key=64
            <region> sample=*silence key=65
            """, samples: [])
        #expect(i.regions.map(\.playback.sample) == [.generator(.sine), .generator(.triangle), .generator(.saw),
                                                     .generator(.square), .generator(.noise), .generator(.silence)])
        #expect(i.samples.isEmpty && i.regions.allSatisfy { $0.sampleIndex == nil })
    }
}

extension SFZModulatedValue {
    init(_ value: Float, controllers: [SFZControllerInput]) {
        self.init(value)
        self.controllers = controllers
    }
}

extension SFZLFOSubwave {
    init(wave: SFZLFOWave, offset: Float = 0, ratio: Float = 1, scale: Float = 1) {
        self.init()
        self.wave = wave
        self.offset = offset
        self.ratio = ratio
        self.scale = scale
    }
}
