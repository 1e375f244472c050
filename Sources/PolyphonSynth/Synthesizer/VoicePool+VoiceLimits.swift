import PolyphonSoundFontCore

/// Voice limits of zones with play conditions (SFZ `polyphony`, `note_polyphony`,
/// `note_selfmask`), checked as sfizz checks them before a voice starts: the key's limit in the
/// zone's polyphony group, the region's, the polyphony group's, then each header's. Past a
/// limit the oldest voice counted stops (``stop(_:_:)``: its `off_mode` fade); for
/// `note_polyphony` the softest first, and with `note_selfmask` on only voices struck no harder
/// than the new note. Counted per channel (one sfizz instance each), a stereo file's two voices
/// as one, stopped voices not at all.
extension VoicePool {
    /// Stops what starting a voice of `condition` (preset `p`) on `key` at `velocity` puts over
    /// its limits.
    func enforceLimits(_ condition: PlayCondition, preset p: Int, _ ch: Channel, key: Int, velocity: Int,
                       _ context: RenderContext) {
        let limits = condition.polyphony
        if let limit = limits.note {
            limitNote(limit, selfMask: limits.noteSelfMask, group: condition.group, preset: p, ch, key: key,
                      velocity: velocity, context)
        }
        if let limit = limits.region {
            limitVoices(limit, ch, context) { $0.preset == p && $0.region == condition.region }
        }
        if let limit = limits.group {
            limitVoices(limit, ch, context) { $0.preset == p && $0.group == condition.group }
        }
        for header in limits.headers {
            let id = Int32(truncatingIfNeeded: header.header)
            limitVoices(header.limit, ch, context) { note in
                note.preset == p && (note.headers[0] == id || note.headers[1] == id || note.headers[2] == id)
            }
        }
    }

    /// The ids of the limited headers a voice sits under (−1 for none), for ``Voice/Note/headers``.
    static func headerIDs(_ limits: PolyphonyLimits) -> SIMD3<Int32> {
        var ids = SIMD3<Int32>(repeating: -1)
        for (i, header) in limits.headers.prefix(3).enumerated() { ids[i] = Int32(truncatingIfNeeded: header.header) }
        return ids
    }

    /// Whether voice `i` counts on `channel`: sounding or releasing there, not stopped, not
    /// the second of a stereo pair.
    @inline(__always)
    private func counts(_ i: Int, onChannel channel: Int) -> Bool {
        voices[i].isActive && voices[i].note.channel == channel && !voices[i].note.isStopped && !voices[i].note.isTwin
    }

    /// With `maximum` or more voices matching `matches` on the channel, stops the oldest (and
    /// its stereo twin): room for the one starting.
    private func limitVoices(_ maximum: Int, _ ch: Channel, _ context: RenderContext, _ matches: (Voice.Note) -> Bool) {
        var count = 0
        var oldest = -1
        for i in 0..<limit where counts(i, onChannel: ch.index) && matches(voices[i].note) {
            count += 1
            if oldest < 0 || voices[i].note.serial < voices[oldest].note.serial { oldest = i }
        }
        if count >= maximum && oldest >= 0 { stopWithTwin(oldest, context) }
    }

    /// `note_polyphony`: voices of the polyphony group on `key` beyond `maximum − 1` stop, the
    /// softest first (with `selfMask`, only those struck no harder than `velocity`), else the
    /// oldest first.
    private func limitNote(_ maximum: Int, selfMask: Bool, group: Int, preset p: Int, _ ch: Channel, key: Int,
                           velocity: Int, _ context: RenderContext) {
        func candidate(_ i: Int) -> Bool {
            counts(i, onChannel: ch.index) && voices[i].note.preset == p && voices[i].note.group == group
                && voices[i].note.key == key
        }
        var count = 0
        for i in 0..<limit where candidate(i) { count += 1 }
        while count > maximum - 1 {
            var victim = -1
            for i in 0..<limit where candidate(i) {
                let note = voices[i].note
                if selfMask {
                    guard note.velocity <= velocity else { continue }
                    if victim < 0 || note.velocity < voices[victim].note.velocity { victim = i }
                } else if victim < 0 || note.serial < voices[victim].note.serial {
                    victim = i
                }
            }
            guard victim >= 0 else { return }
            stopWithTwin(victim, context)
            count -= 1
        }
    }

    /// Stops voice `i` and the other voice of its stereo pair (same region, key and start).
    private func stopWithTwin(_ i: Int, _ context: RenderContext) {
        let note = voices[i].note
        forEachActive(onChannel: note.channel) { v in
            guard !v.note.isStopped, v.note.preset == note.preset, v.note.region == note.region,
                  v.note.key == note.key, v.note.startFrame == note.startFrame else { return }
            stop(&v, context)
        }
    }
}
