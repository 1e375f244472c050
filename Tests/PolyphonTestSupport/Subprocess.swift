import Foundation

/// A helper program started with `posix_spawn` for the end-to-end tests (a sound server, a
/// recorder, the CLI).
///
/// Not Foundation's `Process`: the test process blocks some signals and its children inherit
/// the mask, so `parec` never sees SIGINT; and reaping through `Process` hung when the child
/// was killed. Here the child gets an empty signal mask and default handlers, and is reaped
/// with `waitpid`.
public final class Subprocess: @unchecked Sendable {
    public let pid: pid_t
    private var status: Int32?

    /// Starts `executable` with `arguments`, the environment plus `environment`, standard
    /// input from `input` (or /dev/null), standard output to `output` and standard error to
    /// `errors` (or /dev/null).
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
         input: String? = nil, output: String? = nil, errors: String? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child = pid_t()
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            struct SpawnFailed: Error, CustomStringConvertible { var description: String }
            throw SpawnFailed(description: "\(executable): posix_spawn failed with \(result)")
        }
        pid = child
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool {
        if status != nil { return false }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid { status = raw; return false }
        return true
    }

    /// Waits up to `timeout` seconds; returns the exit code (or 128 + signal), nil on timeout.
    @discardableResult
    public func wait(timeout: Double = 60) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning {
            if Date() > deadline { return nil }
            usleep(5_000)
        }
        guard let status else { return nil }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Sends `signal`, waits up to `grace` seconds, then kills.
    public func stop(signal: Int32 = SIGINT, grace: Double = 2) {
        guard isRunning else { return }
        kill(pid, signal)
        if wait(timeout: grace) == nil {
            kill(pid, SIGKILL)
            wait(timeout: 10)
        }
    }

    deinit { stop(signal: SIGKILL) }
}
