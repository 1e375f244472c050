import Atomics
import Foundation
import PolyphonMIDI
import PolyphonSoundFont
import PolyphonSynth

/// Plays a `Song` (or a Standard MIDI File) through a `Synthesizer`, driven by whoever pulls
/// audio from it.
///
/// The player owns no audio device. Audio comes out of ``render(left:right:frameCount:)``: an
/// offline bounce calls it in a loop (see ``renderToCompletion(blockSize:maximumDuration:into:)``),
/// a live output calls it from its real-time thread. Rendering allocates nothing, takes no lock
/// and never blocks.
///
/// ## Threads
/// One thread at a time renders (``render(left:right:frameCount:)``): the **render** thread. Any
/// other thread may use the rest of the API (the **control** side), which a lock keeps
/// consistent; the render thread never takes that lock. The control side talks to the render
/// thread through a lock-free command queue and by publishing immutable snapshots of the song;
/// the render thread talks back through a lock-free callback queue that the control side drains
/// with ``deliverCallbacks()`` (or a queue started with
/// ``startDeliveringCallbacks(on:interval:)``), running the handlers on the draining thread.
///
/// ## Editing while playing
/// Change ``song`` (or call ``edit(_:)``) at any time: the render thread switches to the new
/// song at the start of its next block. Notes already sounding keep the note-off they were
/// started with, so an edit can neither cut nor hang a note; a tempo change keeps the musical
/// position.
///
/// ```swift
/// let player = try MIDIPlayer(song: song, soundBank: bank)
/// player.prepareToPlay()
/// player.play { print("done") }
/// // on the audio thread: player.render(left: l, right: r, frameCount: n)
/// // on the main thread, regularly: player.deliverCallbacks()
/// ```
public final class MIDIPlayer: @unchecked Sendable {
    /// The engine the player drives. Touch it only from the render thread (or while nothing
    /// renders), like any `Synthesizer`.
    public let synthesizer: Synthesizer
    /// The output sample rate.
    public var sampleRate: Double { synthesizer.sampleRate }

    // MARK: Control-side state

    private var songValue: Song
    /// True when ``songValue`` or the settings changed since the last published timeline.
    private var timelineIsStale = false
    private var muted: Set<Int> = []
    private var soloed: Set<Int> = []
    private var flags = PlayerTimeline.CallbackFlags()
    /// The latest timeline built on the control side.
    private var latestTimeline: PlayerTimeline
    /// Timelines the render thread may still read; released once it has moved past them.
    private var liveTimelines: [PlayerTimeline] = []
    private var nextGeneration = 1
    /// Seek plans the render thread may still read.
    private var liveSeekPlans: [SeekPlan] = []
    private var nextCommandSerial = 1
    private var rateValue = 1.0
    private var loopValue: PlayerLoop?
    private var maximumTailValue = 10.0
    private var isPaused = false
    /// Run by ``deliverCallbacks()`` at completion; internal so a bounce can keep it.
    var completionHandler: (() -> Void)?
    private var eventHandler: ((PlayerCallback) -> Void)?
    private var beatHandler: ((PlayerCallback) -> Void)?
    private var barHandler: ((PlayerCallback) -> Void)?
    private var markerHandler: ((PlayerCallback) -> Void)?
    private var lyricHandler: ((PlayerCallback) -> Void)?
    private var deliveryTimer: DispatchSourceTimer?
    /// Guards the control-side state, so any thread may call the control API (the render thread
    /// never takes it).
    private let controlLock = NSRecursiveLock()
    /// The song changed since its SF3 samples were last decoded ahead (``prepareToPlay()``).
    private var samplesNeedPreloading = true

    // MARK: Shared between the threads (lock-free)

