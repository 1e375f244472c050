import Atomics
import Dispatch
import PolyphonAudio
import PolyphonSynth
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The threads a `Synthesizer` renders its voices on: the render thread and `threadCount − 1`
/// workers, started once when the pool is made and stopped when it is released.
///
/// ```swift
/// let synthesizer = try Synthesizer(soundBank: bank, threads: RenderThreads(count: 4))
/// ```
///
/// Every thread count gives the same output, byte for byte (`RenderThreadPool`). Handing out
/// a chunk's tasks takes no lock and allocates nothing: the render thread publishes them with
/// one atomic store, takes part itself, and spins only while tasks other threads have begun
/// are still running. Workers spin briefly for the next tasks, then yield the processor between
/// checks for a while, then sleep until woken. One
/// synthesizer at a time uses a pool.
public final class RenderThreads: RenderThreadPool, @unchecked Sendable {
    public let threadCount: Int
    private let shared: Shared
    private let workers: [pthread_t]

    /// A pool of `count` threads, the render thread included (`count − 1` are started; 1 starts
    /// none and renders on the calling thread alone). Fewer when the system refuses a thread.
    public init(count: Int) {
        let shared = Shared()
        var started: [pthread_t] = []
        for _ in 1..<max(1, min(count, 256)) {
            // Numbered densely, so a thread that could not be started leaves no gap.
            let start = Unmanaged.passRetained(Worker(shared: shared, number: started.count + 1)).toOpaque()
            #if canImport(Glibc)
            var thread = pthread_t()
            if pthread_create(&thread, nil, { Worker.run($0!) }, start) == 0 {
                started.append(thread)
                continue
            }
            #else
            var thread: pthread_t?
            if pthread_create(&thread, nil, { Worker.run($0) }, start) == 0, let thread {
                started.append(thread)
                continue
            }
            #endif
            Unmanaged<Worker>.fromOpaque(start).release()
        }
        self.shared = shared
        workers = started
        threadCount = started.count + 1
    }

    deinit {
        shared.stop(workerCount: workers.count)
        for thread in workers { pthread_join(thread, nil) }
    }

    public func perform(_ work: any ParallelRenderWork, taskCount: Int) {
        guard taskCount > 0 else { return }
        precondition(taskCount <= Shared.maximumTasks, "at most \(Shared.maximumTasks) tasks at once")
        guard !workers.isEmpty && taskCount > 1 else {
            for i in 0..<taskCount { work.performTask(i, thread: 0) }
            return
        }
        shared.publish(work, taskCount: taskCount)
        shared.takeTasks(thread: 0)
        shared.waitForTasks()
    }

    /// What the render thread and the workers share.
    final class Shared: @unchecked Sendable {
        /// The job in one word: its generation (from bit 32), its task count (bits 16–31) and
        /// the next task to take (bits 0–15). A task is taken by advancing the word, which fails
        /// once another job has begun; the count travels with the index, so a thread can never
        /// weigh one job's index against another job's count.
        let claim = ManagedAtomic<Int>(0)
        /// Tasks of the current job not yet finished.
        let unfinished = ManagedAtomic<Int>(0)
        let sleepers = ManagedAtomic<Int>(0)
        let stopping = ManagedAtomic<Bool>(false)
        let wake = DispatchSemaphore(value: 0)
        /// The current job: written before its claim word is published, read after it is seen.
        nonisolated(unsafe) unowned(unsafe) var work: (any ParallelRenderWork)?
        nonisolated(unsafe) var generation = 0

        static let indexMask = 0xFFFF
        static let countShift = 16
        static let generationShift = 32
        /// Tasks one job may have.
        static let maximumTasks = 0xFFFF

