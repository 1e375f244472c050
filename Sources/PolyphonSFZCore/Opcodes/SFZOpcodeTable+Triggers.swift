extension SFZOpcodeTable {
    /// What starts a region: `trigger`, release decay, controller triggers, pedal settings.
    mutating func addTriggers() {
        choice("trigger", "attack, release, release_key, first, legato", { SFZTrigger.Kind(rawValue: $0) }) { r, _, v in
            r.trigger.kind = v
        }
        real("rt_decay", SFZSpecs.releaseDecay) { r, _, v in r.trigger.releaseDecay = v }
        flag("rt_dead") { r, _, v in r.trigger.releaseNeedsLivingVoice = v }
        let defaults = SFZRange<Float>(0, 127)
        checked("start_locc&", controller: true) { t, p in
            t.real(p, SFZSpecs.midiValue) { r, a, v in r.trigger.controllers.update(a.numbers.last!, defaults: defaults) { $0.lower = v } }
        }
        checked("start_hicc&", controller: true) { t, p in
            t.real(p, SFZSpecs.midiValue) { r, a, v in r.trigger.controllers.update(a.numbers.last!, defaults: defaults) { $0.upper = v } }
        }
        checked("start_lohdcc&", controller: true) { t, p in
            t.real(p, SFZSpecs.normalized) { r, a, v in r.trigger.controllers.update(a.numbers.last!, defaults: defaults) { $0.lower = v * 127 } }
        }
        checked("start_hihdcc&", controller: true) { t, p in
            t.real(p, SFZSpecs.normalized) { r, a, v in r.trigger.controllers.update(a.numbers.last!, defaults: defaults) { $0.upper = v * 127 } }
        }
        integer("sustain_cc", SFZSpecs.controllerNumber) { r, _, v in r.trigger.sustainController = v }
        integer("sostenuto_cc", SFZSpecs.controllerNumber) { r, _, v in r.trigger.sostenutoController = v }
        real("sustain_lo", SFZSpecs.midiValue) { r, _, v in r.trigger.sustainThreshold = v }
        real("sostenuto_lo", SFZSpecs.midiValue) { r, _, v in r.trigger.sostenutoThreshold = v }
        flag("sustain_sw") { r, _, v in r.trigger.followsSustain = v }
        flag("sostenuto_sw") { r, _, v in r.trigger.followsSostenuto = v }
    }
}