    let pendingTimeline = ManagedAtomic<UnsafeMutableRawPointer?>(nil)
    let renderGeneration = ManagedAtomic<Int>(0)
    let liftsPedalsAtEndFlag = ManagedAtomic<Bool>(true)
    let appliedCommandSerial = ManagedAtomic<Int>(0)
    let positionBits = ManagedAtomic<UInt64>(0)
    let playingFlag = ManagedAtomic<Bool>(false)
    let droppedCallbackCount = ManagedAtomic<Int>(0)
    let lastCompletionFrame = ManagedAtomic<Int64>(-1)
    let commands: SPSCRing<PlayerCommand>
    let callbacks: SPSCRing<PlayerCallback>

    // MARK: Render-side state (touched only inside render)

    var renderTimeline: Unmanaged<PlayerTimeline>
    var renderState = RenderState.stopped
    /// The song position in frames at rate 1 (fractional when the rate is not 1).
    var position = 0.0
    var nextEvent = 0
    var nextGridPoint = 0
    var renderRate = 1.0
    var renderLoop: PlayerLoop?
    /// Jumps back still to make: −1 for forever.
    var loopJumpsLeft = 0
    var loopStartFrame = 0.0
    var loopEndFrame = 0.0
    var renderMaximumTail = 10.0
    let activeNotes: UnsafeMutablePointer<ActiveNote>
    let activeNoteCapacity: Int
    var activeNoteCount = 0
    var outputFrame: Int64 = 0
    var tailFrames: Int64 = 0

    /// Creates a player for a song.
    ///
    /// - Parameters:
    ///   - song: what to play.
    ///   - soundBank: the instruments.
    ///   - sampleRate: the output rate.
    ///   - configuration: the synthesizer's settings; its channel count grows to fit the ports
    ///     the song uses.
    ///   - callbackCapacity: how many callbacks may wait for delivery before new ones are
    ///     dropped (counted in ``droppedCallbacks``).
    ///   - threads: threads the synthesizer spreads its voices over, the render thread
    ///     included (``RenderThreads``); the sound is the same for any count.
    /// - Throws: `SynthesizerError` for an unsupported rate or configuration.
    public init(song: Song, soundBank: SoundFont, sampleRate: Double = 44100,
                configuration: SynthesizerConfiguration = SynthesizerConfiguration(),
                callbackCapacity: Int = 4096, threads: Int = 1) throws {
        var configuration = configuration
        var highestPort = 0
        for track in song.tracks {
            for event in track.events {
                if case .meta(.port(let port)) = event.kind { highestPort = max(highestPort, Int(min(port, 15))) }
            }
        }
        configuration.channelCount = min(256, max(configuration.channelCount, 16 * (highestPort + 1)))
        synthesizer = try Synthesizer(soundBank: soundBank, sampleRate: sampleRate, configuration: configuration,
                                      threads: threads > 1 ? RenderThreads(count: threads) : nil)
        songValue = song
        commands = SPSCRing(minimumCapacity: 256)
        callbacks = SPSCRing(minimumCapacity: callbackCapacity)
        activeNoteCapacity = max(256, configuration.polyphony * 2)
        activeNotes = .allocate(capacity: activeNoteCapacity)
        let timeline = PlayerTimeline(song: song, sampleRate: sampleRate,
                                      channelPorts: max(1, configuration.channelCount / 16),
                                      muted: [], soloed: [], flags: flags)
        timeline.generation = 0
        latestTimeline = timeline
        liveTimelines = [timeline]
        renderTimeline = Unmanaged.passUnretained(timeline)
    }

    /// Creates a player for a Standard MIDI File (read with `Song.init(midiFile:)`).
    ///
    /// - Throws: `MIDIFileError` when the file cannot be read, `SynthesizerError` for an
    ///   unsupported configuration.
    public convenience init(contentsOf url: URL, soundBank: SoundFont, sampleRate: Double = 44100,
                            configuration: SynthesizerConfiguration = SynthesizerConfiguration()) throws {
        try self.init(song: Song(contentsOf: url), soundBank: soundBank, sampleRate: sampleRate,
                      configuration: configuration)
    }

    /// Creates a player for a Standard MIDI File and a SoundFont file.
    public convenience init(contentsOf url: URL, soundBankURL: URL, sampleRate: Double = 44100,
                            configuration: SynthesizerConfiguration = SynthesizerConfiguration()) throws {
        try self.init(contentsOf: url, soundBank: SoundFont(contentsOf: soundBankURL), sampleRate: sampleRate,
                      configuration: configuration)
    }