        func publish(_ work: any ParallelRenderWork, taskCount: Int) {
            self.work = work
            unfinished.store(taskCount, ordering: .relaxed)
            generation = (generation + 1) & 0x7FFF_FFFF
            claim.store(generation << Self.generationShift | taskCount << Self.countShift, ordering: .sequentiallyConsistent)
            let sleeping = sleepers.load(ordering: .sequentiallyConsistent)
            for _ in 0..<sleeping { wake.signal() }
        }

        /// Takes and runs tasks of the job current when called until none is left.
        @inline(__always)
        func takeTasks(thread: Int) {
            while true {
                let c = claim.load(ordering: .acquiring)
                let index = c & Self.indexMask
                guard index < (c >> Self.countShift) & Self.indexMask else { return }
                let (exchanged, _) = claim.weakCompareExchange(expected: c, desired: c + 1, ordering: .acquiring)
                guard exchanged else { continue }
                work?.performTask(index, thread: thread)
                unfinished.wrappingDecrement(ordering: .releasing)
            }
        }

        /// Spins until every task of the job has finished (those taken by workers last).
        func waitForTasks() {
            while unfinished.load(ordering: .acquiring) > 0 {}
        }

        func stop(workerCount: Int) {
            stopping.store(true, ordering: .sequentiallyConsistent)
            generation = (generation + 1) & 0x7FFF_FFFF
            claim.store(generation << Self.generationShift, ordering: .sequentiallyConsistent)
            for _ in 0..<workerCount { wake.signal() }
        }
    }

    /// One worker thread: waits for a job, takes its tasks, waits again.
    final class Worker {
        let shared: Shared
        let number: Int
        /// Checks for a new job before yielding: a moment only, since a worker that spins holds a
        /// core that the file writer or another process may need (on two cores, a render with
        /// two threads and a writer has three threads to run)…
        static let spins = 100
        /// …then checks between yields of the processor to any other thread that waits for it,
        /// for a millisecond or two: a song's chunk takes about 60 µs, and a few chunks kept on
        /// the render thread (too few voices) or its events must not put the workers to sleep,
        /// as waking one costs the render thread a system call and the worker tens of
        /// microseconds, by which time the render thread has taken the round's tasks itself. A
        /// yield returns at once when nothing else waits, so an idle worker still answers within
        /// a microsecond or so, and it leaves the core to whatever does wait.
        static let yieldingSpins = 2_000

        init(shared: Shared, number: Int) {
            self.shared = shared
            self.number = number
        }

        /// The workers' name, in `top -H` and to the live tests' allocation probe (at most 15
        /// bytes on Linux).
        static let name = "polyphon-voices"

        static func run(_ start: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
            let worker = Unmanaged<Worker>.fromOpaque(start).takeRetainedValue()
            nameCurrentThread(name)
            worker.loop()
            return nil
        }

        private func loop() {
            var seen = 0
            while true {
                let generation = waitForJob(after: seen)
                if shared.stopping.load(ordering: .acquiring) { return }
                seen = generation
                shared.takeTasks(thread: number)
            }
        }

        /// The generation of the next job after `seen`: spins for a while, then sleeps.
        private func waitForJob(after seen: Int) -> Int {
            let shift = Shared.generationShift
            for _ in 0..<Self.spins {
                let generation = shared.claim.load(ordering: .acquiring) >> shift
                if generation != seen { return generation }
            }
            for _ in 0..<Self.yieldingSpins {
                sched_yield()
                let generation = shared.claim.load(ordering: .acquiring) >> shift
                if generation != seen { return generation }
            }
            while true {
                shared.sleepers.wrappingIncrement(ordering: .sequentiallyConsistent)
                let generation = shared.claim.load(ordering: .sequentiallyConsistent) >> shift
                if generation != seen {
                    shared.sleepers.wrappingDecrement(ordering: .sequentiallyConsistent)
                    return generation
                }
                shared.wake.wait()
                shared.sleepers.wrappingDecrement(ordering: .sequentiallyConsistent)
                let woken = shared.claim.load(ordering: .acquiring) >> shift
                if woken != seen { return woken }
            }
        }
    }
}
