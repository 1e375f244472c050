/// Where FluidSynth's file player plays a MIDI file's events: a comparison aid.
///
/// FluidSynth (2.3 to 2.6, `fluid_player_callback`) sends a file's events once per 64-sample
/// block on a whole-millisecond clock. Before block k it takes
/// `msec = floor(64k · 1000 / rate)` and
/// `cur_ticks = start_ticks + (int)((msec − start_msec) / ms_per_tick + 0.5)`, where
/// `ms_per_tick` is the tempo over the division in single precision, and sends every event with
/// tick ≤ `cur_ticks`, track by track; they sound from sample 64(k + 1). The player starts at
/// block 0 with `start_msec = start_ticks = 0`; a tempo event sets `start_msec` and
/// `start_ticks` to its block's `msec` and `cur_ticks` (not to its own tick). Onsets land
/// 1.5–3 ms late, with jitter.
///
/// Polyphon places every event on its exact sample. To measure how close its *synthesis* is to
/// FluidSynth's, render ``alignedToFluidSynthDispatch(sampleRate:)`` with Polyphon and the
/// original file with FluidSynth: both then start every event on the same sample.
extension MIDIFile {
    /// The file with every event moved to the sample where FluidSynth's file player plays it at
    /// `sampleRate`: one tick is one output frame, so an event's tick is that frame.
    ///
    /// The division becomes `rate / gcd(rate, 1 000 000)` ticks per quarter note with one tempo
    /// event at tick 0 (the file's own tempo events are dropped: their effect is in the ticks).
    /// Tracks, their order and everything else they hold are kept, so events on one frame play
    /// in FluidSynth's order (earlier track first).
    ///
    /// - Throws: ``FluidSynthDispatchError`` for files FluidSynth's player refuses (SMPTE
    ///   division, format 2) and sample rates whose frame no tempo can express.
    public func alignedToFluidSynthDispatch(sampleRate: Int) throws(FluidSynthDispatchError) -> MIDIFile {
        guard case .ticksPerQuarterNote(let ticksPerQuarter) = division else { throw .smpteDivision }
        guard format != .independentTracks else { throw .independentTracks }
        guard let frameTempo = FrameTempo(sampleRate: sampleRate) else { throw .sampleRate(sampleRate) }

        // Every event's frame, walking all tracks in tick order (file order on a tick): the
        // clock only moves forward, and a tempo event changes it for the blocks after its own.
        var clock = FluidSynthPlayerClock(sampleRate: sampleRate, ticksPerQuarterNote: Int(ticksPerQuarter))
        var newTicks = tracks.map { [Int](repeating: 0, count: $0.events.count) }
        var order: [(tick: Int, track: Int, index: Int)] = []
        order.reserveCapacity(newTicks.reduce(0) { $0 + $1.count })
        for (t, track) in tracks.enumerated() {
            for (i, event) in track.events.enumerated() { order.append((event.tick, t, i)) }
        }
        order.sort { ($0.tick, $0.track, $0.index) < ($1.tick, $1.track, $1.index) }
        for key in order {
            newTicks[key.track][key.index] = Int(clock.frame(ofTick: key.tick))
            if case .meta(.tempo(let microseconds)) = tracks[key.track].events[key.index].message {
                clock.changeTempo(microseconds)
            }
        }

        var aligned: [MIDITrack] = []
        for (t, track) in tracks.enumerated() {
            var events: [MIDIEvent] = []
            if t == 0 {
                events.append(MIDIEvent(tick: 0, message: .meta(.tempo(microsecondsPerQuarterNote: frameTempo.microsecondsPerQuarterNote))))
            }
            for (i, event) in track.events.enumerated() {
                if case .meta(.tempo) = event.message { continue }
                events.append(MIDIEvent(tick: newTicks[t][i], message: event.message))
            }
            aligned.append(MIDITrack(events: events))
        }
        return MIDIFile(format: format, division: .ticksPerQuarterNote(UInt16(frameTempo.ticksPerQuarterNote)),
                        tracks: aligned)
    }
}

/// Why a file cannot be aligned to FluidSynth's dispatch.
public enum FluidSynthDispatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// FluidSynth's player refuses SMPTE divisions.
    case smpteDivision
    /// FluidSynth's player refuses format-2 files.
    case independentTracks
    /// No tempo makes one tick one frame at this rate (the reduced fraction 1 000 000 / rate
    /// needs a division above 32767).
    case sampleRate(Int)

    public var description: String {
        switch self {
        case .smpteDivision: return "FluidSynth's player does not play files with an SMPTE division"
        case .independentTracks: return "FluidSynth's player does not play format-2 files"
        case .sampleRate(let rate): return "no MIDI tempo makes one tick one frame at \(rate) Hz"
        }
    }
}

