import Foundation

/// A counting shim for the C allocator, compiled at test time with `cc` and loaded into the
/// CLI with `LD_PRELOAD`: every malloc, calloc, realloc, memalign-family call and free made on
/// the render thread (`polyphon-render`) or a voice worker (`polyphon-voices`, `--threads`) is
/// counted, and the counts are written at exit.
///
/// The threads are recognised by their names (`prctl(PR_GET_NAME)`), which they set before
/// their first block, so the measurement needs no hook in the library. Counting starts
/// when the process receives SIGUSR1 and stops at SIGUSR2, so a test can let first-use set-up
/// pass (a warm-up chord) and measure the passage itself, not the threads' teardown.
enum AllocationProbe {
    static let source = #"""
    #define _GNU_SOURCE
    #include <stdatomic.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <sys/prctl.h>

    extern void *__libc_malloc(size_t);
    extern void *__libc_calloc(size_t, size_t);
    extern void *__libc_realloc(void *, size_t);
    extern void *__libc_memalign(size_t, size_t);
    extern void __libc_free(void *);

    #include <signal.h>

    static atomic_long allocations, frees;
    static atomic_int armed;
    static __thread int busy;

    static void arm(int signal) { atomic_store(&armed, signal == SIGUSR1); }
    __attribute__((constructor)) static void install(void) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = arm;
        sigaction(SIGUSR1, &action, 0);
        sigaction(SIGUSR2, &action, 0);
    }

    static int on_render_thread(void) {
        char name[17] = {0};
        if (prctl(PR_GET_NAME, name, 0, 0, 0) != 0) return 0;
        return strcmp(name, "polyphon-render") == 0 || strcmp(name, "polyphon-voices") == 0;
    }
    static void count(atomic_long *counter) {
        if (busy || !atomic_load(&armed)) return;
        busy = 1;
        if (on_render_thread()) atomic_fetch_add(counter, 1);
        busy = 0;
    }
    void *malloc(size_t n) { count(&allocations); return __libc_malloc(n); }
    void *calloc(size_t n, size_t s) { count(&allocations); return __libc_calloc(n, s); }
    void *realloc(void *p, size_t n) { count(&allocations); return __libc_realloc(p, n); }
    void *memalign(size_t a, size_t n) { count(&allocations); return __libc_memalign(a, n); }
    void *aligned_alloc(size_t a, size_t n) { count(&allocations); return __libc_memalign(a, n); }
    int posix_memalign(void **out, size_t a, size_t n) {
        count(&allocations);
        void *p = __libc_memalign(a, n);
        if (!p) return 12;
        *out = p;
        return 0;
    }
    void free(void *p) { if (p) count(&frees); __libc_free(p); }

    __attribute__((destructor)) static void report(void) {
        const char *path = getenv("POLYPHON_ALLOCATION_REPORT");
        if (!path) return;
        FILE *file = fopen(path, "w");
        if (!file) return;
        fprintf(file, "%ld %ld\n", atomic_load(&allocations), atomic_load(&frees));
        fclose(file);
    }
    """#

    static let compiler = "/usr/bin/cc"

    /// Compiles the shim into `directory` and returns its path.
    static func build(in directory: TemporaryDirectory) throws -> String {
        let sourcePath = directory.file("allocation_probe.c")
        let library = directory.file("allocation_probe.so")
        try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        let compile = try Subprocess(compiler, ["-shared", "-fPIC", "-O2", "-o", library, sourcePath],
                                     errors: directory.file("cc.log"))
        guard compile.wait(timeout: 120) == 0 else {
            struct CompileFailed: Error, CustomStringConvertible { var description: String }
            throw CompileFailed(description: (try? String(contentsOfFile: directory.file("cc.log"), encoding: .utf8)) ?? "cc failed")
        }
        return library
    }

    /// Reads the counts a run wrote: (allocations, frees) on the render thread.
    static func read(_ path: String) throws -> (allocations: Int, frees: Int) {
        let fields = try String(contentsOfFile: path, encoding: .utf8).split(separator: " ")
            .compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard fields.count == 2 else { return (-1, -1) }
        return (fields[0], fields[1])
    }
}
