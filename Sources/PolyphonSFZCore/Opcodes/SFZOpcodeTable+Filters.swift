extension SFZOpcodeTable {
    /// Filters (`cutoff`, `resonance`, `fil_*`, and their numbered forms) — the unnumbered
    /// names are the first filter, the aliases having made them `cutoff1`, `fil1_type` ….
    mutating func addFilters() {
        let filter: @Sendable (SFZOpcodeArguments) -> Int = { $0.index(0)! }
        modulated("cutoff&", value: SFZSpecs.filterCutoff, depth: SFZSpecs.filterCutoffModulation, indexes: [0]) { r, a, change in
            r.withFilter(filter(a)) { change(&$0.cutoff) }
        }
        modulated("resonance&", value: SFZSpecs.filterResonance, depth: SFZSpecs.filterResonance, indexes: [0]) { r, a, change in
            r.withFilter(filter(a)) { change(&$0.resonance) }
        }
        modulated("fil&_gain", value: SFZSpecs.filterGain, depth: SFZSpecs.filterGain, indexes: [0]) { r, a, change in
            r.withFilter(filter(a)) { change(&$0.gain) }
        }
        checked("cutoff&_chanaft", indexes: [0]) { t, p in
            t.real(p, SFZSpecs.filterCutoffModulation) { r, a, v in r.withFilter(filter(a)) { $0.cutoffByChannelPressure = v } }
        }
        checked("cutoff&_polyaft", indexes: [0]) { t, p in
            t.real(p, SFZSpecs.filterCutoffModulation) { r, a, v in r.withFilter(filter(a)) { $0.cutoffByKeyPressure = v } }
        }
        checked("fil&_keytrack", indexes: [0]) { t, p in
            t.real(p, SFZSpecs.filterKeytrack) { r, a, v in r.withFilter(filter(a)) { $0.keytrack = v } }
        }
        checked("fil&_keycenter", indexes: [0]) { t, p in
            t.key(p) { r, a, v in r.withFilter(filter(a)) { $0.keycenter = v } }
        }
        checked("fil&_veltrack", indexes: [0]) { t, p in
            t.real(p, SFZSpecs.filterVeltrack) { r, a, v in r.withFilter(filter(a)) { $0.velocityTracking.value = v } }
        }
        checked("fil&_veltrack_oncc&", indexes: [0], controller: true) { t, p in
            t.real(p, SFZSpecs.filterVeltrack) { r, a, v in
                r.withFilter(filter(a)) { $0.velocityTracking.updateController(a.numbers.last!) { $0.depth = v } }
            }
        }
        checked("fil&_veltrack_curvecc&", indexes: [0], controller: true) { t, p in
            t.integer(p, .strict(0, 255)) { r, a, v in
                r.withFilter(filter(a)) { $0.velocityTracking.updateController(a.numbers.last!) { $0.curve = v } }
            }
        }
        checked("fil&_random", indexes: [0]) { t, p in
            t.real(p, SFZSpecs.filterRandom) { r, a, v in r.withFilter(filter(a)) { $0.random = v } }
        }
        checked("fil&_type", indexes: [0]) { t, p in
            t.choice(p, "lpf_1p, hpf_1p, lpf_2p, hpf_2p, bpf_2p, brf_2p, bpf_1p, brf_1p, lpf_2p_sv, hpf_2p_sv, bpf_2p_sv, brf_2p_sv, lpf_4p, hpf_4p, lpf_6p, hpf_6p, pink, lsh, hsh, peq",
                     { SFZFilterType(sfzName: $0) }) { r, a, v in r.withFilter(filter(a)) { $0.type = v } }
        }
    }

    /// Equaliser bands `eqN_*`.
    mutating func addEqualizers() {
        let band: @Sendable (SFZOpcodeArguments) -> Int = { $0.index(0)! }
        modulated("eq&_bw", value: SFZSpecs.eqBandwidth, depth: SFZSpecs.eqBandwidthModulation, indexes: [0]) { r, a, change in
            r.withEqualizer(band(a)) { change(&$0.bandwidth) }
        }
        modulated("eq&_freq", value: SFZSpecs.eqFrequency, depth: SFZSpecs.eqFrequencyModulation, indexes: [0]) { r, a, change in
            r.withEqualizer(band(a)) { change(&$0.frequency) }
        }
        modulated("eq&_gain", value: SFZSpecs.eqGain, depth: SFZSpecs.eqGain, indexes: [0]) { r, a, change in
            r.withEqualizer(band(a)) { change(&$0.gain) }
        }
        checked("eq&_veltofreq", indexes: [0]) { t, p in
            t.real(p, SFZSpecs.eqVelocityToFrequency) { r, a, v in r.withEqualizer(band(a)) { $0.velocityToFrequency = v } }
        }
        checked("eq&_veltogain", indexes: [0]) { t, p in
            t.real(p, SFZSpecs.eqGain) { r, a, v in r.withEqualizer(band(a)) { $0.velocityToGain = v } }
        }
        checked("eq&_type", indexes: [0]) { t, p in
            t.choice(p, "peak, lshelf, hshelf", { SFZEqualizerType(rawValue: $0) }) { r, a, v in r.withEqualizer(band(a)) { $0.type = v } }
        }
    }
}
