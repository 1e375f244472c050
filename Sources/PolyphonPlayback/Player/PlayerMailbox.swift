import Atomics
import PolyphonLockFree

/// Everything ``MIDIPlayer``'s control side and its render thread share, and nothing else: the
/// two lock-free queues between them and the few values either side publishes atomically.
///
/// The control side writes commands and plans, and reads positions and callbacks; the render
/// thread the reverse. Neither waits for the other.
final class PlayerMailbox: @unchecked Sendable {
    /// Control → render: transport, seeks, rate, loop counts, tail settings.
    let commands: SPSCRing<PlayerCommand>
    /// Render → control: what happened, for the handlers.
    let callbacks: SPSCRing<PlayerCallback>
    /// Control → render: the latest plan (unretained; the control side keeps it alive).
    let pendingPlan = ManagedAtomic<UnsafeMutableRawPointer?>(nil)
    /// Render → control: the generation of the plan in use, so older ones can be released.
    let planGeneration = ManagedAtomic<Int>(0)
    /// Render → control: the serial of the last command applied, so its seek plan can go.
    let appliedCommandSerial = ManagedAtomic<Int>(0)
    /// Render → control: the song position in frames at rate 1, as a `Double`'s bits.
    let positionBits = ManagedAtomic<UInt64>(0)
    /// Both: whether the song plays (its tail included).
    let isPlaying = ManagedAtomic<Bool>(false)
    /// Control → render: lift pedals at the song's end.
    let liftsPedalsAtEnd = ManagedAtomic<Bool>(true)
    /// Render → control: the output frame of the last completion (−1: none since play).
    let completionFrame = ManagedAtomic<Int64>(-1)
    /// Render → control: callbacks that found the queue full.
    let droppedCallbacks = ManagedAtomic<Int>(0)

    init(callbackCapacity: Int) {
        commands = SPSCRing(minimumCapacity: 256)
        callbacks = SPSCRing(minimumCapacity: callbackCapacity)
    }

    /// Queues a callback (render thread); a full queue drops it and counts it.
    @inline(__always)
    func post(_ callback: PlayerCallback) {
        if !callbacks.push(callback) { droppedCallbacks.wrappingIncrement(ordering: .relaxed) }
    }
}

/// A request from the control thread to the render thread.
struct PlayerCommand {
    enum Kind {
        case play, pause, stop
        case seek(Unmanaged<SeekPlan>)
        case rate(Double)
        /// The jumps back the loop makes from now on (−1: for ever).
        case loopJumps(Int)
        case maximumTail(Double)
    }

    var serial: Int
    var kind: Kind
}

/// What the render thread does on a seek: where to go and what to send first. Built on the
/// control thread (it allocates); the player keeps it alive until the render thread has used it.
final class SeekPlan: @unchecked Sendable {
    /// The song frame to continue from.
    let frame: Double
    let chase: [ChaseMessage]
    /// The command serial of the command carrying it.
    var serial = 0

    init(frame: Double, chase: [ChaseMessage]) {
        self.frame = frame
        self.chase = chase
    }
}
