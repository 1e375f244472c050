import Atomics

/// Plays what a render callback produces, in real time, through an ``AudioOutput``.
///
/// Two threads run while playing:
/// - the **render thread** (`polyphon-render`, real-time priority where allowed) calls the
///   render callback for fixed-size blocks and appends them to a lock-free ring. It never
///   allocates, locks or logs: when the ring is full it sleeps for a fraction of a block.
/// - the **writer thread** (`polyphon-writer`) takes one device period at a time from the ring
///   and blocks in the device's write, which paces everything to the device's clock.
///
/// A MIDI player (PolyphonPlayback), or the CLI's live synthesizer, provides the callback:
/// ```swift
/// let output = try LiveOutput()                  // the first backend that works
/// let player = try MIDIPlayer(song: song, soundBank: bank, sampleRate: output.sampleRate)
/// try output.start { left, right, frames in player.render(left: left, right: right, frameCount: frames) }
/// ```
public final class LiveOutput: @unchecked Sendable {
    // @unchecked: the configuration is immutable; the counters are atomics; the threads are
    // started and joined by one controlling thread.

    /// Fills `left` and `right` with `frameCount` frames (overwriting them). Called on the
    /// render thread: it must not allocate, lock or block.
    public typealias RenderCallback = @Sendable (_ left: UnsafeMutablePointer<Float>,
                                                 _ right: UnsafeMutablePointer<Float>,
                                                 _ frameCount: Int) -> Void

    /// The device played to.
    public let output: any AudioOutput
    /// Frames per render callback.
    public let blockFrames: Int
    /// The device's sample rate: render at this rate.
    public var sampleRate: Double { output.sampleRate }

    private let ring: SampleRing
    private let left: UnsafeMutablePointer<Float>
    private let right: UnsafeMutablePointer<Float>
    private let period: UnsafeMutablePointer<Float>
    private let running = ManagedAtomic<Bool>(false)
    private let renderFinished = ManagedAtomic<Bool>(false)
    private let framesRendered = ManagedAtomic<Int>(0)
    private let framesWritten = ManagedAtomic<Int>(0)
    private let underruns = ManagedAtomic<Int>(0)
    private let deviceUnderruns = ManagedAtomic<Int>(0)
    /// The longest render in nanoseconds.
    private let longestRender = ManagedAtomic<Int>(0)
    /// Frames written since the last one louder than ``silenceThreshold``.
    private let silentRun = ManagedAtomic<Int>(0)
    private let writeFailure = ManagedAtomic<Bool>(false)
    private var failure: AudioOutputError?
    private var renderThread: AudioThread?
    private var writerThread: AudioThread?

    /// Prepares to play through `output`.
    ///
    /// - Parameters:
    ///   - output: the opened device (or sound server stream) to play through.
    ///   - blockFrames: frames per render callback; by default the device period.
    ///   - ringPeriods: device periods the ring holds between the two threads. Together with
    ///     the device buffer this is the headroom a slow render block can use.
    public init(output: any AudioOutput, blockFrames: Int? = nil, ringPeriods: Int = 4) {
        self.output = output
        self.blockFrames = max(1, blockFrames ?? output.periodFrames)
        ring = SampleRing(capacityFrames: max(ringPeriods, 2) * max(output.periodFrames, self.blockFrames))
        left = .allocate(capacity: self.blockFrames)
        right = .allocate(capacity: self.blockFrames)
        left.initialize(repeating: 0, count: self.blockFrames)
        right.initialize(repeating: 0, count: self.blockFrames)
        period = .allocate(capacity: 2 * output.periodFrames)
        period.initialize(repeating: 0, count: 2 * output.periodFrames)
    }

    /// Opens `backend` (or the first that works) with `settings` and prepares to play.
    public convenience init(backend: AudioBackend? = nil, device: String? = nil,
                            settings: AudioOutputSettings = AudioOutputSettings()) throws(AudioOutputError) {
        if let backend {
            self.init(output: try backend.open(device: device, settings: settings))
        } else {
            self.init(output: try AudioBackend.openFirstAvailable(device: device, settings: settings))
        }
    }

    deinit {
        stop(drain: false)
        left.deallocate()
        right.deallocate()
        period.deallocate()
    }

    /// Whether the threads are running.
    public var isPlaying: Bool { running.load(ordering: .relaxed) }

    /// The counters so far (safe to read while playing).
    public var statistics: LiveOutputStatistics {
        LiveOutputStatistics(
            framesRendered: framesRendered.load(ordering: .relaxed),
            framesWritten: framesWritten.load(ordering: .relaxed),
            underruns: underruns.load(ordering: .relaxed),
            deviceUnderruns: deviceUnderruns.load(ordering: .relaxed),
            longestRender: Double(longestRender.load(ordering: .relaxed)) * 1e-9,
            blockDuration: Double(blockFrames) / output.sampleRate)
    }

    /// The level below which output counts as silence: −100 dBFS, under the 16-bit noise
    /// floor, so a reverb tail still ringing audibly is not silence.
    public static let silenceThreshold: Float = 1e-5

