import Atomics
import Foundation
import PolyphonLockFree
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
/// One thread at a time renders (``render(left:right:frameCount:)``): the **render** thread,
/// which drives the engine the offline renderer also runs (the song's timeline, its loop and
/// tail rules). Any other thread may use the rest of the API (the **control** side), which a
/// lock keeps consistent; the render thread never takes that lock. The two sides share only a
/// mailbox: a lock-free command queue and immutable plans of the song published to the render
/// thread, a lock-free callback queue back that the control side drains with
/// ``deliverCallbacks()`` (or a queue started with ``startDeliveringCallbacks(on:interval:)``),
/// running the handlers on the draining thread, and a few atomics.
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

    // MARK: Control-side state (under `controlLock`)

    var songValue: Song
    /// True when ``songValue`` changed since the last published plan.
    private var timelineIsStale = false
    private var muted: Set<Int> = []
    private var soloed: Set<Int> = []
    var flags = PlaybackPlan.CallbackFlags()
    /// The latest plan built on the control side.
    private var latestPlan: PlaybackPlan
    /// Plans the render thread may still read; released once it has moved past them.
    private var livePlans: [PlaybackPlan] = []
    private var nextGeneration = 1
    /// Seek plans the render thread may still read.
    private var liveSeekPlans: [SeekPlan] = []
    private var nextCommandSerial = 1
    private var rateValue = 1.0
    private var loopValue: PlayerLoop?
    private var numberOfLoopsValue = 0
    /// The loop the song marks, found when ``numberOfLoops`` first needs it after a change.
    private var markedLoop: MIDILoop??
    private var maximumTailValue = 10.0
    var isPaused = false
    /// Run by ``deliverCallbacks()`` at completion; internal so a bounce can keep it.
    var completionHandler: (() -> Void)?
    var handlers = PlayerCallbackHandlers()
    var deliveryTimer: DispatchSourceTimer?
    /// Guards the control-side state, so any thread may call the control API (the render thread
    /// never takes it).
    let controlLock = NSRecursiveLock()
    /// The song changed since its SF3 samples were last decoded ahead (``prepareToPlay()``).
    private var samplesNeedPreloading = true

    // MARK: The two sides

    /// What the control side and the render thread share.
    let mailbox: PlayerMailbox
    /// The render thread's engine: touched only inside ``render(left:right:frameCount:)``.
    let engine: PlaybackEngine

    /// The output frame of the last completion (−1: none since the last play).
    var lastCompletionFrame: ManagedAtomic<Int64> { mailbox.completionFrame }

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
        mailbox = PlayerMailbox(callbackCapacity: callbackCapacity)
        let timeline = Timeline(song: song, sampleRate: sampleRate, channelPorts: max(1, configuration.channelCount / 16))
        let plan = PlaybackPlan(timeline: timeline, loop: nil, audible: song.tracks.map { _ in true },
                                flags: flags, grid: [])
        plan.generation = 0
        latestPlan = plan
        livePlans = [plan]
        engine = PlaybackEngine(synthesizer: synthesizer, plan: plan, noteCapacity: max(256, configuration.polyphony * 2),
                                callbacks: mailbox)
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
            songChanged()
        }
    }

    private func songChanged() {
        timelineIsStale = true
        samplesNeedPreloading = true
        markedLoop = nil
        if isPlaying || isPaused { publishPlan() }
    }

    /// Edits the song in place (see ``song``).
    public func edit(_ body: (inout Song) -> Void) {
        controlLock.lock(); defer { controlLock.unlock() }
        body(&songValue)
        songChanged()
    }

    /// Gets the song ready to play: builds its timeline (event frames, beat grid) and hands it
    /// to the render side, so that ``play(completion:)`` starts at once. The synthesizer
    /// resolved every preset of the bank when the player was created; an SF3 bank's samples for
    /// the presets the song plays are decoded here, on every core, not on the render thread.
    public func prepareToPlay() {
        controlLock.lock(); defer { controlLock.unlock() }
        if timelineIsStale { publishPlan() }
        if samplesNeedPreloading {
            samplesNeedPreloading = false
            let bank = synthesizer.soundBank
            if bank.sampleData.decoder != nil {
                _ = try? bank.preloadSamples(forPresetsAt: latestPlan.timeline.presetsPlayed(in: bank))
            }
        }
        releaseRetiredObjects()
    }

    // MARK: - Transport

    /// Whether the song is playing (including the tail after its last event).
    public var isPlaying: Bool { mailbox.isPlaying.load(ordering: .acquiring) }

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
            if start >= duration || mailbox.completionFrame.load(ordering: .acquiring) >= 0 { start = 0 }
            enqueueSeek(toSeconds: start)
            // Every play from a stop repeats the loop as often as asked.
            send(.loopJumps(loopJumps))
        }
        isPaused = false
        mailbox.completionFrame.store(-1, ordering: .relaxed)
        mailbox.isPlaying.store(true, ordering: .releasing)
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
        mailbox.isPlaying.store(false, ordering: .releasing)
        send(.stop)
    }

    /// Pauses playback; sounding notes are released, and ``play(completion:)`` resumes.
    public func pause() {
        controlLock.lock(); defer { controlLock.unlock() }
        guard isPlaying else { return }
        isPaused = true
        mailbox.isPlaying.store(false, ordering: .releasing)
        send(.pause)
    }

    /// The position in seconds of the song (at rate 1). Setting it seeks: the render side
    /// silences sounding notes, resets the synthesizer and restores every controller, program
    /// and pitch bend the song has set before the new position ("chase"), as a DAW does.
    public var currentPosition: Double {
        get { min(Double(bitPattern: mailbox.positionBits.load(ordering: .acquiring)) / sampleRate, duration) }
        set {
            controlLock.lock(); defer { controlLock.unlock() }
            prepareToPlay()
            mailbox.completionFrame.store(-1, ordering: .relaxed)
            enqueueSeek(toSeconds: min(max(0, newValue), duration))
        }
    }

    /// The position in quarter notes.
    public var currentBeat: Double {
        get { controlLock.lock(); defer { controlLock.unlock() }; return latestPlan.timeline.tempoMap.beats(atSeconds: currentPosition) }
        set {
            controlLock.lock(); defer { controlLock.unlock() }
            prepareToPlay()
            currentPosition = latestPlan.timeline.tempoMap.seconds(atBeats: max(0, newValue))
        }
    }

    /// The song's length in seconds at rate 1 (its last event, note end or end of track).
    public var duration: Double {
        controlLock.lock(); defer { controlLock.unlock() }
        if timelineIsStale { return songValue.duration }
        return latestPlan.timeline.duration
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
    /// position next reaches the range's end, and takes the place of the song's own loop
    /// (``numberOfLoops``).
    public var loop: PlayerLoop? {
        get { controlLock.lock(); defer { controlLock.unlock() }; return loopValue }
        set {
            controlLock.lock(); defer { controlLock.unlock() }
            loopValue = newValue
            publishSettings()
            send(.loopJumps(loopJumps))
        }
    }

    /// How many times playback jumps back to the start of the loop the song marks (controller
    /// 111, `loopStart`/`loopEnd` markers or EMIDI controllers 116/117: `MIDILoop`) before it
    /// plays on past the loop's end, as `AVAudioPlayer.numberOfLoops` counts: 0 (the default)
    /// plays the song as written, 1 plays the loop twice, a negative value repeats it until
    /// playback stops. The jump is sample-exact: the notes still held are released and ring on,
    /// the controllers, programs and pitch bends the loop began with are restored, and
    /// ``onLoop(_:)`` reports it. A song without a loop plays as written; ``loop`` takes the
    /// song's place when set.
    public var numberOfLoops: Int {
        get { controlLock.lock(); defer { controlLock.unlock() }; return numberOfLoopsValue }
        set {
            controlLock.lock(); defer { controlLock.unlock() }
            let changedLooping = (newValue != 0) != (numberOfLoopsValue != 0)
            numberOfLoopsValue = newValue
            if changedLooping { timelineIsStale = true; publishPlan() }
            send(.loopJumps(loopJumps))
        }
    }

    /// The loop the song marks, if any (`MIDILoop`).
    public var songLoop: MIDILoop? {
        controlLock.lock(); defer { controlLock.unlock() }
        return songMarkedLoop
    }

    private var songMarkedLoop: MIDILoop? {
        if let markedLoop { return markedLoop }
        let found = songValue.findLoop().loop
        markedLoop = .some(found)
        return found
    }

    /// The jumps back the current loop settings ask for (−1: for ever).
    private var loopJumps: Int {
        if let loopValue {
            switch loopValue.count {
            case .times(let times): return max(0, times - 1)
            case .forever: return -1
            }
        }
        return numberOfLoopsValue < 0 ? -1 : numberOfLoopsValue
    }

    /// Whether the sustain and sostenuto pedals still down when the song ends are lifted, and
    /// every note released, so they ring out and stop (default true, as FluidSynth's player and
    /// the offline renderer do); false keeps them down, so those notes ring until they die or
    /// the tail's limit.
    public var liftsPedalsAtEnd: Bool {
        get { mailbox.liftsPedalsAtEnd.load(ordering: .relaxed) }
        set { mailbox.liftsPedalsAtEnd.store(newValue, ordering: .relaxed) }
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

    // MARK: - Publishing to the render thread

    /// Builds and publishes a plan: the song's timeline (rebuilt when the song changed), the
    /// loop, mute and solo, and the callbacks asked for.
    func publishPlan() {
        let timeline: Timeline
        if timelineIsStale || numberOfLoopsValue != 0 && latestPlan.timeline.loop == nil && songMarkedLoop != nil {
            timeline = Timeline(song: songValue, sampleRate: sampleRate,
                                channelPorts: max(1, synthesizer.configuration.channelCount / 16),
                                loop: numberOfLoopsValue != 0 ? songMarkedLoop : nil)
        } else {
            timeline = latestPlan.timeline
        }
        let loop = loopValue.map { timeline.loop(beats: $0.beats) } ?? (numberOfLoopsValue != 0 ? timeline.loop : nil)
        let wantsGrid = flags.beats || flags.bars
        let grid = !wantsGrid ? [] : !timelineIsStale && !latestPlan.grid.isEmpty ? latestPlan.grid
            : PlaybackPlan.grid(of: songValue, sampleRate: sampleRate)
        let anySolo = !soloed.isEmpty
        let audible = songValue.tracks.indices.map { !muted.contains($0) && (!anySolo || soloed.contains($0)) }
        publish(PlaybackPlan(timeline: timeline, loop: loop, audible: audible, flags: flags, grid: grid))
    }

    /// Publishes new mute, solo, loop or callback settings (the song's timeline is shared).
    func publishSettings() {
        publishPlan()
    }

    private func publish(_ plan: PlaybackPlan) {
        plan.generation = nextGeneration
        nextGeneration += 1
        livePlans.append(plan)
        latestPlan = plan
        timelineIsStale = false
        // Unretained: `livePlans` keeps it alive until the render thread has moved past it,
        // so the render thread never retains or releases a plan (no free on that thread).
        mailbox.pendingPlan.store(Unmanaged.passUnretained(plan).toOpaque(), ordering: .releasing)
        releaseRetiredObjects()
    }

    private func enqueueSeek(toSeconds seconds: Double) {
        let frame = seconds * sampleRate
        let plan = SeekPlan(frame: frame, chase: latestPlan.timeline.chase(before: Int64(frame.rounded(.up))))
        liveSeekPlans.append(plan)
        mailbox.positionBits.store(frame.bitPattern, ordering: .releasing)
        plan.serial = send(.seek(Unmanaged.passUnretained(plan)))
    }

    @discardableResult
    func send(_ kind: PlayerCommand.Kind) -> Int {
        let serial = nextCommandSerial
        nextCommandSerial += 1
        // The render side drains the queue every block; a full queue means nothing renders at
        // the moment, so waiting would never end: the command waits in `overflowCommands`
        // (behind any already waiting, to keep the order) and is pushed on a later call.
        let command = PlayerCommand(serial: serial, kind: kind)
        flushOverflowCommands()
        if !overflowCommands.isEmpty || !mailbox.commands.push(command) { overflowCommands.append(command) }
        return serial
    }

    /// Commands that did not fit in the queue, retried on every control call.
    private var overflowCommands: [PlayerCommand] = []

    private func flushOverflowCommands() {
        while let first = overflowCommands.first, mailbox.commands.push(first) { overflowCommands.removeFirst() }
    }

    /// Drops plans and seek plans the render thread can no longer read.
    func releaseRetiredObjects() {
        flushOverflowCommands()
        let inUse = mailbox.planGeneration.load(ordering: .acquiring)
        livePlans.removeAll { $0.generation < inUse && $0 !== latestPlan }
        let applied = mailbox.appliedCommandSerial.load(ordering: .acquiring)
        liveSeekPlans.removeAll { $0.serial != 0 && $0.serial <= applied }
    }
}
