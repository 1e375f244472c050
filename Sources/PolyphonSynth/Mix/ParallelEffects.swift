/// Runs the effect units of a chunk side by side on a ``RenderThreadPool``: every reverb and
/// every chorus of every bus is a task that writes its wet signal into a buffer of its own
/// (``Reverb/process(input:storingTo:_:frameCount:)``), then the render thread adds the wet
/// signals to the buses as one thread adds them — on each bus the reverb, then the chorus — so
/// every output sample is the same sum, the same bytes.
///
/// The units are independent (each has its own state and reads only its own send), which is
/// what lets them run at once; within a unit the samples follow each other through its delay
/// lines, so one unit is never split. With one bus, reverb and chorus on, that is two tasks:
/// the effects, a large serial share of a render with effects on, take the longer of the two
/// instead of their sum.
final class ParallelEffects: ParallelRenderWork {
    let threads: any RenderThreadPool
    private let buses: [OutputBus]
    /// One task per effect unit: its bus and whether it is the reverb (else the chorus).
    private let units: [(bus: Int, isReverb: Bool)]
    private let capacity: Int
    /// Each unit's wet signal, `capacity` frames apart.
    private let wetLeft: UnsafeMutablePointer<Float>
    private let wetRight: UnsafeMutablePointer<Float>
    private var start = 0
    private var count = 0
    /// Chunks whose effects ran side by side so far (for tests).
    private(set) var chunksRun = 0
    /// Times the units while set (``RenderProfile``).
    var profile: RenderProfile?

    /// Frames a chunk's effects must span to be spread over threads: fewer cost less than the
    /// hand-off (the reverb and chorus take some 40–90 ns a frame each).
    static let minimumFrames = 128

    /// Nil when the buses hold fewer than two effect units (nothing to run side by side) or
    /// the pool has one thread.
    init?(threads: (any RenderThreadPool)?, buses: [OutputBus], capacity: Int) {
        guard let threads, threads.threadCount > 1 else { return nil }
        var units: [(bus: Int, isReverb: Bool)] = []
        for (b, bus) in buses.enumerated() {
            if bus.reverb != nil { units.append((b, true)) }
            if bus.chorus != nil { units.append((b, false)) }
        }
        guard units.count > 1 else { return nil }
        self.threads = threads
        self.buses = buses
        self.units = units
        self.capacity = capacity
        wetLeft = .allocate(filledWith: 0, count: units.count * capacity)
        wetRight = .allocate(filledWith: 0, count: units.count * capacity)
    }

    deinit {
        wetLeft.deallocate()
        wetRight.deallocate()
    }

    /// Runs every unit over frames `start ..< start + count` and adds their wet signals to the buses.
    func run(from start: Int, count: Int) {
        self.start = start
        self.count = count
        let t0 = profile?.clock() ?? 0
        threads.perform(self, taskCount: units.count)
        if let profile { profile.parallelEffectsTime &+= profile.clock() &- t0 }
        chunksRun &+= 1
        // In the order OutputBus.runEffects adds them: per bus, reverb then chorus.
        for (u, unit) in units.enumerated() {
            let bus = buses[unit.bus]
            let l = bus.left + start, r = bus.right + start
            let wl = wetLeft + u * capacity, wr = wetRight + u * capacity
            for i in 0..<count {
                l[i] += wl[i]
                r[i] += wr[i]
            }
        }
    }

    func performTask(_ index: Int, thread: Int) {
        // Other threads compute in the render thread's floating-point mode (the same bits).
        if thread == 0 {
            runUnit(index)
        } else {
            DenormalMode.flushingToZero { runUnit(index) }
        }
    }

    private func runUnit(_ u: Int) {
        let unit = units[u], bus = buses[unit.bus]
        let wl = wetLeft + u * capacity, wr = wetRight + u * capacity
        if unit.isReverb {
            bus.reverb?.process(input: bus.reverbSend + start, storingTo: wl, wr, frameCount: count)
        } else {
            bus.chorus?.process(input: bus.chorusSend + start, storingTo: wl, wr, frameCount: count)
        }
    }
}
