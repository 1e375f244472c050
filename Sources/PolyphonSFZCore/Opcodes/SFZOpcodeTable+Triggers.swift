extension SFZOpcodeTable {
    /// What starts a region: `trigger`, release decay, controller triggers, pedal settings.
    mutating func addTriggers() {
        choice("trigger", "attack, release, release_key, first, legato", { SFZTrigger.Kind(rawValue: $0) }) { r, _, v in
            r.trigger.kind = v
        }
        real("rt_decay", SFZSpecs.releaseDecay) { r, _, v in r.trigger.releaseDecay = v }
        flag("rt_dead") { r, _, v in r.trigger.playsAfterAttackEnded = v }
        let everyValue = SFZRange<Float>(0, 127)
        let controllers: ControllerRangesAccess = { r, change in change(&r.trigger.controllers) }
        controllerBounds(lower: "start_locc&", upper: "start_hicc&", SFZSpecs.midiValue, defaults: everyValue, controllers)
        controllerBounds(lower: "start_lohdcc&", upper: "start_hihdcc&", SFZSpecs.normalized, scale: 127, defaults: everyValue, controllers)
        integer("sustain_cc", SFZSpecs.controllerNumber) { r, _, v in r.trigger.sustainController = v }
        integer("sostenuto_cc", SFZSpecs.controllerNumber) { r, _, v in r.trigger.sostenutoController = v }
        real("sustain_lo", SFZSpecs.midiValue) { r, _, v in r.trigger.sustainThreshold = v }
        real("sostenuto_lo", SFZSpecs.midiValue) { r, _, v in r.trigger.sostenutoThreshold = v }
        flag("sustain_sw") { r, _, v in r.trigger.followsSustain = v }
        flag("sostenuto_sw") { r, _, v in r.trigger.followsSostenuto = v }
    }
}