/// A division and tempo that make one tick exactly one frame: ticks per quarter note `d` and
/// `t` µs per quarter with t / d = 1 000 000 / rate, in lowest terms.
struct FrameTempo {
    var ticksPerQuarterNote: Int
    var microsecondsPerQuarterNote: UInt32

    init?(sampleRate: Int) {
        guard sampleRate > 0 else { return nil }
        var a = 1_000_000, b = sampleRate
        while b != 0 { (a, b) = (b, a % b) }
        let d = sampleRate / a, t = 1_000_000 / a
        guard d <= 32767, t <= 0xFF_FFFF else { return nil }
        ticksPerQuarterNote = d
        microsecondsPerQuarterNote = UInt32(t)
    }
}

/// FluidSynth's file-player clock: which block sends the events of a tick, as its
/// `fluid_player_callback` computes it (see ``MIDIFile/alignedToFluidSynthDispatch(sampleRate:)``).
struct FluidSynthPlayerClock {
    static let blockSize: Int64 = 64

    let sampleRate: Int64
    let ticksPerQuarterNote: Int
    /// `deltatime`: milliseconds per tick, in single precision as FluidSynth keeps it.
    var millisecondsPerTick: Float
    var startMilliseconds: Int64 = 0
    var startTicks: Int64 = 0
    /// The block that sent the latest event; events never go back in time.
    var block: Int64 = 0

    init(sampleRate: Int, ticksPerQuarterNote: Int) {
        self.sampleRate = Int64(sampleRate)
        self.ticksPerQuarterNote = ticksPerQuarterNote
        millisecondsPerTick = Self.millisecondsPerTick(500_000, ticksPerQuarterNote: ticksPerQuarterNote)
    }

    static func millisecondsPerTick(_ microseconds: UInt32, ticksPerQuarterNote: Int) -> Float {
        // (float)tempo / (float)division / (float)1000.0; a tempo of 0 would divide by zero there.
        Float(max(microseconds, 1)) / Float(ticksPerQuarterNote) / 1000
    }

    /// `msec` before block k: 1000 · 64k / rate, truncated.
    func milliseconds(atBlock k: Int64) -> Int64 {
        Int64((1000.0 * Double(k * Self.blockSize) / Double(sampleRate)).rounded(.down))
    }

    /// `cur_ticks` of block k under the current tempo.
    func ticks(atBlock k: Int64) -> Int64 {
        let elapsed = Double(milliseconds(atBlock: k) - startMilliseconds)
        let ticks = (elapsed / Double(millisecondsPerTick) + 0.5).rounded(.towardZero)
        return startTicks + Int64(min(ticks, 1e15))  // bounded: a hostile file's tick cannot trap
    }

    /// The frame the events of `tick` sound from: 64(k + 1) for the first block k, from the
    /// latest one on, whose `cur_ticks` reaches `tick`. Moves the clock to that block.
    mutating func frame(ofTick tick: Int) -> Int64 {
        // Bounded so that a hostile file's tick stays within 64-bit frames at the slowest tempo.
        let target = Int64(min(tick, 1 << 40))
        if ticks(atBlock: block) < target {
            // cur_ticks grows with k: find the first block reaching the tick by doubling, then
            // bisecting, so a file asking for centuries costs no more than a short one.
            var low = block, step: Int64 = 1
            var high = block + step
            while ticks(atBlock: high) < target {
                low = high
                step *= 2
                high = block + step
            }
            while high - low > 1 {
                let middle = low + (high - low) / 2
                if ticks(atBlock: middle) < target { low = middle } else { high = middle }
            }
            block = high
        }
        return (block + 1) * Self.blockSize
    }

    /// A tempo event sent in the current block: the clock restarts from the block.
    mutating func changeTempo(_ microsecondsPerQuarterNote: UInt32) {
        startTicks = ticks(atBlock: block)
        startMilliseconds = milliseconds(atBlock: block)
        millisecondsPerTick = Self.millisecondsPerTick(microsecondsPerQuarterNote, ticksPerQuarterNote: ticksPerQuarterNote)
    }
}
