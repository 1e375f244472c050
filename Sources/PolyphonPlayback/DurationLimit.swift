import PolyphonMIDI

/// How much audio a render may produce at most, so a file that asks for years of audio (a
/// 30-byte MIDI file can: a delta time of 0x0FFFFFFF ticks at the slowest tempo is 142 years)
/// is refused up front instead of running for hours and filling the disk.
///
/// The check reads only the file's events and tempo map: a song longer than the limit is an
/// error naming the track, tick and time of its first event past it, before anything renders.
/// The render loop also stops at the limit, so a tail can never take a render past it.
public struct DurationLimit: Sendable, Hashable {
    /// The default: four hours of audio.
    public static let defaultSeconds: Double = 4 * 3600

    /// Seconds of audio (lead-in, song and tail) a render may produce; `nil` for no limit.
    public var seconds: Double?

    public init(seconds: Double? = DurationLimit.defaultSeconds) { self.seconds = seconds }

    /// No limit.
    public static let none = DurationLimit(seconds: nil)

    /// The limit in frames at `sampleRate` (`Int64.max` for none).
    func frames(sampleRate: Double) -> Int64 {
        guard let seconds else { return .max }
        let frames = seconds * sampleRate
        return frames >= Double(Int64.max / 2) ? .max : Int64(max(0, frames))
    }

    /// Throws if any event of `file` (an end of track included) falls later than the limit,
    /// `leadIn` seconds counted in.
    /// - Throws: ``DurationLimitError`` naming the earliest such event.
    public func check(_ file: MIDIFile, leadIn: Double = 0) throws(DurationLimitError) {
        guard let seconds else { return }
        let sharedMap = file.format == .independentTracks ? nil : file.tempoMap()
        var first: DurationLimitError?
        for (index, track) in file.tracks.enumerated() {
            guard let lastTick = track.events.last?.tick else { continue }
            let map = sharedMap ?? file.tempoMap(track: index)
            guard map.seconds(atTick: lastTick) + leadIn > seconds else { continue }
            // Events are in tick order within a track: the first one past the limit.
            var low = 0, high = track.events.count - 1
            while low < high {
                let mid = (low + high) / 2
                if map.seconds(atTick: track.events[mid].tick) + leadIn > seconds { high = mid } else { low = mid + 1 }
            }
            let tick = track.events[low].tick
            let time = map.seconds(atTick: tick) + leadIn
            if first == nil || time < first!.eventSeconds {
                first = DurationLimitError(trackIndex: index, tick: tick, eventSeconds: time, limitSeconds: seconds)
            }
        }
        if let first { throw first }
    }
}

/// A song that lasts longer than the render's ``DurationLimit``.
public struct DurationLimitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's name, when the caller knows it (the command line fills it in).
    public var fileName: String?
    /// The track of the first event past the limit.
    public var trackIndex: Int
    /// That event's tick.
    public var tick: Int
    /// That event's time in seconds (lead-in included).
    public var eventSeconds: Double
    /// The limit in seconds.
    public var limitSeconds: Double

    public init(fileName: String? = nil, trackIndex: Int, tick: Int, eventSeconds: Double, limitSeconds: Double) {
        self.fileName = fileName
        self.trackIndex = trackIndex
        self.tick = tick
        self.eventSeconds = eventSeconds
        self.limitSeconds = limitSeconds
    }

    /// One line, e.g. `long.mid: track 0, tick 268435455 (at 142.0 years): past the maximum
    /// duration of 4.0 h (raise it with --max-duration)`.
    public var description: String {
        let name = fileName.map { "\($0): " } ?? ""
        return "\(name)track \(trackIndex), tick \(tick) (at \(Self.span(eventSeconds))): past the maximum duration of "
            + "\(Self.span(limitSeconds)) (raise it with --max-duration)"
    }

    /// Seconds in the largest unit that keeps the figure readable.
    static func span(_ seconds: Double) -> String {
        func one(_ value: Double, _ unit: String) -> String {
            let tenths = (value * 10).rounded()
            return tenths >= 1e15 ? "\(value) \(unit)" : "\(Int64(tenths) / 10).\(Int64(tenths) % 10) \(unit)"
        }
        if seconds < 120 { return one(seconds, "s") }
        if seconds < 2 * 3600 { return one(seconds / 60, "min") }
        if seconds < 3 * 86400 { return one(seconds / 3600, "h") }
        if seconds < 2 * 365.25 * 86400 { return one(seconds / 86400, "days") }
        return one(seconds / (365.25 * 86400), "years")
    }
}
