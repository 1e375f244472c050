import Foundation
import PolyphonMIDI

/// The handlers the control side runs for the render thread's callbacks.
struct PlayerCallbackHandlers {
    var event: ((PlayerCallback) -> Void)?
    var beat: ((PlayerCallback) -> Void)?
    var bar: ((PlayerCallback) -> Void)?
    var marker: ((PlayerCallback) -> Void)?
    var lyric: ((PlayerCallback) -> Void)?
    var loop: ((PlayerCallback) -> Void)?
}

extension MIDIPlayer {
    /// Calls `handler` for every played event the filter lets through; `nil` stops them.
    ///
    /// A note's callback comes at its start. Notes that do not sound (their track is muted or
    /// not soloed, or the player already tracks its maximum number of sounding notes) produce
    /// none; a track's other events still do.
    public func onEvent(_ filter: PlayerEventFilter = PlayerEventFilter(), _ handler: ((PlayerCallback) -> Void)?) {
        controlLock.lock(); defer { controlLock.unlock() }
        handlers.event = handler
        flags.events = handler != nil
        flags.eventCategories = filter.categories
        flags.eventTracks = filter.tracks
        publishSettings()
    }

    /// Calls `handler` at every beat of the time signature; `nil` stops them.
    public func onBeat(_ handler: ((PlayerCallback) -> Void)?) {
        controlLock.lock(); defer { controlLock.unlock() }
        handlers.beat = handler
        flags.beats = handler != nil
        publishSettings()
    }

    /// Calls `handler` at every bar; `nil` stops them.
    public func onBar(_ handler: ((PlayerCallback) -> Void)?) {
        controlLock.lock(); defer { controlLock.unlock() }
        handlers.bar = handler
        flags.bars = handler != nil
        publishSettings()
    }

    /// Calls `handler` at every marker and cue point; `nil` stops them.
    public func onMarker(_ handler: ((PlayerCallback) -> Void)?) {
        controlLock.lock(); defer { controlLock.unlock() }
        handlers.marker = handler
        flags.markers = handler != nil
        publishSettings()
    }

    /// Calls `handler` at every lyric; `nil` stops them.
    public func onLyric(_ handler: ((PlayerCallback) -> Void)?) {
        controlLock.lock(); defer { controlLock.unlock() }
        handlers.lyric = handler
        flags.lyrics = handler != nil
        publishSettings()
    }

    /// Calls `handler` at every jump back to a loop's start (``numberOfLoops``, ``loop``), with
    /// the pass that begins (``PlayerCallback/Kind/loop(pass:)``: 2 for the first repeat) on
    /// the output frame of the jump; `nil` stops them.
    public func onLoop(_ handler: ((PlayerCallback) -> Void)?) {
        controlLock.lock(); defer { controlLock.unlock() }
        handlers.loop = handler
        flags.loops = handler != nil
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
        while let callback = mailbox.callbacks.pop() {
            switch callback.kind {
            case .event: work.append((callback, handlers.event))
            case .beat: work.append((callback, handlers.beat))
            case .bar: work.append((callback, handlers.bar))
            case .marker: work.append((callback, handlers.marker))
            case .lyric: work.append((callback, handlers.lyric))
            case .loop: work.append((callback, handlers.loop))
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
    public var droppedCallbacks: Int { mailbox.droppedCallbacks.load(ordering: .relaxed) }

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
}
