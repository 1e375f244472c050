import PolyphonMIDI

/// What ``PlaybackEngine`` plays: a timeline, which of its tracks sound, which callbacks it
/// produces and the loop it repeats.
///
/// Immutable once built. The player builds a new plan for every change on its control side and
/// publishes it; the engine switches at the start of its next block and reads it without locks,
/// retains or releases (the player keeps every plan alive until the engine has moved past it).
final class PlaybackPlan: @unchecked Sendable {
    /// Which callbacks the engine produces.
    struct CallbackFlags {
        var eventCategories: Set<SongEvent.Category>? = nil
        var eventTracks: Set<Int>? = nil
        var events = false
        var beats = false
        var bars = false
        var markers = false
        var lyrics = false
        var loops = false

        var any: Bool { events || beats || bars || markers || lyrics || loops }
    }

    /// A point of the metric grid.
    struct GridPoint {
        var frame: Int64
        var beat: PlayerBeat
    }

    let timeline: Timeline
    /// The loop to repeat (the timeline's own, or a range set in beats), if any.
    let loop: TimelineLoop?
    /// Per track: whether its notes sound (mute and solo resolved); empty: all do.
    let audible: [Bool]
    let flags: CallbackFlags
    /// Per category raw value and per track: whether played events of it produce callbacks.
    let eventCallbackCategories: [Bool]
    let eventCallbackTracks: [Bool]
    /// Beats and bars up to the end of the song, when their callbacks are on.
    let grid: [GridPoint]
    /// Publication number, increasing; set by the player.
    var generation = 0

    /// A plan that plays every track and produces no callbacks (an offline render).
    convenience init(timeline: Timeline, loop: TimelineLoop?) {
        self.init(timeline: timeline, loop: loop, audible: [], flags: CallbackFlags(), grid: [])
    }

    init(timeline: Timeline, loop: TimelineLoop?, audible: [Bool], flags: CallbackFlags, grid: [GridPoint]) {
        self.timeline = timeline
        self.loop = loop
        self.audible = audible
        self.flags = flags
        self.grid = grid
        eventCallbackCategories = SongEvent.Category.allCases.map { flags.eventCategories?.contains($0) ?? true }
        let trackCount = (timeline.events.map(\.track).max() ?? -1) + 1
        eventCallbackTracks = (0..<trackCount).map { flags.eventTracks?.contains($0) ?? true }
    }

    /// The first grid point at or after a frame.
    func firstGridPoint(atOrAfter frame: Double) -> Int {
        var low = 0, high = grid.count
        while low < high {
            let middle = (low + high) / 2
            if Double(grid[middle].frame) < frame { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The metric grid of a song up to its end: beats of the time signature's unit, a new bar
    /// where a signature changes.
    static func grid(of song: Song, sampleRate: Double) -> [GridPoint] {
        let map = song.tempoMap
        let ticks = Double(song.ticksPerQuarterNote)
        var lastTick = 0
        let tickOf: (Double) -> Int = { Int(($0 * ticks).rounded()) }
        for change in song.tempoChanges { lastTick = max(lastTick, tickOf(change.beat)) }
        for change in song.timeSignatureChanges { lastTick = max(lastTick, tickOf(change.beat)) }
        for track in song.tracks {
            if let end = track.endBeat { lastTick = max(lastTick, tickOf(end)) }
            for event in track.events {
                var end = event.beat
                if case .note(let note) = event.kind { end += note.duration }
                lastTick = max(lastTick, tickOf(end))
            }
        }
        var grid: [GridPoint] = []
        let lengthBeats = map.beats(atTick: lastTick)
        var position = 0.0
        var bar = 0
        let changes = song.timeSignatureChanges
        while position < lengthBeats || (position == 0 && lengthBeats == 0) {
            let signature = song.timeSignature(atBeat: position)
            let unit = signature.denominator > 0 ? 4 / Double(signature.denominator) : 1
            let beatsPerBar = max(1, Int(signature.numerator))
            for beatInBar in 0..<beatsPerBar {
                let at = position + Double(beatInBar) * unit
                if at >= lengthBeats && !(at == 0) { break }
                // A signature change in the middle of a bar starts a new bar there.
                if beatInBar > 0, changes.contains(where: { $0.beat > position && $0.beat <= at }) { break }
                grid.append(GridPoint(frame: Int64((map.seconds(atBeats: at) * sampleRate).rounded()),
                                      beat: PlayerBeat(bar: bar, beatInBar: beatInBar, position: at)))
            }
            let nextBar = position + Double(beatsPerBar) * unit
            let interrupting = changes.first { $0.beat > position && $0.beat < nextBar }?.beat
            position = interrupting ?? nextBar
            bar += 1
            if lengthBeats == 0 { break }
        }
        return grid
    }
}