    deinit {
        deliveryTimer?.cancel()
        activeNotes.deallocate()
    }

    // MARK: - The song

    /// The song being played. Setting it (or editing it in place) takes effect at the render
    /// thread's next block while playing; while stopped, at the next ``prepareToPlay()``,
    /// ``play(completion:)`` or seek, so building a song edit by edit costs nothing.
    public var song: Song {
        get { controlLock.lock(); defer { controlLock.unlock() }; return songValue }
        set {
            controlLock.lock(); defer { controlLock.unlock() }
            songValue = newValue
            timelineIsStale = true
            samplesNeedPreloading = true
            if isPlaying || isPaused { publishTimeline() }
        }
    }

    /// Edits the song in place (see ``song``).
    public func edit(_ body: (inout Song) -> Void) {
        controlLock.lock(); defer { controlLock.unlock() }
        body(&songValue)
        timelineIsStale = true
        samplesNeedPreloading = true
        if isPlaying || isPaused { publishTimeline() }
    }

    /// Gets the song ready to play: builds its timeline (event frames, beat grid) and hands it
    /// to the render side, so that ``play(completion:)`` starts at once. The synthesizer
    /// resolved every preset of the bank when the player was created; an SF3 bank's samples for
    /// the presets the song plays are decoded here, on every core, not on the render thread.
    public func prepareToPlay() {
        controlLock.lock(); defer { controlLock.unlock() }
        if timelineIsStale { publishTimeline() }
        if samplesNeedPreloading {
            samplesNeedPreloading = false
            let bank = synthesizer.soundBank
            if bank.sampleData.decoder != nil {
                let file = songValue.midiFile(ticksPerQuarterNote: songValue.ticksPerQuarterNote)
                let schedule = MIDISchedule(file: file, sampleRate: synthesizer.sampleRate)
                _ = try? bank.preloadSamples(forPresetsAt: schedule.presetsPlayed(in: bank))
            }
        }
        releaseRetiredObjects()
    }

    // MARK: - Transport

    /// Whether the song is playing (including the tail after its last event).
    public var isPlaying: Bool { playingFlag.load(ordering: .acquiring) }

    /// Starts or resumes playback.
    ///
    /// From a stop, playback starts at ``currentPosition`` (at the beginning when the song had
    /// completed and no seek followed) with the synthesizer reset and the controllers chased; after ``pause()`` it
    /// resumes where it paused.
    ///
    /// - Parameter completion: called by ``deliverCallbacks()`` once the song and its tail have
    ///   ended (not when stopped or paused).
    public func play(completion: (() -> Void)? = nil) {
        controlLock.lock(); defer { controlLock.unlock() }
        prepareToPlay()
        completionHandler = completion
        if isPlaying { return }
        if !isPaused {
            var start = currentPosition
            // After the song completed (and no seek since), play it again from the start.
            if start >= duration || lastCompletionFrame.load(ordering: .acquiring) >= 0 { start = 0 }
            enqueueSeek(toSeconds: start)
        }
        isPaused = false
        lastCompletionFrame.store(-1, ordering: .relaxed)
        playingFlag.store(true, ordering: .releasing)
        send(.play)
    }

    /// Starts playback keeping the completion handler already set (for a bounce).
    func playKeepingCompletionHandler() {
        controlLock.lock(); defer { controlLock.unlock() }
        play(completion: completionHandler)
    }

