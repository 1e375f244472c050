import PolyphonSFZCore
import PolyphonSoundFontCore

/// An SFZ region's play-time rules as the zone's ``PlayCondition``: what the synthesizer
/// checks against the channel's state at note-on and note-off, in sfizz's terms.
enum SFZPlayConditionMapping {
    /// The condition of `region`'s zone, nil when it plays whenever its keys and velocities hold
    /// the note. `counter` is the zone's own round-robin counter (each zone counts for itself,
    /// as each sfizz region does; the two zones of a stereo file count alike).
    static func condition(_ region: SFZRegion, counter: Int, defaultKeyswitch: UInt8?) -> PlayCondition? {
        guard needsCondition(region) else { return nil }
        var condition = PlayCondition()
        let selection = region.selection
        condition.trigger = switch region.trigger.kind {
        case .attack: .attack
        case .release: .release
        case .releaseKey: .releaseKey
        case .first: .first
        case .legato: .legato
        }
        condition.releaseDecay = region.trigger.releaseDecay
        condition.releasePlaysAfterAttackEnded = region.trigger.playsAfterAttackEnded
        condition.channels = closed(selection.channels.lower, selection.channels.upper)
        condition.controllers = selection.controllers.compactMap { range in
            guard (0..<128).contains(range.controller) else { return nil }
            return PlayCondition.ControllerRange(controller: UInt8(range.controller), lower: range.range.lower,
                                                 upper: range.range.upper)
        }
        condition.pitchBend = closed(selection.pitchBend.lower, selection.pitchBend.upper)
        condition.programs = closed(selection.programs.lower, selection.programs.upper)
        condition.channelPressure = closed(UInt8(clamping: Int(selection.channelPressure.lower.rounded(.up))),
                                           UInt8(clamping: Int(selection.channelPressure.upper.rounded(.down))))
        condition.keyPressure = closed(UInt8(clamping: Int(selection.keyPressure.lower.rounded(.up))),
                                       UInt8(clamping: Int(selection.keyPressure.upper.rounded(.down))))
        condition.randomLower = selection.random.lower
        condition.randomUpper = selection.random.upper
        condition.sequenceLength = max(selection.sequenceLength, 1)
        condition.sequencePosition = selection.sequencePosition
        condition.counter = counter
        let keyswitch = selection.keyswitch
        if let range = keyswitch.lastRange {
            condition.lastKeyswitch = closed(range.lower, range.upper)
        } else if let last = keyswitch.last {
            condition.lastKeyswitch = last...last
        }
        condition.defaultKeyswitch = defaultKeyswitch
        condition.keyDown = keyswitch.down
        condition.keyUp = keyswitch.up
        condition.previousKey = keyswitch.previous
        condition.ignoresNoteOff = region.playback.loopMode == .oneShot
        let polyphony = region.polyphony
        condition.group = Int(clamping: polyphony.group)
        condition.offBy = polyphony.offBy.map { Int(clamping: $0) }
        condition.offTime = switch polyphony.offMode {
        case .fast: 0.006
        case .time: polyphony.offTime
        case .normal: nil
        }
        return condition
    }

    /// Whether anything beyond keys and velocities decides when or how the region plays.
    static func needsCondition(_ region: SFZRegion) -> Bool {
        let selection = region.selection
        return region.trigger.kind != .attack || selection.sequenceLength > 1 || selection.random != SFZRange(0, 1)
            || selection.keyswitch.isUsed || !selection.controllers.isEmpty
            || selection.pitchBend != SFZRange(-8192, 8192) || selection.channels != SFZRange(1, 16)
            || selection.channelPressure != SFZRange(0, 127) || selection.keyPressure != SFZRange(0, 127)
            || selection.programs != SFZRange(0, 127) || region.playback.loopMode == .oneShot
            || region.polyphony.group != 0 || region.polyphony.offBy != nil
    }

    /// Whether the region can never play: a condition range written backwards.
    static func isUnreachable(_ region: SFZRegion) -> Bool {
        let selection = region.selection
        return selection.channels.isEmpty || selection.pitchBend.isEmpty || selection.programs.isEmpty
            || selection.channelPressure.isEmpty || selection.keyPressure.isEmpty
            || selection.controllers.contains { $0.range.isEmpty }
            || (selection.keyswitch.lastRange?.isEmpty ?? false)
    }

    private static func closed<T: Comparable>(_ lower: T, _ upper: T) -> ClosedRange<T> {
        lower <= upper ? lower...upper : upper...lower
    }
}