    /// How many of the last frames written were all below ``silenceThreshold``: lets a
    /// controller stop once a piece has died away without asking the render thread.
    public var trailingSilentFrames: Int { silentRun.load(ordering: .relaxed) }

    /// The write error that stopped the writer thread, if any.
    public var writeError: AudioOutputError? {
        writeFailure.load(ordering: .acquiring) ? failure : nil
    }

    /// Starts the render and writer threads. `render` is called on the render thread until
    /// ``stop(drain:)``.
    public func start(render: @escaping RenderCallback) throws(AudioOutputError) {
        guard !running.load(ordering: .relaxed), renderThread == nil else { return }
        running.store(true, ordering: .releasing)
        renderFinished.store(false, ordering: .releasing)
        let sleepTime = Double(blockFrames) / output.sampleRate / 4
        renderThread = AudioThread(name: "polyphon-render", realTimePriority: 10) { [self] in
            renderLoop(render, sleepTime: sleepTime)
        }
        writerThread = AudioThread(name: "polyphon-writer", realTimePriority: 9) { [self] in
            writerLoop()
        }
        guard renderThread != nil, writerThread != nil else {
            stop(drain: false)
            throw .cannotOpen(backend: output.backendName, device: output.deviceName,
                              reason: "cannot start the audio threads")
        }
    }

    /// Stops rendering; with `drain`, plays what is already rendered first. Closes nothing:
    /// call ``AudioOutput/close()`` on ``output`` when done with the device.
    public func stop(drain: Bool = true) {
        running.store(false, ordering: .releasing)
        renderThread?.join()
        renderThread = nil
        if !drain { renderFinished.store(true, ordering: .releasing) }
        writerThread?.join()
        writerThread = nil
        if drain && !writeFailure.load(ordering: .acquiring) { output.drain() }
    }

    // MARK: - The render thread: no allocation, no lock, no logging below this line.

    private func renderLoop(_ render: RenderCallback, sleepTime: Double) {
        while running.load(ordering: .acquiring) {
            guard ring.freeFrames >= blockFrames else {
                AudioThread.sleep(seconds: sleepTime)
                continue
            }
            let started = AudioThread.now()
            render(left, right, blockFrames)
            let took = Int((AudioThread.now() - started) * 1e9)
            if took > longestRender.load(ordering: .relaxed) { longestRender.store(took, ordering: .relaxed) }
            ring.write(left: left, right: right, count: blockFrames)
            framesRendered.wrappingIncrement(by: blockFrames, ordering: .relaxed)
        }
        renderFinished.store(true, ordering: .releasing)
    }

    // MARK: - The writer thread

    private func writerLoop() {
        let periodFrames = output.periodFrames
        let rate = output.sampleRate
        let pollTime = Double(periodFrames) / rate / 8
        // Wait for a little more than the device buffer before starting the device, so that
        // the first periods do not already run dry.
        let prefill = min(ring.capacityFrames, max(periodFrames, output.bufferFrames))
        while ring.availableFrames < prefill && !renderFinished.load(ordering: .acquiring) {
            AudioThread.sleep(seconds: pollTime)
        }
        // The device clock, to tell when the device ran dry. `queued` is what the device holds
        // ahead of the speaker as of `anchor`. A write that blocked found the buffer full, so
        // it re-anchors (`queued` = the buffer): that absorbs start-up delays and clock drift.
        // Unanchored (at the start and after a gap) the device is filling up to its start
        // threshold, nearly a full buffer for both ALSA and PulseAudio, and consumes nothing.
        var anchor = -1.0
        var queued = 0
        let blockedWrite = max(0.001, 0.5 * Double(periodFrames) / rate)
        while true {
            let available = ring.availableFrames
            if available < periodFrames && !renderFinished.load(ordering: .acquiring) {
                AudioThread.sleep(seconds: pollTime)
                continue
            }
            let count = ring.read(into: period, count: min(available, periodFrames))
            if count == 0 { break }
            var peak: Float = 0
            for i in 0..<(2 * count) { peak = max(peak, abs(period[i])) }
            if peak < Self.silenceThreshold {
                silentRun.wrappingIncrement(by: count, ordering: .relaxed)
            } else {
                silentRun.store(0, ordering: .relaxed)
            }
            let before = AudioThread.now()
            do {
                if try output.write(period, frameCount: count) {
                    deviceUnderruns.wrappingIncrement(ordering: .relaxed)
                    underruns.wrappingIncrement(ordering: .relaxed)
                    anchor = -1
                    queued = 0
                }
            } catch {
                failure = error
                writeFailure.store(true, ordering: .releasing)
                return
            }
            let now = AudioThread.now()
            if now - before > blockedWrite {
                anchor = now
                queued = output.bufferFrames
            } else if anchor < 0 {
                queued += count
                if queued >= output.bufferFrames - periodFrames { anchor = now }
            } else {
                queued += count
                // What the device has played since the anchor passed what it held (by more
                // than a period, for scheduling jitter): the listener heard a gap.
                if Int((now - anchor) * rate) > queued + periodFrames {
                    underruns.wrappingIncrement(ordering: .relaxed)
                    anchor = -1
                    queued = count
                }
            }
            framesWritten.wrappingIncrement(by: count, ordering: .relaxed)
        }
    }
}