    /// Plays the song and returns once it and its tail have ended. Callbacks must be delivered
    /// meanwhile (``startDeliveringCallbacks(on:interval:)``) and something must render.
    public func play() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            play(completion: { continuation.resume() })
        }
    }

    /// Stops playback; sounding notes are released. The position stays where it was, and the
    /// next ``play(completion:)`` starts there with the synthesizer reset and chased.
    public func stop() {
        controlLock.lock(); defer { controlLock.unlock() }
        isPaused = false
        playingFlag.store(false, ordering: .releasing)
        send(.stop)
    }

    /// Pauses playback; sounding notes are released, and ``play(completion:)`` resumes.
    public func pause() {
        controlLock.lock(); defer { controlLock.unlock() }
        guard isPlaying else { return }
        isPaused = true
        playingFlag.store(false, ordering: .releasing)
        send(.pause)
    }

    /// The position in seconds of the song (at rate 1). Setting it seeks: the render side
    /// silences sounding notes, resets the synthesizer and restores every controller, program
    /// and pitch bend the song has set before the new position ("chase"), as a DAW does.
    public var currentPosition: Double {
        get { min(Double(bitPattern: positionBits.load(ordering: .acquiring)) / sampleRate, duration) }
        set {
            controlLock.lock(); defer { controlLock.unlock() }
            prepareToPlay()
            lastCompletionFrame.store(-1, ordering: .relaxed)
            enqueueSeek(toSeconds: min(max(0, newValue), duration))
        }
    }

    /// The position in quarter notes.
    public var currentBeat: Double {
        get { controlLock.lock(); defer { controlLock.unlock() }; return latestTimeline.tempoMap.beats(atSeconds: currentPosition) }
        set {
            controlLock.lock(); defer { controlLock.unlock() }
            prepareToPlay()
            currentPosition = latestTimeline.tempoMap.seconds(atBeats: max(0, newValue))
        }
    }

    /// The song's length in seconds at rate 1 (its last event, note end or end of track).
    public var duration: Double {
        controlLock.lock(); defer { controlLock.unlock() }
        if timelineIsStale { return songValue.duration }
        return latestTimeline.duration
    }

    /// The playback speed: 2 plays twice as fast (the song lasts half as long), 0.5 half as
    /// fast. The pitch does not change. Clamped to 0.01…100.
    public var rate: Double {
        get { controlLock.lock(); defer { controlLock.unlock() }; return rateValue }
        set {
            controlLock.lock(); defer { controlLock.unlock() }
            rateValue = min(max(newValue.isFinite ? newValue : 1, 0.01), 100)
            send(.rate(rateValue))
        }
    }

    /// A range to repeat, or `nil`. Set it before or during playback; it applies when the
    /// position next reaches the range's end.
    public var loop: PlayerLoop? {
        get { controlLock.lock(); defer { controlLock.unlock() }; return loopValue }
        set {
            controlLock.lock(); defer { controlLock.unlock() }
            loopValue = newValue
            send(.loop(newValue))
        }
    }

    /// Whether the sustain and sostenuto pedals still down when the song ends are lifted, and
    /// every note released, so they ring out and stop (default true, as FluidSynth's player and
    /// the offline renderer do); false keeps them down, so those notes ring until they die or
    /// the tail's limit.
    public var liftsPedalsAtEnd: Bool {
        get { liftsPedalsAtEndFlag.load(ordering: .relaxed) }
        set { liftsPedalsAtEndFlag.store(newValue, ordering: .relaxed) }
    }

    /// The longest the tail after the last event may ring, in seconds (default 10, as the
    /// offline renderer's ``RenderOptions/maxTail``).
    public var maximumTail: Double {
        get { controlLock.lock(); defer { controlLock.unlock() }; return maximumTailValue }
        set {
            controlLock.lock(); defer { controlLock.unlock() }
            maximumTailValue = max(0, newValue)
            send(.maximumTail(maximumTailValue))
        }
    }

    // MARK: - Mute and solo

    /// Mutes or unmutes a track's notes (its other events still play, so unmuting sounds
    /// right). Notes of the track that sound when it is muted are released at the next block.
    public func setMuted(_ isMuted: Bool, track: Int) {
        controlLock.lock(); defer { controlLock.unlock() }
        if isMuted { muted.insert(track) } else { muted.remove(track) }
        publishSettings()
    }

    /// Solos or unsolos a track: while any track is soloed, only soloed tracks' notes sound.
    public func setSoloed(_ isSoloed: Bool, track: Int) {
        controlLock.lock(); defer { controlLock.unlock() }
        if isSoloed { soloed.insert(track) } else { soloed.remove(track) }
        publishSettings()
    }

    /// Whether a track is muted.
    public func isMuted(track: Int) -> Bool { controlLock.lock(); defer { controlLock.unlock() }; return muted.contains(track) }

    /// Whether a track is soloed.
    public func isSoloed(track: Int) -> Bool { controlLock.lock(); defer { controlLock.unlock() }; return soloed.contains(track) }

    // MARK: - Callbacks

    /// Calls `handler` for every played event the filter lets through; `nil` stops them.
    ///
    /// A note's callback comes at its start. Notes that do not sound (their track is muted or
    /// not soloed, or the player already tracks its maximum number of sounding notes) produce
    /// none; a track's other events still do.
    public func onEvent(_ filter: PlayerEventFilter = PlayerEventFilter(), _ handler: ((PlayerCallback) -> Void)?) {
        controlLock.lock(); defer { controlLock.unlock() }
        eventHandler = handler
        flags.events = handler != nil
        flags.eventCategories = filter.categories
        flags.eventTracks = filter.tracks
        publishSettings()
    }

    /// Calls `handler` at every beat of the time signature; `nil` stops them.
    public func onBeat(_ handler: ((PlayerCallback) -> Void)?) {
        controlLock.lock(); defer { controlLock.unlock() }
        beatHandler = handler
        flags.beats = handler != nil
        publishSettings()
    }

    /// Calls `handler` at every bar; `nil` stops them.
    public func onBar(_ handler: ((PlayerCallback) -> Void)?) {
        controlLock.lock(); defer { controlLock.unlock() }
        barHandler = handler
        flags.bars = handler != nil
        publishSettings()
    }

    /// Calls `handler` at every marker and cue point; `nil` stops them.
    public func onMarker(_ handler: ((PlayerCallback) -> Void)?) {
        controlLock.lock(); defer { controlLock.unlock() }
        markerHandler = handler
        flags.markers = handler != nil
        publishSettings()
    }

    /// Calls `handler` at every lyric; `nil` stops them.
    public func onLyric(_ handler: ((PlayerCallback) -> Void)?) {
        controlLock.lock(); defer { controlLock.unlock() }
        lyricHandler = handler
        flags.lyrics = handler != nil
        publishSettings()
    }

    /// Runs the handlers of every callback the render thread has produced since the last call,
    /// in order, on the calling thread; returns how many there were.
    @discardableResult
    public func deliverCallbacks() -> Int {
        // Collected under the control lock (one consumer at a time), run outside it so a
        // handler may call the player, from this thread or another.
        var work: [(PlayerCallback, ((PlayerCallback) -> Void)?)] = []
        var completion: (() -> Void)?
        controlLock.lock()
        while let callback = callbacks.pop() {
            switch callback.kind {
            case .event: work.append((callback, eventHandler))
            case .beat: work.append((callback, beatHandler))
            case .bar: work.append((callback, barHandler))
            case .marker: work.append((callback, markerHandler))
            case .lyric: work.append((callback, lyricHandler))
            case .completion:
                isPaused = false
                completion = completionHandler
                completionHandler = nil
                work.append((callback, nil))
            }
        }
        releaseRetiredObjects()
        controlLock.unlock()
        for (callback, handler) in work {
            if case .completion = callback.kind { completion?() } else { handler?(callback) }
        }
        return work.count
    }

    /// Callbacks dropped because the queue was full (deliver more often, or raise the capacity).
    public var droppedCallbacks: Int { droppedCallbackCount.load(ordering: .relaxed) }

    /// Delivers callbacks on a dispatch queue every `interval` seconds (see
    /// ``deliverCallbacks()``). The queue then acts as the control thread for the handlers.
    public func startDeliveringCallbacks(on queue: DispatchQueue, interval: TimeInterval = 0.005) {
        controlLock.lock(); defer { controlLock.unlock() }
        stopDeliveringCallbacks()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: interval)
        timer.setEventHandler { [weak self] in self?.deliverCallbacks() }
        timer.resume()
        deliveryTimer = timer
    }

    /// Stops the delivery started by ``startDeliveringCallbacks(on:interval:)``.
    public func stopDeliveringCallbacks() {
        controlLock.lock(); defer { controlLock.unlock() }
        deliveryTimer?.cancel()
        deliveryTimer = nil
    }

    // MARK: - Publishing to the render thread

    private func publishTimeline() {
        let timeline = PlayerTimeline(song: songValue, sampleRate: sampleRate,
                                      channelPorts: max(1, synthesizer.configuration.channelCount / 16),
                                      muted: muted, soloed: soloed, flags: flags)
        publish(timeline)
    }

    /// Publishes new mute, solo or callback settings; the events are shared, not rebuilt.
    private func publishSettings() {
        if timelineIsStale {
            publishTimeline()
        } else {
            publish(PlayerTimeline(copying: latestTimeline, muted: muted, soloed: soloed, flags: flags))
        }
    }

    private func publish(_ timeline: PlayerTimeline) {
        timeline.generation = nextGeneration
        nextGeneration += 1
        liveTimelines.append(timeline)
        latestTimeline = timeline
        timelineIsStale = false
        // Unretained: `liveTimelines` keeps it alive until the render thread has moved past it,
        // so the render thread never retains or releases a timeline (no free on that thread).
        pendingTimeline.store(Unmanaged.passUnretained(timeline).toOpaque(), ordering: .releasing)
        releaseRetiredObjects()
    }

    private func enqueueSeek(toSeconds seconds: Double) {
        let frame = seconds * sampleRate
        let plan = SeekPlan(frame: frame, chase: latestTimeline.chase(before: Int64(frame.rounded(.up))))
        liveSeekPlans.append(plan)
        positionBits.store(frame.bitPattern, ordering: .releasing)
        plan.serial = send(.seek(Unmanaged.passUnretained(plan)))
    }

    @discardableResult
    private func send(_ kind: PlayerCommand.Kind) -> Int {
        let serial = nextCommandSerial
        nextCommandSerial += 1
        // The render side drains the queue every block; a full queue means nothing renders at
        // the moment, so waiting would never end: the command waits in `overflowCommands`
        // (behind any already waiting, to keep the order) and is pushed on a later call.
        let command = PlayerCommand(serial: serial, kind: kind)
        flushOverflowCommands()
        if !overflowCommands.isEmpty || !commands.push(command) { overflowCommands.append(command) }
        return serial
    }

    /// Commands that did not fit in the queue, retried on every control call.
    private var overflowCommands: [PlayerCommand] = []

    private func flushOverflowCommands() {
        while let first = overflowCommands.first, commands.push(first) { overflowCommands.removeFirst() }
    }

    /// Drops timelines and seek plans the render thread can no longer read.
    private func releaseRetiredObjects() {
        flushOverflowCommands()
        let inUse = renderGeneration.load(ordering: .acquiring)
        liveTimelines.removeAll { $0.generation < inUse && $0 !== latestTimeline }
        let applied = appliedCommandSerial.load(ordering: .acquiring)
        liveSeekPlans.removeAll { $0.serial != 0 && $0.serial <= applied }
    }
}

/// A request from the control thread to the render thread.
struct PlayerCommand {
    enum Kind {
        case play, pause, stop
        case seek(Unmanaged<SeekPlan>)
        case rate(Double)
        case loop(PlayerLoop?)
        case maximumTail(Double)
    }

    var serial: Int
    var kind: Kind
}

/// What the render thread is doing.
enum RenderState {
    case stopped, paused, playing
    /// After the last event: waiting for the voices and effects to die away.
    case tail
}

/// A note the render thread started and still has to end.
struct ActiveNote {
    var channel: UInt8
    var port: Int
    var key: UInt8
    var releaseVelocity: UInt8
    /// Song frame of the note-off.
    var endFrame: Double
    var track: Int
}
