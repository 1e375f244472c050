import Atomics
import Foundation

/// Stops a render from outside, or once a wall-clock deadline has passed.
///
/// The render loop asks ``isCancelled`` once per block (a clock read and an atomic load, no
/// allocation) and throws ``RenderCancelledError`` at the first block boundary after the
/// request or the deadline, so a render that runs too long is abandoned within one block instead
/// of being waited for. Whatever the sink received up to then is a prefix of the full render.
public final class RenderCancellation: Sendable {
    private let requested = ManagedAtomic<Bool>(false)
    /// Monotonic deadline in nanoseconds (`DispatchTime.uptimeNanoseconds`); `UInt64.max` for none.
    private let deadline: UInt64
    /// The wall seconds allowed, for the error message.
    public let timeLimit: Double?

    /// A cancellation that fires when ``cancel()`` is called or, with `timeLimit`, that many
    /// wall-clock seconds after this initialiser returns.
    public init(timeLimit: Double? = nil) {
        self.timeLimit = timeLimit
        if let timeLimit, timeLimit.isFinite, timeLimit >= 0 {
            let now = DispatchTime.now().uptimeNanoseconds
            let span = timeLimit * 1e9 >= Double(UInt64.max / 2) ? UInt64.max / 2 : UInt64(timeLimit * 1e9)
            deadline = now + span
        } else {
            deadline = .max
        }
    }

    /// Asks the render to stop at its next block.
    public func cancel() { requested.store(true, ordering: .relaxed) }

    /// Whether the render should stop now.
    public var isCancelled: Bool {
        requested.load(ordering: .relaxed)
            || (deadline != .max && DispatchTime.now().uptimeNanoseconds >= deadline)
    }

    /// Throws ``RenderCancelledError`` when ``isCancelled``; `framesRendered` says how far it got.
    @inline(__always)
    func check(framesRendered: Int64, sampleRate: Double) throws(RenderCancelledError) {
        if isCancelled {
            throw RenderCancelledError(timeLimit: requested.load(ordering: .relaxed) ? nil : timeLimit,
                                       secondsRendered: Double(framesRendered) / sampleRate)
        }
    }
}

/// A render stopped by its ``RenderCancellation``.
public struct RenderCancelledError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The wall-clock limit that ran out, or `nil` when the render was cancelled explicitly.
    public var timeLimit: Double?
    /// Audio seconds rendered before it stopped.
    public var secondsRendered: Double

    public var description: String {
        if let timeLimit {
            return String(format: "took longer than %g s of wall time (stopped after %.1f s of audio)",
                          timeLimit, secondsRendered)
        }
        return String(format: "cancelled after %.1f s of audio", secondsRendered)
    }
}
