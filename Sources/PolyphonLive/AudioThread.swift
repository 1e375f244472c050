#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PolyphonAudio

/// A joinable POSIX thread with a name, for the render and writer threads.
///
/// POSIX rather than Foundation's `Thread` so the thread can ask for real-time scheduling and
/// be joined, and so its name (`polyphon-render`, visible in `top -H` and to the allocation
/// probe in the tests) is set before its first line of work.
struct AudioThread: @unchecked Sendable {
    // @unchecked: pthread_t is a handle; only the creating thread joins it.
    private let thread: pthread_t

    private final class Start {
        let name: String
        let realTimePriority: Int32?
        let body: @Sendable () -> Void
        init(name: String, realTimePriority: Int32?, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.realTimePriority = realTimePriority
            self.body = body
        }
    }

    /// Starts `body` on a new thread named `name` (at most 15 bytes on Linux). With
    /// `realTimePriority`, the thread asks for `SCHED_FIFO` at that priority and runs normally
    /// when the system refuses (an unprivileged user without an rtprio limit).
    init?(name: String, realTimePriority: Int32? = nil, body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(name: name, realTimePriority: realTimePriority, body: body))
        #if canImport(Darwin)
        var handle: pthread_t?
        let result = pthread_create(&handle, nil, { argument in
            AudioThread.run(Unmanaged<Start>.fromOpaque(argument).takeRetainedValue())
            return nil
        }, start.toOpaque())
        guard result == 0, let handle else { start.release(); return nil }
        thread = handle
        #else
        var handle = pthread_t()
        let result = pthread_create(&handle, nil, { argument in
            AudioThread.run(Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue())
            return nil
        }, start.toOpaque())
        guard result == 0 else { start.release(); return nil }
        thread = handle
        #endif
    }

    private static func run(_ start: Start) {
        nameCurrentThread(start.name)
        if let priority = start.realTimePriority {
            var parameters = sched_param()
            parameters.sched_priority = priority
            _ = pthread_setschedparam(pthread_self(), Int32(SCHED_FIFO), &parameters)
        }
        start.body()
    }

    /// Waits for the thread to finish.
    func join() {
        _ = pthread_join(thread, nil)
    }

    /// Sleeps the calling thread for `seconds` (a system call: no lock, no allocation).
    static func sleep(seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// A monotonic clock in seconds.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
