/// Renders the active voices of one chunk in three passes over windows of voices: each voice's
/// dry signal into its own buffer, the resonant filters eight voices at a time (one per SIMD lane,
/// which hides the filter recursion's latency), then the mix in voice-pool order.
///
/// Mixing in pool order keeps every output sample's sum in the same order however render calls
/// are sliced; the filter lanes are independent, so batching never changes a voice's sound.
/// Everything is allocated up front: rendering allocates nothing.
final class VoiceBatch {
    /// Voices rendered per window: their buffers (window × chunk floats) stay in cache.
    static let window = 32

    private let chunkFrames: Int
    private let eventCapacity: Int
    private let voiceIndices: UnsafeMutablePointer<Int>
    private let produced: UnsafeMutablePointer<Int>
    private let buffers: UnsafeMutablePointer<Float>
    private let events: UnsafeMutablePointer<FilterEvent>
    private let eventCounts: UnsafeMutablePointer<Int>
    // The lanes of a filter batch; unused lanes point at the spares.
    private let laneFilters: UnsafeMutablePointer<UnsafeMutablePointer<LowPassFilter>>
    private let laneBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private let laneEvents: UnsafeMutablePointer<UnsafePointer<FilterEvent>>
    private let laneEventCounts: UnsafeMutablePointer<Int>
    private let spareFilter: UnsafeMutablePointer<LowPassFilter>
    private let spareBuffer: UnsafeMutablePointer<Float>
    private let filterOffset: Int
    /// The oscillators' widened sample points (see ``Oscillator/scratchPoints``).
    private let scratch: UnsafeMutablePointer<Float>

    init(chunkFrames: Int) {
        self.chunkFrames = chunkFrames
        eventCapacity = Voice.maximumFilterEvents(frames: chunkFrames)
        let w = Self.window
        voiceIndices = .allocate(capacity: w)
        produced = .allocate(capacity: w)
        buffers = .allocate(capacity: w * chunkFrames)
        buffers.initialize(repeating: 0, count: w * chunkFrames)
        events = .allocate(capacity: w * eventCapacity)
        events.initialize(repeating: FilterEvent(offset: 0, kind: .flush), count: w * eventCapacity)
        eventCounts = .allocate(capacity: w)
        eventCounts.initialize(repeating: 0, count: w)
        spareFilter = .allocate(capacity: 1)
        spareFilter.initialize(to: LowPassFilter())
        spareBuffer = .allocate(capacity: chunkFrames)
        spareBuffer.initialize(repeating: 0, count: chunkFrames)
        laneFilters = .allocate(capacity: FilterBatch.lanes)
        laneFilters.initialize(repeating: spareFilter, count: FilterBatch.lanes)
        laneBuffers = .allocate(capacity: FilterBatch.lanes)
        laneBuffers.initialize(repeating: spareBuffer, count: FilterBatch.lanes)
        laneEvents = .allocate(capacity: FilterBatch.lanes)
        laneEvents.initialize(repeating: UnsafePointer(events), count: FilterBatch.lanes)
        laneEventCounts = .allocate(capacity: FilterBatch.lanes)
        laneEventCounts.initialize(repeating: 0, count: FilterBatch.lanes)
        filterOffset = MemoryLayout<Voice>.offset(of: \Voice.filter)!
        scratch = .allocate(capacity: Oscillator.scratchPoints)
        scratch.initialize(repeating: 0, count: Oscillator.scratchPoints)
    }

    deinit {
        voiceIndices.deallocate()
        produced.deallocate()
        buffers.deallocate()
        events.deallocate()
        eventCounts.deallocate()
        spareFilter.deallocate()
        spareBuffer.deallocate()
        laneFilters.deallocate()
        laneBuffers.deallocate()
        laneEvents.deallocate()
        laneEventCounts.deallocate()
        scratch.deallocate()
    }

    /// Renders `count` (≤ chunk) frames of every active voice into the buses `target(voice)` names.
    @inline(__always)
    func render(voices: UnsafeMutablePointer<Voice>, voiceCount: Int, count: Int,
                interpolation: Interpolation, tables: InterpolationTables,
                target: (Int) -> MixTarget) {
        var next = 0
        while next < voiceCount {
            var w = 0
            while next < voiceCount && w < Self.window {
                if voices[next].isActive {
                    voiceIndices[w] = next
                    w += 1
                }
                next += 1
            }
            if w == 0 { break }
            renderWindow(voices, w, count, interpolation, tables)
            for k in 0..<w where produced[k] > 0 {
                let v = voiceIndices[k]
                voices[v].mix(buffers + k * chunkFrames, produced[k], target(v))
            }
        }
    }

    private func renderWindow(_ voices: UnsafeMutablePointer<Voice>, _ w: Int, _ count: Int,
                              _ interpolation: Interpolation, _ tables: InterpolationTables) {
        var lanes = 0
        for k in 0..<w {
            let v = voiceIndices[k]
            let out = buffers + k * chunkFrames
            let voiceEvents = events + k * eventCapacity
            let n = voices[v].renderSource(count: count, into: out, events: voiceEvents,
                                           eventCount: &eventCounts[k], interpolation: interpolation,
                                           tables: tables, scratch: scratch)
            produced[k] = n
            guard n > 0 && voices[v].isFiltered else { continue }
            // The filter runs over the whole chunk: a voice that ended early feeds it silence.
            if n < count { (out + n).update(repeating: 0, count: count - n) }
            let filter = (UnsafeMutableRawPointer(voices + v) + filterOffset)
                .assumingMemoryBound(to: LowPassFilter.self)
            laneFilters[lanes] = filter
            laneBuffers[lanes] = out
            laneEvents[lanes] = UnsafePointer(voiceEvents)
            laneEventCounts[lanes] = eventCounts[k]
            lanes += 1
            if lanes == FilterBatch.lanes {
                runFilters(count)
                lanes = 0
            }
        }
        if lanes > 0 {
            for l in lanes..<FilterBatch.lanes {
                laneFilters[l] = spareFilter
                laneBuffers[l] = spareBuffer
                laneEventCounts[l] = 0
            }
            runFilters(count)
        }
    }

    @inline(__always)
    private func runFilters(_ count: Int) {
        LowPassFilter.process(FilterBatch(filters: laneFilters, buffers: laneBuffers, events: laneEvents,
                                          eventCounts: laneEventCounts), count: count)
    }
}
