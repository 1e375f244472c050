import Foundation

/// Waits for Ctrl-C (SIGINT) or SIGTERM so a live session ends by draining its output instead
/// of being cut off mid-buffer.
enum LiveInterrupt {
    nonisolated(unsafe) private static var received: sig_atomic_t = 0

    static func waitForInterrupt() {
        signal(SIGINT) { _ in LiveInterrupt.received = 1 }
        signal(SIGTERM) { _ in LiveInterrupt.received = 1 }
        while received == 0 { Thread.sleep(forTimeInterval: 0.05) }
    }
}
