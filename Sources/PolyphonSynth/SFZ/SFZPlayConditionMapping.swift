import PolyphonSFZCore
import PolyphonSoundFontCore

/// An SFZ region's play-time rules as the zone's ``PlayCondition``: what the synthesizer
/// checks against the channel's state at note-on and note-off, in sfizz's terms.
enum SFZPlayConditionMapping {
    /// The condition of `region`'s zone (every SFZ zone has one: its voices follow sfizz's
    /// pedal and voice limits). `counter` is the zone's own round-robin counter (each zone
    /// counts for itself, as each sfizz region does; the two zones of a stereo file count
    /// alike), `regionIndex` tells its region from the instrument's others, `groupLimits` the
    /// instrument's polyphony-group limits (``groupLimits(_:)``).
    static func condition(_ region: SFZRegion, counter: Int, defaultKeyswitch: UInt8?, regionIndex: Int,
                          groupLimits: [Int64: Int]) -> PlayCondition {
        var condition = PlayCondition()
        condition.region = regionIndex
        condition.polyphony = limits(region, groupLimits: groupLimits)
        let trigger = region.trigger
        // sfizz: the pedal is down from `sustain_lo` (1 of 127 by default) on.
        let threshold = min(max(trigger.sustainThreshold.rounded(.up), 0), 127)
        condition.sustainPedal = SustainPedal(controller: UInt8(clamping: trigger.sustainController),
                                              threshold: UInt8(threshold), isFollowed: trigger.followsSustain
                                                  && (0..<128).contains(trigger.sustainController))
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

    /// The region's voice limits: its own `polyphony`, its polyphony group's, `note_polyphony`
    /// and the limits of the headers above it.
    static func limits(_ region: SFZRegion, groupLimits: [Int64: Int]) -> PolyphonyLimits {
        var limits = PolyphonyLimits()
        let polyphony = region.polyphony
        limits.region = polyphony.limit
        limits.group = polyphony.group != 0 ? groupLimits[polyphony.group] : nil
        limits.note = polyphony.noteLimit
        limits.noteSelfMask = polyphony.noteSelfMask
        limits.headers = polyphony.headerLimits.prefix(3).map { header in
            // One id space for the three kinds of block.
            PolyphonyLimits.HeaderLimit(header: header.index &* 4 &+ header.header.rawValue, limit: header.limit)
        }
        return limits
    }

    /// The limit of each polyphony group: `polyphony` on the last region of `group=N` that sets
    /// one (sfizz sets the group's limit from each such region as it loads them).
    static func groupLimits(_ regions: [SFZRegion]) -> [Int64: Int] {
        var limits: [Int64: Int] = [:]
        for region in regions where region.polyphony.group != 0 {
            if let limit = region.polyphony.limit { limits[region.polyphony.group] = limit }
        }
        return limits
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
