import PolyphonSFZCore

/// Which regions play while the synthesizer cannot yet follow SFZ's selection state: each
/// condition evaluated as at the start of a performance — round robin at its first position,
/// the random draw 0, the instrument's default keyswitch, controllers at their `set_ccN`
/// values (else 0), pitch bend centred, no aftertouch.
///
/// So of a round-robin set or a random layer exactly one region plays (the first), and a
/// keyswitched instrument plays its default articulation, instead of every alternative at once.
struct SFZInitialState {
    let controllerDefaults: [Int: Float]
    let defaultKeyswitch: UInt8?

    init(_ instrument: SFZInstrument) {
        controllerDefaults = instrument.control.controllerDefaults
        defaultKeyswitch = instrument.defaultKeyswitch
    }

    /// Whether `selection` holds in the initial state (keys and velocities aside: the bank's
    /// key and velocity ranges decide those per note).
    func admits(_ selection: SFZSelection) -> Bool {
        if selection.sequenceLength > 1 && selection.sequencePosition != 1 { return false }
        // sfizz draws r in [0, 1) and plays lorand ≤ r < hirand.
        if !(selection.random.lower <= 0 && 0 < selection.random.upper) { return false }
        if !(selection.pitchBend.lower <= 0 && 0 <= selection.pitchBend.upper) { return false }
        if selection.channelPressure.lower > 0 || selection.keyPressure.lower > 0 { return false }
        if selection.programs.lower > 0 { return false }
        for condition in selection.controllers {
            let value = controllerDefaults[condition.controller] ?? 0
            if value < condition.range.lower || value > condition.range.upper { return false }
        }
        let keyswitch = selection.keyswitch
        if keyswitch.down != nil || keyswitch.up != nil || keyswitch.previous != nil { return false }
        if keyswitch.last != nil || keyswitch.lastRange != nil {
            guard let key = defaultKeyswitch else { return false }
            if let last = keyswitch.last, last != key { return false }
            if let range = keyswitch.lastRange, key < range.lower || key > range.upper { return false }
        }
        return true
    }

    /// Whether `selection` depends on state the synthesizer does not follow yet.
    static func dependsOnState(_ selection: SFZSelection) -> Bool {
        selection.sequenceLength > 1 || selection.random != SFZRange(0, 1) || selection.keyswitch.isUsed
            || !selection.controllers.isEmpty || selection.pitchBend != SFZRange(-8192, 8192)
            || selection.channelPressure != SFZRange(0, 127) || selection.keyPressure != SFZRange(0, 127)
            || selection.programs != SFZRange(0, 127)
    }
}
