/// The lanes of one filter batch being filled (``LowPassFilter/process(_:count:)``): for each,
/// a filter, the buffer it filters in place and that filter's events. Lanes left over when the
/// batch runs point at a spare filter over a silent buffer. Allocated once.
final class FilterLanes {
    /// Lanes taken so far.
    private(set) var count = 0
    let filters: UnsafeMutablePointer<UnsafeMutablePointer<LowPassFilter>>
    let buffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private let events: UnsafeMutablePointer<UnsafeMutablePointer<FilterEvent>>
    private let eventCounts: UnsafeMutablePointer<Int>
    private let spareFilter: UnsafeMutablePointer<LowPassFilter>
    private let spareBuffer: UnsafeMutablePointer<Float>
    private let spareEvent: UnsafeMutablePointer<FilterEvent>

    /// The distance between consecutive buffers of `frames` frames that are worked on side by
    /// side (a window's voices, the shared filters' inputs): one cache line more than the
    /// frames. At exactly 4 KiB apart, the same frame of every buffer has the same low 12
    /// address bits, and the core takes each load there for one that may depend on the stores
    /// just made to the others (4K aliasing): eight filter lanes, or the two halves of a stereo
    /// pair written a whole chunk at a time, then stall on their own stores.
    static func bufferStride(frames: Int) -> Int { frames + 16 }

    /// Lanes for buffers of up to `frames` frames.
    init(frames: Int) {
        let lanes = FilterBatch.lanes
        spareFilter = .allocate(filledWith: LowPassFilter(), count: 1)
        spareBuffer = .allocate(filledWith: 0, count: frames)
        spareEvent = .allocate(filledWith: FilterEvent(offset: 0, kind: .flush), count: 1)
        filters = .allocate(filledWith: spareFilter, count: lanes)
        buffers = .allocate(filledWith: spareBuffer, count: lanes)
        events = .allocate(filledWith: spareEvent, count: lanes)
        eventCounts = .allocate(filledWith: 0, count: lanes)
    }

    deinit {
        filters.deallocate()
        buffers.deallocate()
        events.deallocate()
        eventCounts.deallocate()
        spareFilter.deallocate()
        spareBuffer.deallocate()
        spareEvent.deallocate()
    }

    /// Takes the next lane; returns true when all are taken (time to ``process(frames:)``).
    @inline(__always)
    func append(_ filter: UnsafeMutablePointer<LowPassFilter>, buffer: UnsafeMutablePointer<Float>,
                events laneEvents: UnsafeMutablePointer<FilterEvent>, eventCount: Int) -> Bool {
        filters[count] = filter
        buffers[count] = buffer
        events[count] = laneEvents
        eventCounts[count] = eventCount
        count += 1
        return count == FilterBatch.lanes
    }

    /// Points the lanes not taken at the spare, filters `frames` frames of every lane and
    /// starts a new batch. Returns the lanes that were taken (``buffers`` still names them).
    @discardableResult
    func process(frames: Int) -> Int {
        let taken = count
        for l in taken..<FilterBatch.lanes {
            filters[l] = spareFilter
            buffers[l] = spareBuffer
            eventCounts[l] = 0
        }
        LowPassFilter.process(FilterBatch(filters: filters, buffers: buffers, events: events, eventCounts: eventCounts),
                              count: frames)
        count = 0
        return taken
    }
}
